#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/seed_htab_mem.spec (seed 000, the kernel's htab-mem bench) through
# the whole tool, as root, quick: every point is measured with ops, or is
# unsupported with the kernel's reason; the seed's two tables come out
# line by line in the seed's shape; every point has the memory of its own
# cgroup (gone after the run, also one stopped by Ctrl-C or killed), split
# into the map's memlock and the cgroup's other kernel memory; each
# producer's count is in samples.csv.  specs/htab_mem.spec (the family's
# wider sweep of the same points) is checked, and its first block runs for
# the signal and --resume tests.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/thread_rows.sh

if [ "$(id -u)" -ne 0 ]; then
	skip htab_mem/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

$BPFSWEEP check specs/htab_mem.spec >/dev/null 2>"$TMP/err"
check htab_mem/family-spec-checks [ $? = 0 ]

D=$TMP/run
# without the statistics pass, 0.3 s a point after --quick's 0.25 s of warmup
# (its 1 s, 2 producers spinning, made about 35 s of CPU over the 14 points):
# nothing here checks ns_per_run, which map_perf.sh and ringbuf.sh do, nor a
# rate.  Not 0.1 s of warmup: once, on a machine at load 11, both producers
# of a point had no CPU at all through its 0.3 s (stalled, "starved")
$BPFSWEEP specs/seed_htab_mem.spec --quick --set bpf_stats=off \
	--set duration=300ms --set interval=100ms -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null &
PID=$!
wait $PID
check htab_mem/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/seed_htab_mem.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check htab_mem/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: use_case, prealloc, value_size, status, ops/s, reason
paste <(csv_col "$SUM" use_case) <(csv_col "$SUM" prealloc) <(csv_col "$SUM" value_size) \
	<(csv_col "$SUM" status) <(csv_col "$SUM" ops_per_s_mean) \
	<(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS=$'\t' read -r uc pre vs st ops why; do
	case "$st" in
	ok)
		awk -v o="$ops" 'BEGIN { exit !(o > 0) }' && continue
		fail "htab_mem/$uc-$pre-$vs" "ops/s $ops" ;;
	unsupported)
		[ -n "$why" ] && { echo "# $uc $pre $vs: unsupported: $why"; continue; }
		fail "htab_mem/$uc-$pre-$vs" "unsupported without a reason" ;;
	*)
		fail "htab_mem/$uc-$pre-$vs" "status $st: $why" ;;
	esac
	bad=1
done <"$TMP/rows"
[ -s "$TMP/rows" ] || bad=1
check htab_mem/every-point-measured-or-unsupported [ "$bad" = 0 ]
# the seed's table: every use case, with and without preallocation, at 8-byte values
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for pre in on off; do
		check "htab_mem/$uc-prealloc-$pre-row" grep -q "^$uc	$pre	8	" "$TMP/rows"
	done
done
# and the memory split reaches the bench's largest value
check htab_mem/value-size-4096 grep -q "	4096	" "$TMP/rows"

