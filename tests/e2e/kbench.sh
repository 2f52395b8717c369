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
# `kbench.sh --vm`, its checks named kbench-vm/: `kbench-build.sh --source
# 7.3` builds the 7.3 bench (once; cached in .cache/kbench/bench-7.3) and
# the spec's own table, seed 002's overwrite rows with the merged bench's
# flags, runs --quick in the 7.3 kernel scripts/vm-kernel.sh fetches,
# where fentry and overwrite mode work: every point must be ok.  Both
# skip, with kbench-build.sh's reason, where the package cannot be fetched.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=kbench
BUILD_ARGS=()
if [ "${1-}" = --vm ]; then
	N=kbench-vm
	BUILD_ARGS=(--source 7.3)
	if ! KBENCH_KERNEL=$(scripts/vm-kernel.sh 2>"$TMP/vmk.err"); then
		skip $N/kernel "no test kernel: $(tail -n1 "$TMP/vmk.err")"
		exit 0
	fi
fi

BENCH=$(scripts/kbench-build.sh "${BUILD_ARGS[@]}" 2>"$TMP/build.err")
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

# The seed's rows, --quick, in the guest: three producer counts of the
# sixteen (each point is a bench process of 3 s and more under TCG), with
# the bench's -a, which 7.3's takes round the guest's 2 CPUs.
if [ -n "${KBENCH_KERNEL:-}" ]; then
	check $N/built_7.3 [ "$BENCH" -ef .cache/kbench/bench-7.3 ]
	$BPFSWEEP specs/kbench_ringbuf.spec --quick --set producers="1 2 3" \
		--kernel "$KBENCH_KERNEL" -o "$TMP/k" --no-plots \
		>"$TMP/out" 2>"$TMP/err" </dev/null
	check $N/ok_exit_0 [ $? = 0 ]
	check $N/three_points [ "$(csv_col "$S" status | wc -l)" = 3 ]
	# the merged bench refuses overwrite without --rb-bench-producer, and
	# either with a consumer: ok points are the flags it takes
	check $N/all_points_ok [ "$(csv_col "$S" status | sort -u)" = ok ]
	check $N/overwrite_rows [ "$(csv_col "$S" overwrite | sort -u)" = on ]
	check $N/bench_producer [ "$(csv_col "$S" bench_producer | sort -u)" = on ]
	check $N/no_consumer [ "$(csv_col "$S" consumers | sort -u)" = 0 ]
	check $N/kernel_7.3 grep -q '^7\.3\.' <(csv_col "$S" kernel_release)
	# --quick: -w1 -d1; bench.c prints iterations 0..2, the first its warmup
	check $N/intervals_are_the_bench_seconds [ "$(csv_col "$TMP/k/samples.csv" warmup point 0 |
		tr '\n' ' ')" = "1 0 0 " ]
	# the seed's table: its title, and its row format for each point
	check $N/table_title grep -q "^Ringbuf, multi-producer contention, overwrite mode" \
		"$TMP/k/table.txt"
	for p in 1 2 3; do
		check $N/table_row_$p grep -Eq "^rb-libbpf nr_prod $p +[0-9.]+ ± [0-9.]+M/s \
\([0-9.]+M/prod, drops +[0-9.]+ ± [0-9.]+M/s\)" "$TMP/k/table.txt"
		check $N/hits_positive_$p awk -v v="$(csv_col "$S" hits_per_s_mean point $((p - 1)))" \
			'BEGIN { exit !(v > 0) }'
	done
	exit 0
fi

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
