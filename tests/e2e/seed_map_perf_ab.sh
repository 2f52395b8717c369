#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Seed 001's before/after on two real Debian kernels, for function (under
# TCG here), decided: specs/seed_map_perf.spec with decide = 5 % (short
# units, at most 5 rounds) and --kernel BASE --kernel PATCHED, BASE Debian's 6.1 (scripts/vm-kernel.sh 6.1), whose virtio-pci
# and virtiofs are modules, so that it boots through the initramfs
# vm-kernel.sh packs for it, PATCHED the newest cloud kernel (>= 6.19).
# One boot per kernel, both guests up at once and each point's units
# alternating between them in shuffled rounds (conductor.h): one result set
# whose rows name each kernel's release and carry the decision (the
# first kernel's "baseline"), samples whose rounds put each kernel at
# each place of a round, the table in the seed's shape (a block per
# map_perf_test command line, one "N:hash_map_perf kmalloc ... events per
# sec" line a worker), and compare on the pair.  Skipped with the reason without root, qemu or
# the archive (a kernel not cached and not downloadable).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT
SPEC=specs/seed_map_perf.spec
T=seed-map-perf-ab

why=
if [ "$(id -u)" != 0 ]; then
	why="not root (virtiofsd and the guest's BPF need it)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="qemu-system-x86_64 not installed (make deps installs qemu-system-x86)"
elif ! BASE=$(scripts/vm-kernel.sh 6.1 2>"$TMP/base.err"); then
	why="no 6.1 kernel (archive not reachable?): $(tail -n1 "$TMP/base.err")"
elif ! PATCHED=$(scripts/vm-kernel.sh 2>"$TMP/patched.err"); then
	why="no test kernel: $(tail -n1 "$TMP/patched.err")"
fi
if [ -n "$why" ]; then
	skip $T "$why"
	exit 0
fi
BASE_REL=$(basename "$(dirname "$BASE")")
PATCHED_REL=$(basename "$(dirname "$PATCHED")")

