#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/csum_diff.spec through the whole tool, as root, short: every point
# passes its correctness check and is measured (ok, calls > 0, calls =
# runs x batch), and the chart of calls by batch is drawn; one point of it
# with its ns_per_run pass.  Then specs/seed_csum_diff.spec, quick: the
# seed's method (64 program runs per BPF_PROG_TEST_RUN, one call each) and
# the seed's table, row for row.  Last, the load's figures of two points
# and compare's exact verdict on them; their programs.csv, and merge's.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/seed_lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip csum_diff/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Shorter than --quick (its 1.25 s a point is 55 s of 44 points): whether a
# point passes its checks and counts calls does not depend on how long it
# is measured.  Without the ns_per_run pass after each point (1.2 s, 53 s
# of 44 points), which one point below has and is checked for.
SHORT=(--set warmup=50ms --set duration=200ms --set interval=100ms --set repeat=1)
D=$TMP/run
$BPFSWEEP specs/csum_diff.spec "${SHORT[@]}" --set bpf_stats=off -o "$D" >"$TMP/out" \
	2>"$TMP/err" </dev/null
check csum_diff/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/csum_diff.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check csum_diff/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: size, batch, test_repeat, status, calls/s, runs/s, reason
paste <(csv_col "$SUM" size) <(csv_col "$SUM" batch) <(csv_col "$SUM" test_repeat) \
	<(csv_col "$SUM" status) <(csv_col "$SUM" calls_per_s_mean) \
	<(csv_col "$SUM" runs_per_s_mean) <(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
# read | apart, not tabs: read folds a run of tabs, and a failed point's empty rates with them
while IFS='|' read -r size batch rep st calls runs why; do
	if [ "$st" != ok ]; then
		fail "csum_diff/$size-$batch-$rep" "status $st: $why"
		bad=1
		continue
	fi
	# both rates come from the same counts: calls = runs x batch, to rounding
	awk -v c="$calls" -v r="$runs" -v b="$batch" \
		'BEGIN { d = c - r * b; if (d < 0) d = -d; exit !(c > 0 && d <= 1e-6 * c) }' \
		&& continue
	fail "csum_diff/$size-$batch-$rep" "calls/s $calls, runs/s $runs, batch $batch"
	bad=1
done < <(tr '\t' '|' <"$TMP/rows")
check csum_diff/every-point-ok-with-calls [ "$bad" = 0 ]
# every size and batch of the spec ran
for b in 1 16 128; do
	check "csum_diff/batch-$b-rows" grep -q "^4	$b	1	ok" "$TMP/rows"
done
check csum_diff/test-repeat-rows [ "$(grep -c '	128	100	ok' "$TMP/rows")" = 11 ]

check csum_diff/chart [ -n "$(ls "$D"/plots/*.png 2>/dev/null)" ]
for f in "$D"/plots/*.png; do
	check "csum_diff/chart-png-${f##*/}" is_png "$f"
done
check csum_diff/no-stderr-errors not grep -qi error "$TMP/err"

# One point of the spec with its ns_per_run pass (bpf_stats on, the
# default): meta says how the statistics were on, the point has its
# nanoseconds per program run
P=$TMP/pass
ONE="size x batch: calls per run 1, 16, 128, one run per BPF_PROG_TEST_RUN"
$BPFSWEEP specs/csum_diff.spec --only "$ONE" --set size=64 --set batch=16 "${SHORT[@]}" \
	-o "$P" --no-plots >/dev/null 2>"$TMP/pass.err" </dev/null
check csum_diff/pass-exit-0 [ $? = 0 ]
check csum_diff/pass-one-point [ "$(csv_col "$P/summary.csv" status)" = ok ]
check csum_diff/pass-meta grep -Eq '^bpf_stats: pass: off while measuring; on \(' "$P/meta"
check csum_diff/pass-ns-per-run awk -v v="$(csv_col "$P/summary.csv" ns_per_run_mean)" \
	'BEGIN { exit !(v > 0) }'
check csum_diff/pass-no-stderr-errors not grep -qi error "$TMP/pass.err"

# The seed's experiment, without the statistics pass (its column is n/a then),
# 0.3 s a point after 0.1 s (nothing here checks a rate's size)
S=$TMP/seed
$BPFSWEEP specs/seed_csum_diff.spec --quick --set bpf_stats=off --set warmup=100ms \
	--set duration=300ms --set interval=100ms -o "$S" >"$TMP/seed.out" 2>"$TMP/seed.err" </dev/null
check csum_diff/seed-exit-0 [ $? = 0 ]
SUM=$S/summary.csv
check csum_diff/seed-all-ok [ "$(csv_col "$SUM" status | sort | uniq -c | tr -s ' ')" = " 10 ok" ]
# the seed's method on every row: 64 runs per test_run, one helper call per run,
# which are also the workload's defaults
check csum_diff/default-test-repeat-64 quiet grep -Eq '^ +test_repeat +int, default 64,' \
	<($BPFSWEEP list csum_diff)