# --- the seed's tables, line by line -----------------------------------------
# run_bench_htab_mem.sh: a header per flavour, then printf "%-20s %s" of the
# use case and "per-prod-op: 191.92 ± 0.07k/s, avg mem: 1.23 ± 0.00MiB,
# peak mem: 1.49MiB", in the order overwrite, batch_add_batch_del,
# add_del_on_diff_cpu; here a row's quality flags may follow.  The label
# column is the table's, as wide as its longest label (at least the script's
# 20): the spec's memory split labels its rows "value_size 4096 prealloc off".
NUM='[0-9]+\.[0-9]{2}'
ROW="per-prod-op: $NUM ± ${NUM}k/s, avg mem: $NUM ± ${NUM}MiB, peak mem: ${NUM}MiB( \[[^]]+\])?\$"
# seed_table TITLE: the 3 lines after TITLE's header and its underline
seed_table() {
	awk -v t="$1 (smoke run: --quick)" '$0 == t { getline; n = 3; next } n-- > 0' "$D/table.txt"
}
W=$(awk -F 'per-prod-op: ' 'NF > 1 { print length($1) - 1; exit }' "$D/table.txt")
longest=$(csv_col "$SUM" value_size | awk '{ n = length("value_size " $1 " prealloc off") }
	n > m { m = n } END { print m }')
check htab_mem/seed-table-label-column [ "${W:-0}" = "$((longest > 20 ? longest : 20))" ]
for title in preallocated "normal bpf ma"; do
	seed_table "$title" >"$TMP/seed"
	i=0
	shape=ok
	for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
		i=$((i + 1))
		line=$(sed -n "${i}p" "$TMP/seed")
		# the use case in the label column and a space, as the script's printf
		name=$(printf '%-*s ' "${W:-20}" "$uc")
		[ "${line:0:W+1}" = "$name" ] && grep -Eq "^$ROW" <<<"${line:W+1}" && continue
		shape="line $i: '$line'"
	done
	check "htab_mem/seed-table-$title" [ "$shape" = ok ]
done
check htab_mem/seed-tables-underlined [ "$(grep -cEx '=+' "$D/table.txt")" = 3 ]

# --- memory: the point's own cgroup, split -----------------------------------
# every ok row has the memory of its cgroup, its kernel memory, its map's
# memlock and the rest; the peak of a run is at least its average;
# kmem_other is kmem less memlock, sample by sample, so in the means too
has_memcg() {
	[ -d /sys/fs/cgroup/memory ] || grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null
}
if has_memcg; then
	paste <(csv_col "$SUM" status) <(csv_col "$SUM" mem_mean) <(csv_col "$SUM" mem_peak_max) \
		<(csv_col "$SUM" memlock_mean) <(csv_col "$SUM" kmem_mean) \
		<(csv_col "$SUM" kmem_other_mean) >"$TMP/mem"
	check htab_mem/memory-filled awk -F'\t' '$1 == "ok" { n++
		if (!($2 > 0 && $3 > 0 && $4 > 0 && $5 > 0 && $6 > 0)) bad = 1 }
		END { exit bad || !n }' "$TMP/mem"
	check htab_mem/peak-at-least-mean awk -F'\t' '$1 == "ok" && !($3 >= $2) { exit 1 }' "$TMP/mem"
	check htab_mem/kmem-other-is-kmem-less-memlock awk -F'\t' '$1 == "ok" {
		d = $5 - $4 - $6; if (d > 16 || d < -16) exit 1 }' "$TMP/mem"
	# the seed's comparison: the BPF memory allocator against preallocation
	paste <(csv_col "$SUM" exp) <(csv_col "$SUM" use_case) <(csv_col "$SUM" prealloc) \
		<(csv_col "$SUM" status) <(csv_col "$SUM" kmem_mean) <(csv_col "$SUM" mem_mean) \
		| awk -F'\t' '$1 <= 1' >"$TMP/pre"
	for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
		on=$(awk -F'\t' -v u=$uc '$2 == u && $3 == "on" && $4 == "ok" { print $5 }' "$TMP/pre")
		off=$(awk -F'\t' -v u=$uc '$2 == u && $3 == "off" && $4 == "ok" { print $5 }' "$TMP/pre")
		echo "# $uc: kmem prealloc on $on, off $off bytes"
		# 8192 preallocated elements of 8-byte values: well over 8192 * 32 bytes more
		check "htab_mem/$uc-prealloc-holds-more-kmem" awk -v a="$on" -v b="$off" \
			'BEGIN { exit !(a > 0 && b > 0 && a > b + 8192 * 32) }'
	done
	# the split: a preallocated map of 4 KiB values grows memlock and kmem
	# alike (within 5%); the other charges stay within 256 KiB
	split_of() {
		awk -F'\t' -v v="$1" '$1 == 2 && $2 == v && $3 == "on" { print $4, $5, $6 }' \
			<(paste <(csv_col "$SUM" exp) <(csv_col "$SUM" value_size) \
				<(csv_col "$SUM" prealloc) <(csv_col "$SUM" memlock_mean) \
				<(csv_col "$SUM" kmem_mean) <(csv_col "$SUM" kmem_other_mean))
	}
	read -r l8 k8 o8 <<<"$(split_of 8)"
	read -r l4k k4k o4k <<<"$(split_of 4096)"
	echo "# prealloc on: memlock/kmem/other at 8 B $l8/$k8/$o8, at 4096 B $l4k/$k4k/$o4k"
	check htab_mem/split-map-grows-kmem awk -v l8="${l8:-0}" -v k8="${k8:-0}" \
		-v l="${l4k:-0}" -v k="${k4k:-0}" 'BEGIN { g = l - l8; c = k - k8
		exit !(g > 8192 * 4000 && c > g * 0.95 && c < g * 1.05) }'
	check htab_mem/split-other-stays awk -v a="${o8:-0}" -v b="${o4k:-0}" \
		'BEGIN { d = a - b; exit !(a > 0 && b > 0 && d < 262144 && d > -262144) }'
else
	skip htab_mem/memory "no memory cgroup controller on this machine"
fi
# the cgroups bpfsweep-<pid>-<n> of a run: none once it is over
cgroups_of() { find /sys/fs/cgroup -maxdepth 8 -type d -name "bpfsweep-$1-*" 2>/dev/null; }
check htab_mem/no-cgroup-left [ -z "$(cgroups_of "$PID")" ]

# --- per-producer counts in samples.csv ---------------------------------------
check htab_mem/thread-rows-sum [ "$(thread_rows "$D" ops)" = ok ]

# --- report: the table again, from the files alone --------------------------
cp "$D/table.txt" "$TMP/table.run"
$BPFSWEEP report "$D" >/dev/null 2>"$TMP/err"
check htab_mem/report-exit-0 [ $? = 0 ]
check htab_mem/report-same-table cmp -s "$D/table.txt" "$TMP/table.run"

