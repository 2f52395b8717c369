#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# report and merge, without root: two short null-workload runs tagged as two
# "machines" at different rates; report redraws a directory byte for byte,
# --set and --spec change what it draws, report of both draws a block per
# run and a line per run, merge writes every row with its run's columns.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPEC=tests/e2e/report.spec
A=$TMP/a
B=$TMP/b

$BPFSWEEP $SPEC -o "$A" --tag machine=a </dev/null >/dev/null 2>&1
check report/run-a [ $? = 0 ]
$BPFSWEEP $SPEC -o "$B" --tag machine=b --set rate=2000000 </dev/null >/dev/null 2>&1
check report/run-b [ $? = 0 ]
cp -r "$A" "$TMP/a.run"

# --- one directory, redrawn in place ----------------------------------------
$BPFSWEEP report "$A" >"$TMP/out" 2>"$TMP/err"
check report/exit-0 [ $? = 0 ]
check report/table-identical cmp "$TMP/a.run/table.txt" "$A/table.txt"
check report/table-on-stdout cmp "$A/table.txt" "$TMP/out"
check report/chart-identical diff -r -x '*.png' -x '*.svg' "$TMP/a.run/plots" "$A/plots"
check report/chart-rendered is_png "$A/plots/1-hits-vs-producers.png"
check report/no-staging [ ! -e "$A/.render.tmp" ]
check report/csv-untouched cmp "$TMP/a.run/summary.csv" "$A/summary.csv"

$BPFSWEEP report "$A" --no-plots --set 'label=L{producers}' >/dev/null 2>&1
check report/set-exit-0 [ $? = 0 ]
check report/set-label grep -q '^L4 ' "$A/table.txt"
check report/set-label-only-label [ "$(grep -c M/s "$A/table.txt")" = 3 ]
$BPFSWEEP report "$A" --no-plots --set title=Renamed >/dev/null 2>&1
check report/set-title [ "$(grep -cx Renamed "$A/table.txt"):$(grep -c M/s "$A/table.txt")" = 1:3 ]
$BPFSWEEP report "$A" --set 'plot=producers vs drops' >/dev/null 2>&1
check report/set-plot [ "$(ls "$A/plots" | sed 's/\..*//' | sort -u)" = 1-drops-vs-producers ]
$BPFSWEEP report "$A" >/dev/null 2>&1
check report/back-identical cmp "$TMP/a.run/table.txt" "$A/table.txt"
check report/back-chart diff -r -x '*.png' -x '*.svg' "$TMP/a.run/plots" "$A/plots"

# an edited spec: fewer points, another label; rows tied by parameter values
sed -e 's/^producers = 1 2 4/producers = 4 2/' -e 's/^label = .*/label = p{producers}/' \
	$SPEC >"$TMP/edited.spec"
$BPFSWEEP report "$A" --no-plots --spec "$TMP/edited.spec" >/dev/null 2>"$TMP/err"
check report/spec-exit-0 [ $? = 0 ]
check report/spec-rows [ "$(grep -c M/s "$A/table.txt")" = 2 ]
check report/spec-order [ "$(grep -o '^p[0-9]' "$A/table.txt" | tr '\n' ' ')" = "p4 p2 " ]
check report/spec-hidden-noted grep -q '1 row of points the spec drawn does not have' "$TMP/err"
sed 's/^workload = null/workload = count/' $SPEC >"$TMP/other.spec"
check report/spec-other-workload-exit-2 \
	quiet_status 2 $BPFSWEEP report "$A" --spec "$TMP/other.spec"

# --- two directories: a block per run, a line per run ------------------------
$BPFSWEEP report "$A" "$B" -o "$TMP/ab" >/dev/null 2>&1
check report/two-exit-0 [ $? = 0 ]
check report/two-blocks [ "$(grep -c '^run [12]: ' "$TMP/ab/table.txt")" = 2 ]
check report/two-block-tags grep -q '^run 2: .*machine=b$' "$TMP/ab/table.txt"
check report/two-rates [ "$(grep -c ' 2\.000 ± ' "$TMP/ab/table.txt")" = 3 ]
GP=$TMP/ab/plots/1-hits-vs-producers.gp
check report/two-series [ "$(grep -o "title 'machine=[ab]'" "$GP" | tr '\n' ' ')" = \
	"title 'machine=a' title 'machine=b' " ]
check report/two-series-data [ "$(grep -c '^# machine=' "${GP%.gp}.dat")" = 2 ]
# several machines: the series name them, no machine line under the title
check report/two-runs-no-subtitle quiet not grep -qF '. "\n" .' "$GP"
check report/one-run-subtitle grep -qF "set title 'report' . \"\\n\" . '" \
	"$A/plots/1-hits-vs-producers.gp"