check csum_diff/seed-test-repeat-64 [ "$(csv_col "$SUM" test_repeat | sort -u)" = 64 ]
check csum_diff/seed-batch-1 [ "$(csv_col "$SUM" batch | sort -u)" = 1 ]
# its M/s count program runs (the seed's hits), which are the calls here
same_rates() {
	paste <(csv_col "$SUM" calls_per_s_mean) <(csv_col "$SUM" runs_per_s_mean) |
		awk '{ d = $1 - $2; if (d < 0) d = -d; if (!($1 > 0 && d <= 1e-6 * $1)) bad = 1 }
			END { exit bad }'
}
check csum_diff/seed-calls-are-runs same_rates
# the table: the seed's ten lengths in its order, each "%-20s N.NNN ± N.NNNM/s (...)"
# as run_bench_csum_diff.sh prints it; the seed's own row passes the same check
RATE='^[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s \('
echo '4                    2.296 ± 0.066M/s (drops 0.000 ± 0.000M/s)' >"$TMP/seed-row"
check csum_diff/seed-shape-takes-the-seeds-row rows_are "$TMP/seed-row" "$RATE" 4
block_rows "$S/table.txt" "./benchs/run_bench_csum_diff.sh" >"$TMP/seed-rows"
check csum_diff/seed-table-rows rows_are "$TMP/seed-rows" \
	"$RATE[0-9]+\.[0-9]{2}ns per call, program n/a/run\)( \[[^]]+\])?\$" \
	4 8 16 20 32 40 64 128 256 512
# ns per call is 1e9 / calls per second (one producer) on the first row
ns=$(head -1 "$TMP/seed-rows" | sed -n 's/.*(\([0-9.]*\)ns per call.*/\1/p')
rate=$(csv_col "$SUM" calls_per_s_mean | head -1)
check csum_diff/seed-ns-per-call awk -v n="${ns:-0}" -v r="$rate" \
	'BEGIN { d = n - 1e9 / r; if (d < 0) d = -d; exit !(n > 0 && d < 0.01) }'

# specs/power_csum.spec as root: its arms in interleaved rounds, extra_work's
# rounds loaded past the verifier and its answer still checked on every run
# (the calls count), each arm decided or the budget said so; the rate itself
# is for scripts/power.sh, not a test
$BPFSWEEP run specs/power_csum.spec --set max_repeat=5 --set warmup=20ms --set duration=60ms \
	--set interval=20ms --set extra_work="0 2 64" --set batch=128 --no-plots -o "$TMP/power" \
	>"$TMP/power.out" 2>&1 </dev/null
check csum_diff/power-exit-0 [ $? = 0 ]
check csum_diff/power-all-ok [ "$(csv_col "$TMP/power/summary.csv" status | sort -u)" = ok ]
check csum_diff/power-five-rounds [ "$(csv_col "$TMP/power/summary.csv" rounds extra_work 64)" = 5 ]
check csum_diff/power-decided grep -Eq '^(different|same|undecided after 5 rounds|inconclusive)' \
	<(csv_col "$TMP/power/summary.csv" decision extra_work 2)

# The load's figures (docs/results.md "The load's figures"): two
# repetitions of one point give one value of each deterministic figure and
# no interval; 4 more multiply-adds a record verify more instructions, and
# compare calls that a change at once, exactly, without a test (about 3 s)
for w in 0 4; do
	$BPFSWEEP run csum_diff --set extra_work=$w --set warmup=50ms --set duration=100ms \
		--set interval=50ms --set repeat=2 --set bpf_stats=off --no-plots \
		-o "$TMP/load$w" >"$TMP/load$w.out" 2>&1 </dev/null
	check "csum_diff/load-$w-exit-0" [ $? = 0 ]
done
L=$TMP/load0/summary.csv
check csum_diff/load-insns-one-value [ "$(csv_col "$L" total_insns_min)" = \
	"$(csv_col "$L" total_insns_max)" ]
check csum_diff/load-insns-counted awk -v v="$(csv_col "$L" total_insns_mean)" 'BEGIN { exit !(v > 0) }'
check csum_diff/load-no-interval [ -z "$(csv_col "$L" jited_size_ci95)" ]
check csum_diff/load-not-varied not grep -q varied <(csv_col "$L" quality)
check csum_diff/load-meta-deterministic grep -qx 'metric: total_insns gauge insns lower deterministic' \
	"$TMP/load0/meta"
check csum_diff/load-columns-unit grep -qx 'jited_size_mean,jited_size,mean,gauge,bytes,lower' \
	"$TMP/load0/columns.csv"
