#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The calibration experiment end to end (docs/fidelity.md, "Re-measuring"):
# specs/calib_kbench.spec with tests/tools/fakebench standing in for the
# kernel's bench (its own command line, 1.2 M/s hits per producer), in
# rounds interleaved with a bpfsweep side, and `compare --paired` over
# them.  The exact part's bpfsweep side is the same spec through
# fakebench's "kbench W D P" (1.5 M/s per producer): every ratio is 1.25.
# As root, specs/calib_ringbuf.spec, the real ringbuf workload, is the
# bpfsweep side of a second run, whose ratio is checked against its
# summaries; there a point that does not run is a failure.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAKE=${BUILD:-build}/tests/tools/fakebench
RUN="--quick --no-plots"

sed "s|\.cache/kbench/bench|$FAKE|g" specs/calib_kbench.spec >"$TMP/kbench.spec"
sed "s|^argv .*|argv = $FAKE kbench {warmup_s} {duration_s} {producers}|" "$TMP/kbench.spec" \
	>"$TMP/side.spec"

# interleaved: the bench's round, then bpfsweep's, three times; the third
# bpfsweep round runs one experiment only
for i in 1 2 3; do
	$BPFSWEEP "$TMP/kbench.spec" $RUN --set cpu_affinity=off -o "$TMP/kb/$i" >/dev/null 2>&1 </dev/null
	only=()
	[ $i = 3 ] && only=(--only "Multi-producer contention, batch 50")
	$BPFSWEEP "$TMP/side.spec" $RUN --set cpu_affinity=off "${only[@]}" -o "$TMP/bs/$i" >/dev/null 2>&1 </dev/null
done
check calibrate/bench_side_ok [ "$(csv_col "$TMP/kb/1/summary.csv" status | sort -u)" = ok ]
check calibrate/bench_side_args [ "$(csv_col "$TMP/kb/1/summary.csv" hits_per_s_mean | tr '\n' ' ')" = \
	"1200000.000 1200000.000 1200000.000 2400000.000 4800000.000 9600000.000 " ]

pairs=("$TMP/kb/1" "$TMP/bs/1" "$TMP/kb/2" "$TMP/bs/2" "$TMP/kb/3" "$TMP/bs/3")
$BPFSWEEP compare --paired "${pairs[@]}" >"$TMP/out" 2>"$TMP/err"
check calibrate/paired_exit_0 [ $? = 0 ]
check calibrate/paired_three_rounds grep -Eq \
	"^rb-libbpf nr_prod 4 +hits +1\.250 \[1\.250, 1\.250\]  1\.250-1\.250  3 rounds  different: \+25\.0 % \[\+25\.0, \+25\.0\]$" \
	"$TMP/out"
check calibrate/paired_drops grep -Eq "^ +drops +1\.000 \[1\.000, 1\.000\]" "$TMP/out"
check calibrate/paired_round_missing grep -Eq "^ +1 of 3 rounds base only$" "$TMP/out"
check calibrate/paired_sampled_two_rounds grep -Eq \
	"^pb-libbpf sampled +hits +1\.250 \[1\.250, 1\.250\]  1\.250-1\.250  2 rounds  no test \(< 3 rounds\)$" \
	"$TMP/out"
check calibrate/paired_titles grep -qx "Multi-producer contention, batch 50" "$TMP/out"

$BPFSWEEP compare --paired -f csv "${pairs[@]}" >"$TMP/p.csv" 2>"$TMP/err"
check calibrate/paired_csv_ratios [ "$(csv_col "$TMP/p.csv" ratio metric hits | sort -u)" = 1.250000 ]
check calibrate/paired_csv_rows [ "$(csv_col "$TMP/p.csv" compared metric hits | tr '\n' ' ')" = \
	"2 2 2 3 3 3 " ]

$BPFSWEEP compare --paired "$TMP/kb/1" "$TMP/bs/1" "$TMP/kb/2" >/dev/null 2>"$TMP/err"
check calibrate/paired_needs_pairs [ $? = 2 ]
check calibrate/paired_needs_pairs_says grep -q "an even number of directories" "$TMP/err"
$BPFSWEEP compare --paired --fail-above 5 "${pairs[@]:0:2}" >/dev/null 2>&1
check calibrate/paired_no_fail_above [ $? = 2 ]

# the real bpfsweep side: the ringbuf workload, two rounds of one point
if [ "$(id -u)" -ne 0 ]; then
	skip calibrate/ringbuf "needs root to load BPF programs"
	exit 0
fi
one=(--only "Multi-producer contention, batch 50" --set producers=2)
for i in 1 2; do
	$BPFSWEEP "$TMP/kbench.spec" $RUN --set cpu_affinity=off "${one[@]}" -o "$TMP/rk/$i" \
		>/dev/null 2>&1 </dev/null
	$BPFSWEEP specs/calib_ringbuf.spec $RUN --set affinity=off "${one[@]}" -o "$TMP/rr/$i" \
		>/dev/null 2>"$TMP/rerr.$i" </dev/null
done
# as root the point runs on every kernel with a ring buffer (raw_tp, no fentry): a point that
# did not is a failure, not a skip, and the checks below would only repeat it
for i in 1 2; do
	status=$(csv_col "$TMP/rr/$i/summary.csv" status 2>/dev/null)
	if [ "$status" != ok ]; then
		fail calibrate/ringbuf_side_ok "round $i: status '${status:-none}': $(tail -1 "$TMP/rerr.$i")"
		exit 0
	fi
done
pass calibrate/ringbuf_side_ok
$BPFSWEEP compare --paired -f csv "$TMP/rk/1" "$TMP/rr/1" "$TMP/rk/2" "$TMP/rr/2" >"$TMP/r.csv" 2>"$TMP/err"
check calibrate/ringbuf_paired_exit_0 [ $? = 0 ]
# the geometric mean of the rounds' ratios, from the two sides' summaries
expect=$(awk -v a="$(csv_col "$TMP/rr/1/summary.csv" hits_per_s_mean)" \
	-v b="$(csv_col "$TMP/rk/1/summary.csv" hits_per_s_mean)" \
	-v c="$(csv_col "$TMP/rr/2/summary.csv" hits_per_s_mean)" \
	-v d="$(csv_col "$TMP/rk/2/summary.csv" hits_per_s_mean)" 'BEGIN { print sqrt(a / b * c / d) }')
got=$(csv_col "$TMP/r.csv" ratio metric hits)
check calibrate/ringbuf_ratio awk -v e="$expect" -v g="$got" 'BEGIN { exit !(g > 0 && (g - e) / e < 1e-5 && (e - g) / e < 1e-5) }'
check calibrate/ringbuf_rounds [ "$(csv_col "$TMP/r.csv" compared metric hits)" = 2 ]
