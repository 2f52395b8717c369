#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own bench through the exec workload, unmodified.
#
# On this host: scripts/kbench-build.sh builds the selftests' ring buffer
# benches from Debian's linux-source-6.1 into .cache/kbench, and
# specs/kbench_ringbuf.spec runs it without overwrite mode (6.1's bench
# has none).  Its programs attach with fentry, which this host refuses
# (lockdown): every point comes out failed with the bench's own error
# lines as the reason, and the sweep goes on.
#
# The 7.3 bench in the 7.3 guest, its checks named kbench-vm/, is a job of
# tests/e2e/kernel.sh's one boot of the test kernel.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=kbench

BENCH=$(scripts/kbench-build.sh 2>"$TMP/build.err")
case $? in
0) ;;
3)	skip $N/build "$(tail -n1 "$TMP/build.err")"
	exit 0 ;;
*)	fail $N/build "$(tail -n1 "$TMP/build.err")"
	exit 0 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
	skip $N/run "the bench needs root"
	exit 0
fi
S=$TMP/k/summary.csv

check $N/built [ "$BENCH" -ef .cache/kbench/bench ]
# 6.1's bench has no overwrite mode: the table without it, two points;
# its -a wants a CPU per thread
$BPFSWEEP specs/kbench_ringbuf.spec --quick --set program=.cache/kbench/bench \
	--set overwrite=off --set bench_producer=off --set consumers=1 --set cpu_affinity=off \
	--set producers="1 2" -o "$TMP/k" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
check $N/both_points_have_rows [ "$(csv_col "$S" status | wc -l)" = 2 ]
if [ "$(csv_col "$S" status | sort -u)" = ok ]; then
	# a host whose kernel allows fentry
	check $N/ok_exit_0 [ "$rc" = 0 ]
	check $N/table_row grep -q "^rb-libbpf nr_prod 2  *[0-9.]* ± [0-9.]*M/s ([0-9.]*M/prod, drops " \
		"$TMP/k/table.txt"
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
if ! RAWTP=$(scripts/kbench-build.sh --rawtp 2>"$TMP/rawtp.err"); then
	fail $N/rawtp_built "$(tail -n1 "$TMP/rawtp.err")"
	exit 0
fi
check $N/rawtp_built [ "$RAWTP" -ef .cache/kbench/bench-rawtp ]
# both sides without the statistics pass (nothing here checks ns_per_run),
# and with two producers, which makes the contention block's 2, 4 and 8 one
# point (8 producers and a consumer, 2 s and more of the bench's on each
# side, took most of this test's CPU): four points, each a paired ratio
BPFSWEEP=$BPFSWEEP scripts/calibrate.sh --rawtp --no-affinity --rounds 1 --quick \
	--out "$TMP/cal" -- --set bpf_stats=off --set producers=2 >"$TMP/cal.out" \
	2>"$TMP/cal.err" </dev/null
check $N/calibrate_exit_0 [ $? = 0 ]
check $N/calibrate_four_points [ "$(grep -Ec ' hits +[0-9]' "$TMP/cal.out")" = 4 ]
for p in "rb-libbpf sampled" "rb-custom sampled" "pb-libbpf sampled" "rb-libbpf nr_prod 2"; do
	check "$N/calibrate_ratio/${p// /_}" grep -Eq \
		"^$p +hits +[0-9]+\.[0-9]+  \(1 round\)$" "$TMP/cal.out"
done
# the bench's side really ran: its hits, from its own Summary lines
check $N/rawtp_points_ok [ "$(csv_col "$TMP/cal/kbench/1/summary.csv" status | sort -u)" = ok ]
# what follows -- goes to both sides' run: one block, one bench, one point each
BPFSWEEP=$BPFSWEEP scripts/calibrate.sh --rawtp --no-affinity --rounds 1 --quick \
	--out "$TMP/cal1" -- --only "Single producer, sampled notification" \
	--set bench=rb-custom --set bpf_stats=off >"$TMP/cal1.out" 2>"$TMP/cal1.err" </dev/null
check $N/calibrate_passes_run_args_exit_0 [ $? = 0 ]
check $N/calibrate_passes_run_args [ "$(grep -Ec ' hits +[0-9]' "$TMP/cal1.out")" = 1 ]
check $N/calibrate_passes_run_args_point grep -Eq \
	"^rb-custom sampled +hits +[0-9]+\.[0-9]+  \(1 round\)$" "$TMP/cal1.out"