check report/one-run-subtitle-tags grep -q "^set title 'report' .*machine=a' noenhanced" \
	"$A/plots/1-hits-vs-producers.gp"
# a spec without a title is titled by its file name, which DIR/spec is not: report still reads it
grep -v '^title' $SPEC >"$TMP/untitled.spec"
$BPFSWEEP "$TMP/untitled.spec" -o "$TMP/untitled" --no-plots </dev/null >/dev/null 2>&1
check report/untitled-run [ $? = 0 ]
cp "$TMP/untitled/table.txt" "$TMP/untitled.table"
check report/untitled-exit-0 quiet_status 0 $BPFSWEEP report "$TMP/untitled" --no-plots
check report/untitled-identical cmp "$TMP/untitled.table" "$TMP/untitled/table.txt"
# --by a fact both runs share (one host) would pool two runs in one series: refused
check report/by-shared-fact-exit-2 quiet_status 2 $BPFSWEEP report "$A" "$B" -o "$TMP/same" --by host
check report/by-shared-fact-nothing [ ! -e "$TMP/same" ]
# scaling: per producer, relative to one producer: 1, 1/2, 1/4 on both machines
$BPFSWEEP report "$A" "$B" -o "$TMP/scale" --per producers --normalize first >/dev/null 2>&1
check report/scaling-exit-0 [ $? = 0 ]
DAT=$TMP/scale/plots/1-hits-vs-producers-per-producers-relative.dat
check report/scaling-values [ "$(awk '/^[0-9]/ { printf "%s:%.2f ", $1, $2 }' "$DAT")" = \
	"1:1.00 2:0.50 4:0.25 1:1.00 2:0.50 4:0.25 " ]
check report/scaling-label grep -qF "ylabel 'hits per producers (relative to the first)'" \
	"${DAT%.dat}.gp"
$BPFSWEEP report "$A" -o "$TMP/zero" --per drop_pct >/dev/null 2>"$TMP/err"
check report/per-zero-exit-1 [ $? = 1 ]
check report/per-zero-said grep -q 'left out: it would divide by 0' "$TMP/err"
check report/per-zero-no-data [ -z "$(ls -A "$TMP/zero/plots")" ]
check report/per-not-a-number-exit-2 quiet_status 2 $BPFSWEEP report "$A" --per mode
check report/normalize-what-exit-2 quiet_status 2 $BPFSWEEP report "$A" --normalize last
check report/two-exists-exit-2 quiet_status 2 $BPFSWEEP report "$A" "$B" -o "$TMP/ab"
check report/bad-by-exit-2 quiet_status 2 $BPFSWEEP report "$A" "$B" -o "$TMP/x" --by colour

# --- merge --------------------------------------------------------------------
M=$TMP/m
$BPFSWEEP merge "$A" "$B" -o "$M" >/dev/null 2>&1
check merge/exit-0 [ $? = 0 ]
for f in summary.csv samples.csv; do
	rows_a=$(($(wc -l <"$A/$f") - 1))
	rows_b=$(($(wc -l <"$B/$f") - 1))
	check "merge/$f-rows" [ "$(csv_col "$M/$f" run | wc -l)" = $((rows_a + rows_b)) ]
	check "merge/$f-run-1-tag" [ "$(csv_col "$M/$f" tag_machine run 1 | sort -u)" = a ]
	check "merge/$f-run-2-tag" [ "$(csv_col "$M/$f" tag_machine run 2 | sort -u)" = b ]
	check "merge/$f-run-1-count" [ "$(csv_col "$M/$f" run run 1 | wc -l)" = "$rows_a" ]
	check "merge/$f-host" [ "$(csv_col "$M/$f" host | sort -u)" = "$(uname -n)" ]
	check "merge/$f-arch" [ "$(csv_col "$M/$f" arch | sort -u)" = "$(uname -m)" ]
	check "merge/$f-kernel" [ "$(csv_col "$M/$f" kernel | sort -u)" = host ]
	check "merge/$f-accel-empty-on-host" [ -z "$(csv_col "$M/$f" accel | sort -u)" ]
	# every merged row is its run's row, behind the run columns (those before its first)
	first=$(head -1 "$M/$f" | tr , '\n' | grep -nx "$(head -1 "$A/$f" | cut -d, -f1)" |
		head -1 | cut -d: -f1)
	check "merge/$f-rows-are-the-runs" diff <(tail -n +2 "$A/$f"; tail -n +2 "$B/$f") \
		<(tail -n +2 "$M/$f" | cut -d, -f"$first"-)
