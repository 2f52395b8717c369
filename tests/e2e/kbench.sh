#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own bench through the exec workload: scripts/kbench-build.sh
# builds the selftests' ring buffer benches from Debian's linux-source-6.1
# into .cache/kbench (skipped, with the script's reason, where it cannot),
# then specs/kbench_ringbuf.spec runs it, unmodified.  Its programs attach
# with fentry: on a kernel that refuses it (this host: lockdown) every
# point comes out failed with the bench's own error lines as the reason,
# and the sweep goes on; where fentry works (the test kernel's VM:
# KBENCH_KERNEL=$(scripts/vm-kernel.sh)) the points are ok, with the
# bench's seconds as the intervals.  `kbench.sh --vm` does the latter with
# the kernel scripts/vm-kernel.sh fetches, its checks named kbench-vm/.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=kbench
if [ "${1-}" = --vm ]; then
	N=kbench-vm
	if ! KBENCH_KERNEL=$(scripts/vm-kernel.sh 2>"$TMP/vmk.err"); then
		skip $N/kernel "no test kernel: $(tail -n1 "$TMP/vmk.err")"
		exit 0
	fi
fi

if ! BENCH=$(scripts/kbench-build.sh 2>"$TMP/build.err"); then
	skip $N/build "$(tail -n1 "$TMP/build.err")"
	exit 0
fi
check $N/built [ -x "$BENCH" ] && [ "$BENCH" -ef .cache/kbench/bench ]
if [ "$(id -u)" -ne 0 ]; then
	skip $N/run "the bench needs root"
	exit 0
fi

# 6.1's bench has no --rb-overwrite: the table without it, two points;
# the bench's -a wants a CPU per thread, more than a 2-CPU VM has
KOPT=()
[ -n "${KBENCH_KERNEL:-}" ] && KOPT=(--kernel "$KBENCH_KERNEL")
$BPFSWEEP specs/kbench_ringbuf.spec --quick --set overwrite=off --set cpu_affinity=off \
	--set producers="1 2" \
	"${KOPT[@]}" -o "$TMP/k" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
S=$TMP/k/summary.csv
check $N/both_points_have_rows [ "$(csv_col "$S" status | wc -l)" = 2 ]
# the test kernel allows fentry: there the bench must run, not fail
[ "$N" = kbench-vm ] && check $N/fentry_points_ok [ "$(csv_col "$S" status | sort -u)" = ok ]
if [ "$(csv_col "$S" status | sort -u)" = ok ]; then
	check $N/ok_exit_0 [ "$rc" = 0 ]
	# --quick: -w1 -d1; bench.c prints iterations 0..2, the first its warmup
	check $N/intervals_are_the_bench_seconds [ "$(csv_col "$TMP/k/samples.csv" warmup point 0 |
		tr '\n' ' ')" = "1 0 0 " ]
	# the seed's table, also after the VM's run is merged back
	check $N/table_row grep -q "^rb-libbpf nr_prod 2  *[0-9.]* ± [0-9.]*M/s ([0-9.]*M/prod, drops " \
		"$TMP/k/table.txt"
	check $N/hits_positive awk -v v="$(csv_col "$S" hits_per_s_mean point 0)" \
		'BEGIN { exit !(v > 0) }'
else
	check $N/failed_exit_1 [ "$rc" = 1 ]
	check $N/all_failed [ "$(csv_col "$S" status | sort -u)" = failed ]
	# the bench's own words: libbpf's lines and bench.c's "failed to load skeleton"
	check $N/table_says_why grep -q "^rb-libbpf nr_prod 1  *failed: exit status 1: " \
		"$TMP/k/table.txt"
	check $N/reason_is_the_bench_stderr grep -q \
		"exit status 1: libbpf: .* | failed to load skeleton" <(csv_col "$S" reason)
fi

# The rawtp variant (the bench's programs on raw_tp/sys_enter instead of
# fentry), which this host runs, and one quick round of the calibration
# through it: the same six points on both sides, each with a paired ratio.
# On the host only: the VM runs the unmodified bench above.
[ -n "${KBENCH_KERNEL:-}" ] && exit 0
if ! RAWTP=$(scripts/kbench-build.sh --rawtp 2>"$TMP/rawtp.err"); then
	fail $N/rawtp_built "$(tail -n1 "$TMP/rawtp.err")"
	exit 0
fi
check $N/rawtp_built [ "$RAWTP" -ef .cache/kbench/bench-rawtp ]
BPFSWEEP=$BPFSWEEP scripts/calibrate.sh --rawtp --no-affinity --rounds 1 --quick \
	--out "$TMP/cal" >"$TMP/cal.out" 2>"$TMP/cal.err" </dev/null
check $N/calibrate_exit_0 [ $? = 0 ]
for p in "rb-libbpf sampled" "rb-custom sampled" "pb-libbpf sampled" \
	"rb-libbpf nr_prod 2" "rb-libbpf nr_prod 4" "rb-libbpf nr_prod 8"; do
	check "$N/calibrate_ratio/${p// /_}" grep -Eq \
		"^$p +hits +[0-9]+\.[0-9]+  \(1 round\)$" "$TMP/cal.out"
done
# the bench's side really ran: its hits, from its own Summary lines
check $N/rawtp_points_ok [ "$(csv_col "$TMP/cal/kbench/1/summary.csv" status | sort -u)" = ok ]
# what follows -- goes to both sides' run: one block, one bench, one point each
BPFSWEEP=$BPFSWEEP scripts/calibrate.sh --rawtp --no-affinity --rounds 1 --quick \
	--out "$TMP/cal1" -- --only "Single producer, sampled notification" \
	--set bench=rb-custom >"$TMP/cal1.out" 2>"$TMP/cal1.err" </dev/null
check $N/calibrate_passes_run_args_exit_0 [ $? = 0 ]
check $N/calibrate_passes_run_args [ "$(grep -Ec ' hits +[0-9]' "$TMP/cal1.out")" = 1 ]
check $N/calibrate_passes_run_args_point grep -Eq \
	"^rb-custom sampled +hits +[0-9]+\.[0-9]+  \(1 round\)$" "$TMP/cal1.out"