# --- an odd producer count for add_del_on_diff_cpu: a spec error -------------
$BPFSWEEP specs/htab_mem.spec --set producers=3 -o "$TMP/odd" >/dev/null 2>"$TMP/err" </dev/null
check htab_mem/odd-producers-exit-2 [ $? = 2 ]
check htab_mem/odd-producers-located grep -q \
	'^--set #1:1:[0-9]*: error: add_del_on_diff_cpu needs an even number of producers' "$TMP/err"
check htab_mem/odd-producers-nothing-written [ ! -e "$TMP/odd" ]

# --- Ctrl-C, SIGKILL and --resume: no cgroup outlives its run ---------------
# Six points of 1 s and their statistics pass of 0.95 s (and their setup),
# so that a signal 0.5 s after a point's row lands inside the next one.
SHORT=(specs/htab_mem.spec --only "htab-mem -p8 style: use case x preallocation"
	--set warmup=250ms --set duration=750ms --set interval=250ms --set repeat=1)

# wait_until SECONDS CMD...: poll CMD every 50 ms until it succeeds
wait_until() {
	local i n=$(($1 * 20))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}
has_cgroup() { [ -n "$(cgroups_of "$1")" ]; }
finished_rows() { [ "$(csv_col "$1/summary.csv" point 2>/dev/null | grep -c .)" -ge "$2" ]; }

# SIGKILL inside a point: the guardian removes its cgroup (procguard.h) ...
K=$TMP/killed
KPID=
if has_memcg; then
	$BPFSWEEP "${SHORT[@]}" -o "$K" >/dev/null 2>&1 </dev/null &
	KPID=$!
	wait_until 20 has_cgroup $KPID
	kill -KILL $KPID
	wait $KPID 2>/dev/null
	check htab_mem/sigkill-no-cgroup-left wait_until 5 not has_cgroup $KPID
else
	skip htab_mem/sigkill-no-cgroup-left "no memory cgroup controller on this machine"
fi

# ... and a later run finds none of it either; Ctrl-C inside the second
# point: exit 130, the first point's row and the second's "interrupted" row,
# and no cgroup of either run left
I=$TMP/int
$BPFSWEEP "${SHORT[@]}" -o "$I" >/dev/null 2>"$TMP/err" </dev/null &
IPID=$!
wait_until 30 finished_rows "$I" 1
sleep 0.5
kill -INT $IPID
wait $IPID
check htab_mem/sigint-exit-130 [ $? = 130 ]
[ -n "$KPID" ] && check htab_mem/stale-cgroup-removed not has_cgroup $KPID
check htab_mem/sigint-no-cgroup-left not has_cgroup $IPID
st=$(csv_col "$I/summary.csv" status | tr '\n' ' ')
echo "# interrupted run: $st"
check htab_mem/sigint-finished-then-interrupted \
	grep -Eq '^(ok )+interrupted $' <<<"$st"
check htab_mem/sigint-thread-rows [ "$(thread_rows "$I" ops)" = ok ]
# programs.csv: a row (one program, one repetition) per point with a summary row
points_of() { csv_col "$1" point | sort -n | tr '\n' ' '; }
check htab_mem/sigint-programs-a-row-a-point \
	[ "$(points_of "$I/programs.csv")" = "$(points_of "$I/summary.csv")" ]

# --resume completes it: every point ok, the finished points' samples
# (their thread rows too) kept as they were, no cgroup left
before=$(csv_col "$I/summary.csv" point | sed '$d' | tr '\n' ' ')
grep -E "^(${before// /|}x)," "$I/samples.csv" >"$TMP/kept"
grep -E "^(${before// /|}x)," "$I/programs.csv" >"$TMP/kept_programs"
$BPFSWEEP "${SHORT[@]}" --resume "$I" >/dev/null 2>"$TMP/err" </dev/null &
RPID=$!
wait $RPID
check htab_mem/resume-exit-0 [ $? = 0 ]
# the block's points: 3 use cases, prealloc on and off
check htab_mem/resume-all-ok [ "$(csv_col "$I/summary.csv" status | sort -u)" = ok -a \
	"$(csv_col "$I/summary.csv" point | wc -l)" = 6 ]
check htab_mem/resume-keeps-thread-rows [ "$(grep -c ',[0-9]$' "$TMP/kept")" -gt 0 ]
check htab_mem/resume-keeps-samples [ "$(grep -cxFf "$TMP/kept" "$I/samples.csv")" = \
	"$(wc -l <"$TMP/kept")" ]
check htab_mem/resume-thread-rows [ "$(thread_rows "$I" ops)" = ok ]
# the finished points' programs rows kept as they were, the interrupted one's replaced
check htab_mem/resume-keeps-programs [ -s "$TMP/kept_programs" -a \
	"$(grep -cxFf "$TMP/kept_programs" "$I/programs.csv")" = "$(wc -l <"$TMP/kept_programs")" ]
check htab_mem/resume-programs-a-row-a-point \
	[ "$(points_of "$I/programs.csv")" = "$(points_of "$I/summary.csv")" ]
check htab_mem/resume-no-cgroup-left not has_cgroup $RPID