done
# each metric's direction and unit once, as the runs say them
check merge/meta-metric-lines [ "$(grep '^metric: ' "$M/meta" | tr '\n' ';')" = \
	"metric: hits counter M/s higher;metric: drops counter M/s lower;" ]
check merge/summary-rates [ "$(csv_col "$M/summary.csv" rate run 2 | sort -u)" = 2000000 ]
check merge/samples-match-summary [ "$(csv_col "$M/samples.csv" point run 2 | sort -u | wc -l)" = \
	"$(csv_col "$M/summary.csv" point run 2 | wc -l)" ]
check merge/meta grep -q "^run: 2 $B\$" "$M/meta"
GP=$M/plots/1-hits-vs-producers.gp
check merge/chart-two-series [ "$(grep -c "title 'machine=[ab]'" "$GP")" = 2 ]
check merge/table-two-blocks [ "$(grep -c '^run [12]: ' "$M/table.txt")" = 2 ]
cp "$M/table.txt" "$TMP/m.table"
$BPFSWEEP report "$M" >/dev/null 2>&1
check merge/report-exit-0 [ $? = 0 ]
check merge/report-identical cmp "$TMP/m.table" "$M/table.txt"
check merge/exists-exit-2 quiet_status 2 $BPFSWEEP merge "$A" "$B" -o "$M"
# compare pairs one run a side: a merged set is refused, its runs named
$BPFSWEEP compare "$M" "$A" >/dev/null 2>"$TMP/cmp-merged.err"
check merge/compare-merged-exit-2 [ $? = 2 ]
check merge/compare-merged-names-runs grep -qF "$M: a merged set (merge, a fleet's or a kernel sweep's OUT): compare takes one run a side; give it one of $M/runs/1 to $M/runs/2" "$TMP/cmp-merged.err"
check merge/compare-a-run-of-it quiet_status 0 $BPFSWEEP compare "$M/runs/1" "$A"
check merge/not-a-result-exit-2 quiet_status 2 $BPFSWEEP merge "$A" "$TMP" -o "$TMP/m2"
# runs that say different directions of a metric: merge keeps the first's and says so
cp -r "$B" "$TMP/flipped"
sed -i 's/^metric: drops counter M\/s lower$/metric: drops counter M\/s higher/' "$TMP/flipped/meta"
$BPFSWEEP merge "$A" "$TMP/flipped" -o "$TMP/m-flipped" --no-plots >/dev/null 2>"$TMP/flipped.err"
check merge/directions-disagree-said grep -qF "warning: metric drops: run 1 says 'drops counter \
M/s lower', run 2 'drops counter M/s higher': the merged set keeps run 1's" "$TMP/flipped.err"
check merge/directions-first-kept grep -qx 'metric: drops counter M/s lower' "$TMP/m-flipped/meta"
check merge/nothing-left [ ! -e "$TMP/m2" ]
# a run's samples.csv beyond the 1 MiB of a spec (here a's samples, again and again) reads;
# the copies are of points 1000 and up, which summary.csv has no rows of (what a kill between
# the two writes leaves, docs/results.md), so every row's n still counts its point's samples
cp -r "$A" "$TMP/long"
for i in $(seq 12); do cat "$TMP/long/samples.csv"; done | grep -v '^point,' |
	sed 's/^/100/' >"$TMP/more"
while [ "$(stat -c %s "$TMP/long/samples.csv")" -le 1100000 ]; do
	cat "$TMP/more" >>"$TMP/long/samples.csv"
done
check report/large-samples quiet_status 0 $BPFSWEEP report "$TMP/long" -o "$TMP/long.r" --no-plots
check merge/large-samples quiet_status 0 $BPFSWEEP merge "$A" "$TMP/long" -o "$TMP/long.m" --no-plots
check merge/large-samples-kept cmp "$TMP/long/samples.csv" "$TMP/long.m/runs/2/samples.csv"
check compare/large-samples quiet_status 0 $BPFSWEEP compare "$A" "$TMP/long"
# a run whose summary report refuses (a point its spec does not have): exit 2, no OUT left
cp -r "$B" "$TMP/bad"
sed -i '2s/^0,0,/0,999,/' "$TMP/bad/summary.csv"
check merge/unreportable-exit-2 quiet_status 2 $BPFSWEEP merge "$A" "$TMP/bad" -o "$TMP/m3"
check merge/unreportable-nothing-left [ ! -e "$TMP/m3" ]