$BPFSWEEP compare "$TMP/load0" "$TMP/load4" --ignore extra_work >"$TMP/load.cmp" 2>&1
check csum_diff/load-compare-exact grep -Eq 'total_insns +[0-9]+ → +[0-9]+insns +\+[0-9.]+ % \(exact\) +worse' \
	"$TMP/load.cmp"
check csum_diff/load-compare-same grep -Eq 'stack_depth +0 → +0B .* same: identical' "$TMP/load.cmp"
# compare's programs section (docs/compare.md "Programs"): per program, the
# 4 multiply-adds are csum_run's alone: its instructions differ, exactly;
# csum_check's figures are all the same, counted, listed with --all-programs
# and in CSV and JSON (no run of its own: the two runs above)
check csum_diff/programs-compare-different grep -Eq \
	'^  csum_run +total_insns +[0-9]+ → [0-9]+ +\+[0-9]+ \(\+[0-9.]+ %\) +different$' "$TMP/load.cmp"
check csum_diff/programs-compare-same-counted grep -q \
	'^1 of 2 programs the same in every figure, not shown' "$TMP/load.cmp"
check csum_diff/programs-compare-same-hidden not grep -q '^  csum_check' "$TMP/load.cmp"
$BPFSWEEP compare "$TMP/load0" "$TMP/load4" --ignore extra_work --all-programs 2>/dev/null \
	>"$TMP/load.all"
check csum_diff/programs-compare-all grep -Eq '^  csum_check +total_insns +([0-9]+) → \1 +same$' \
	"$TMP/load.all"
$BPFSWEEP compare "$TMP/load0" "$TMP/load4" --ignore extra_work --format csv 2>/dev/null \
	>"$TMP/load.csv"
check csum_diff/programs-compare-csv grep -Eq \
	',total_insns,([0-9]+),,2,\1,,2,0,0.0000,,,,same,lower,,,0.0000,0.0000,1,same,csum_check$' \
	"$TMP/load.csv"
$BPFSWEEP compare "$TMP/load0" "$TMP/load4" --ignore extra_work --format json 2>/dev/null \
	| python3 -c 'import json, sys
p = json.load(sys.stdin)["comparisons"][0]["points"][0]["programs"]
f = {x["program"]: {g["figure"]: g["verdict"] for g in x["figures"]} for x in p}
sys.exit(not (f["csum_run"]["total_insns"] == "different" and
              f["csum_check"]["total_insns"] == "same" and f["csum_run"]["verify_time"] is None))'
check csum_diff/programs-compare-json [ $? = 0 ]
# a bad figure cell is refused where it is, as summary.csv's are; a set
# without programs.csv gives no section, and a note says so
cp -r "$TMP/load4" "$TMP/loadbad"
sed -i '3s/^\(\([^,]*,\)\{6\}\)[0-9]*,/\12x,/' "$TMP/loadbad/programs.csv"
$BPFSWEEP compare "$TMP/load0" "$TMP/loadbad" --ignore extra_work >/dev/null 2>"$TMP/loadbad.err"
check csum_diff/programs-compare-bad-cell-exit-2 [ $? = 2 ]
check csum_diff/programs-compare-bad-cell-where grep -q \
	"loadbad/programs.csv:3:7: error: total_insns is '2x', not empty or a whole number" \
	"$TMP/loadbad.err"
rm "$TMP/loadbad/programs.csv"
$BPFSWEEP compare "$TMP/load0" "$TMP/loadbad" --ignore extra_work >"$TMP/loadnone.cmp" 2>/dev/null
check csum_diff/programs-compare-one-side-note grep -q \
	'^note: programs.csv only in BASE: programs not compared$' "$TMP/loadnone.cmp"
check csum_diff/programs-compare-one-side-no-section not grep -q '^programs: ' "$TMP/loadnone.cmp"
# programs.csv (docs/results.md): a row per program and repetition; merge
# stacks the runs' rows under their run columns, leaving out a row of a
# point without a summary row (what a kill between a point's writes leaves)
P=$TMP/load0/programs.csv
check csum_diff/programs-rows [ "$(csv_col "$P" prog_name | sort | uniq -c | tr -s ' \n' ' ')" = \
	" 2 csum_check 2 csum_run " ]
printf '7,x,0,ghost,sched_cls,1,1,1,1,0,8,8,1,\n' >>"$TMP/load4/programs.csv"
$BPFSWEEP merge "$TMP/load0" "$TMP/load4" -o "$TMP/loadm" --no-plots >/dev/null 2>&1
check csum_diff/programs-merged [ "$(csv_col "$TMP/loadm/programs.csv" run | uniq -c | \
	tr -s ' \n' ' ')" = " 4 1 4 2 " ]
check csum_diff/programs-merged-not-claimed not grep -q ghost "$TMP/loadm/programs.csv"
check csum_diff/programs-run-kept-as-it-was cmp -s "$TMP/load4/programs.csv" \
	"$TMP/loadm/runs/2/programs.csv"