# the 6.1 image's drivers for its root are modules: an initramfs beside it
check $T/base-is-6.1 [ "${BASE_REL#6.1.}" != "$BASE_REL" ]
check $T/base-virtiofs-module grep -qx CONFIG_VIRTIO_FS=m "${BASE%/*}/config"
check $T/base-initrd-newc [ "$(head -c 6 "${BASE%/*}/initrd.cpio")" = 070701 ]
check $T/patched-no-initrd [ ! -e "${PATCHED%/*}/initrd.cpio" ]

start=$(date +%s)
# without the statistics pass (1.25 s a point under TCG, 8 points): nothing
# here checks ns_per_run, and kernel.sh's guest runs the pass
$BPFSWEEP run $SPEC --set bpf_stats=off --set warmup=0.25s --set duration=0.5s \
	--set decide=5% --set max_repeat=5 --kernel "$BASE" --kernel "$PATCHED" \
	-o "$TMP/ab" --no-plots \
	</dev/null >"$TMP/ab.out" 2>"$TMP/ab.err"
rc=$?
echo "  (the A/B: two boots at once, 4 points in rounds, in $(($(date +%s) - start)) s)"
if ! check $T/exit-0 [ $rc = 0 ]; then
	tail -n 8 "$TMP/ab.err" | sed 's/^/  | /'
fi
S=$TMP/ab/summary.csv

# 6.1 booted through the initramfs: its init loaded the modules and mounted the root
check $T/base-booted-via-initramfs grep -q \
	"^bpfsweep initramfs: [0-9]* modules loaded, bpfsweep-root mounted" "$TMP/ab/vm/1/console.log"
check $T/patched-booted-without not grep -q "bpfsweep initramfs" "$TMP/ab/vm/2/console.log"

# one set: 4 points a kernel, all ok, each row naming the kernel it ran on
check $T/eight-rows [ "$(csv_col "$S" point | wc -l)" = 8 ]
check $T/all-ok [ "$(csv_col "$S" status | sort -u)" = ok ]
check $T/all-in-vm [ "$(csv_col "$S" executor | sort -u)" = vm ]
check $T/base-rows-release [ "$(csv_col "$S" kernel_release run 1 | sort -u)" = "$BASE_REL" ]
check $T/patched-rows-release [ "$(csv_col "$S" kernel_release run 2 | sort -u)" = "$PATCHED_REL" ]
check $T/releases-differ [ "$(csv_col "$S" kernel_release | sort -u | wc -l)" = 2 ]
check $T/events-counted [ "$(csv_col "$S" events_per_s_mean | awk '$1 > 0' | wc -l)" = 8 ]

# the table: per kernel, a block per command line, the seed's worker lines
blocks() { grep -c "^map_perf_test 4 [12]\( 16384\)\?: hash_map_perf kmalloc" "$TMP/ab.out"; }
check $T/table-blocks [ "$(blocks)" = 8 ]
check $T/table-kernels [ "$(grep -c "^run [12]: .*kernel \($BASE_REL\|$PATCHED_REL\)" \
	"$TMP/ab.out")" = 2 ]
check $T/table-worker-lines [ "$(grep -cE '^[01]:hash_map_perf kmalloc [0-9]+ events per sec$' \
	"$TMP/ab.out")" = 12 ]

# compare on the pair (both under TCG alike: no --allow-tcg needed): base and new
# named by their releases, a row per point and metric: the headline's, events, one a point,
# in whatever unit its rates print (a guest under TCG on a loaded machine may give k/s)
$BPFSWEEP compare "$TMP/ab/runs/1" "$TMP/ab/runs/2" >"$TMP/cmp.out" 2>"$TMP/cmp.err"
check $T/compare-exit-0 [ $? = 0 ]
check $T/compare-base grep -q "^base: .*($BASE_REL, x86_64)" "$TMP/cmp.out"
check $T/compare-new grep -q "^new: .*($PATCHED_REL, x86_64)" "$TMP/cmp.out"
check $T/compare-rows [ "$(grep -cE \
	'^hash_map_perf kmalloc +(events +)?[0-9.]+ → +[0-9.]+[kMG]?/s ' \
	"$TMP/cmp.out")" = 4 ]
# what compare printed, into the log where that check failed
[ "$(grep -cE '^hash_map_perf kmalloc +(events +)?[0-9.]+ → +[0-9.]+[kMG]?/s ' \
	"$TMP/cmp.out")" = 4 ] || sed 's/^/  | /' "$TMP/cmp.out"

# the rounds: a line per point, a decision in each of run 2's rows, the
# baseline's in run 1's, and OUT/meta saying how they ran
check $T/rounds-lines [ "$(grep -cE '^rounds: map_perf_test 4 .*: run 2 against run 1: '\
'(different|same|undecided)' "$TMP/ab.err")" = 4 ]
check $T/rounds-total grep -qE '^rounds across kernels: [0-4] of 4 points decided$' "$TMP/ab.err"
check $T/rounds-meta grep -q '^kernel_rounds: every point' "$TMP/ab/meta"
check $T/rounds-baseline [ "$(csv_col "$S" decision run 1 | sort -u)" = baseline ]
check $T/rounds-decisions [ "$(csv_col "$S" decision run 2 |
	grep -cE '^(inconclusive \([a-z,]+\): )?(different|same|undecided)')" = 4 ]
check $T/rounds-stop [ "$(csv_col "$S" stop run 2 | grep -cxE 'decided|budget')" = 4 ]
check $T/rounds-table [ "$(grep -cE '^hash_map_perf kmalloc .*  (baseline|different|same|undecided)' \
	"$TMP/ab.out")" = 8 ]
# each round ran each kernel once, at complementary places: (point, round)
# holds slot 0 on one kernel and slot 1 on the other, every one of them
slots() {
	paste -d' ' <(csv_col "$1" point) <(csv_col "$1" rep) <(csv_col "$1" slot) | sort -u
}
slots "$TMP/ab/runs/1/samples.csv" >"$TMP/slots1"
slots "$TMP/ab/runs/2/samples.csv" >"$TMP/slots2"
units1=$(wc -l <"$TMP/slots1")
check $T/rounds-units [ "$units1" -ge 12 -a "$units1" = "$(wc -l <"$TMP/slots2")" ]
pairs() { awk '{ print $1 "/" $2, $3 }' "$1" | sort; }
check $T/rounds-slots-complement [ "$(join <(pairs "$TMP/slots1") <(pairs "$TMP/slots2") |
	awk '$2 + $3 == 1' | wc -l)" = "$units1" ]
check $T/rounds-both-places [ "$(cut -d' ' -f3 "$TMP/slots1" | sort -u | tr '\n' ' ')" = "0 1 " ]

# compare of the one directory: run 2 against run 1, the headline's verdicts
# the rounds' own (paired, decided as they ran), the same words as the rows
$BPFSWEEP compare "$TMP/ab" >"$TMP/cmp1.out" 2>"$TMP/cmp1.err"
check $T/compare-out-exit-0 [ $? = 0 ]
check $T/compare-out-note grep -q "^note: the verdicts of events are the rounds' own: .*for 4 points$" \
	"$TMP/cmp1.out"
# as many points undecided, and different (faster or slower), as the rows say
rows() { grep -E '^hash_map_perf kmalloc +events ' "$TMP/cmp1.out"; }
check $T/compare-out-undecided [ "$(rows | grep -c ' undecided after ')" = \
	"$(csv_col "$S" decision run 2 | grep -c '^undecided')" ]
check $T/compare-out-different [ "$(rows | grep -cE '  (faster|slower)$')" = \
	"$(csv_col "$S" decision run 2 | grep -c '^different')" ]
check $T/compare-out-rows [ "$(grep -cE '^hash_map_perf kmalloc +events ' "$TMP/cmp1.out")" = 4 ]
