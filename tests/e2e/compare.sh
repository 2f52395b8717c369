#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep compare, end to end without root: runs of the null workload at
# 1.0 and 1.1 million hits/s (rate left out of the match with --ignore, as
# a patched kernel's run would differ in speed, not in parameters), and two
# runs at the same rate.  compare.spec's ±5% alternation gives the interval
# rates a spread that is the same in every run, so the verdicts are certain.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() { $BPFSWEEP run tests/e2e/compare.spec --no-plots -o "$@" >/dev/null 2>&1 </dev/null; }
run "$TMP/base" || fail compare/runs "base run failed"
run "$TMP/fast" --set rate=1100000 --set producers="0 2" || fail compare/runs "fast run failed"
run "$TMP/same" --set producers=0 || fail compare/runs "same run failed"
run "$TMP/broken" --set producers=0 --set fail=setup	# exit 1: its points failed
run "$TMP/single" --set producers=0 --set duration=20ms --set repeat=1 ||
	fail compare/runs "single run failed"

# cmp NAME ARGS...: run compare, keep stdout, stderr and the exit status in $TMP/NAME.*
cmp() {
	local name=$1
	shift
	$BPFSWEEP compare "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	echo $? >"$TMP/$name.status"
}
status_is() { [ "$(cat "$TMP/$1.status")" = "$2" ]; }
# field NAME COLUMN PRODUCERS METRIC [EXPERIMENT]: COLUMN of the CSV row of that
# point (of experiment "compare") and metric
field() {
	paste <(csv_col "$TMP/$1.out" experiment) <(csv_col "$TMP/$1.out" producers) \
		<(csv_col "$TMP/$1.out" metric) <(csv_col "$TMP/$1.out" "$2") |
		awk -F'\t' -v e="${5:-compare}" -v p="$3" -v m="$4" \
			'$1 == e && $2 == p && $3 == m { print $4 }'
}
between() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

# --- a known difference: +10%, significant, faster -----------------------
cmp fast -i rate -f csv "$TMP/base" "$TMP/fast"
check compare/fast-exit-0 status_is fast 0
check compare/fast-csv-parses quiet csv_col "$TMP/fast.out" verdict
check compare/fast-faster [ "$(field fast verdict 0 hits)" = faster ]
check compare/fast-delta-10pct between "$(field fast delta_pct 0 hits)" 9.5 10.5
check compare/fast-significant between "$(field fast p 0 hits)" 0 0.001
check compare/fast-n-40 [ "$(field fast new_n 0 hits)" = 40 ]
check compare/fast-drops-same [ "$(field fast verdict 0 drops)" = "no significant change" ]
check compare/base-only-listed [ "$(field fast state 1 "")" = "base only" ]
check compare/new-only-listed [ "$(field fast state 2 "")" = "new only" ]
check compare/new-only-listed-failures [ "$(field fast state 2 "" failures)" = "new only" ]
check compare/unsupported-not-compared [ "$(field fast reason 0 "" failures)" = \
	"both unsupported: null: unsupported on request (fail=probe)" ]

# a smoke run says so in the header
run "$TMP/quick" --quick --set producers=0 || fail compare/runs "quick run failed"
cmp quick "$TMP/base" "$TMP/quick"
check compare/quick-marked grep -q '^new: .*(smoke run: --quick)$' "$TMP/quick.out"
check compare/base-not-marked not grep -q '^base: .*smoke run' "$TMP/quick.out"

# the same, the other way round: slower, -9.09%
cmp slow -i rate -f csv "$TMP/fast" "$TMP/base"
check compare/slow-slower [ "$(field slow verdict 0 hits)" = slower ]
check compare/slow-delta between "$(field slow delta_pct 0 hits)" -9.5 -8.7

# --- the same rate: no significant change -------------------------------
cmp same -f csv "$TMP/base" "$TMP/same"
check compare/same-no-change [ "$(field same verdict 0 hits)" = "no significant change" ]
check compare/same-delta-small between "$(field same delta_pct 0 hits)" -0.5 0.5

# --- rows not ok on one side or both: listed with their reasons, not compared
cmp broken -i fail -f csv "$TMP/base" "$TMP/broken"
check compare/new-failed [ "$(field broken reason 0 "")" = \
	"new failed: rep 1/2: null: setup failed on request (fail=setup)" ]
probe="null: unsupported on request (fail=probe)"
setup="rep 1/2: null: setup failed on request (fail=setup)"
check compare/both-not-ok [ "$(field broken reason 0 "" failures)" = \
	"base unsupported: $probe; new failed: $setup" ]
# a CI gate does not pass a NEW whose points failed where BASE's ran
cmp broken-ci -i fail --fail-above 5 "$TMP/base" "$TMP/broken"
check compare/new-failed-fails-ci status_is broken-ci 1
check compare/new-failed-named grep -q "regression: .*producers=0: new failed: " \
	"$TMP/broken-ci.err"
cmp fixed-ci -i fail --fail-above 5 "$TMP/broken" "$TMP/base"
check compare/base-failed-passes-ci status_is fixed-ci 0

# --- one measured interval: one unit, no test, no verdict
cmp single -f csv "$TMP/base" "$TMP/single"
check compare/n-1-no-test [ "$(field single verdict 0 hits)" = "no test (< 3 units)" ]
check compare/n-1-no-p [ -z "$(field single p 0 hits)" ]
check compare/n-1-new-n [ "$(field single new_n 0 hits)" = 1 ]
cmp single-text "$TMP/base" "$TMP/single"
check compare/n-1-text grep -Eq '^producers=0 .*M/s +[-+][0-9.]+%  no test \(< 3 units\)$' \
	"$TMP/single-text.out"

# --- the units: the alternating intervals are independent of each other (batches of
# one); three repetitions are three units, each its repetition's mean; two are too few
summary_of() { paste -d' ' <(csv_col "$1/summary.csv" unit_kind) \
	<(csv_col "$1/summary.csv" hits_per_s_units) | head -n1; }
check compare/units-batch [ "$(summary_of "$TMP/base")" = "batch 40" ]
run "$TMP/rep3" --set producers=0 --set repeat=3 || fail compare/runs "rep3 run failed"
run "$TMP/rep2" --set producers=0 --set rate=2000000 --set duration=20ms --set repeat=2 ||
	fail compare/runs "rep2 run failed"
check compare/units-rep [ "$(summary_of "$TMP/rep3")" = "rep 3" ]
cmp rep3 -f csv "$TMP/base" "$TMP/rep3"
check compare/units-rep-n [ "$(field rep3 new_n 0 hits)" = 3 ]
check compare/units-rep-test [ "$(field rep3 verdict 0 hits)" = "no significant change" ]
cmp rep2 -i rate -f csv "$TMP/rep3" "$TMP/rep2"
check compare/units-two-no-test [ "$(field rep2 verdict 0 hits)" = "no test (< 3 units)" ]
# ten intervals cannot tell their autocorrelation: one repetition is one unit, no interval
run "$TMP/short" --set producers=0 --set repeat=1 --set duration=200ms ||
	fail compare/runs "short run failed"
check compare/units-short-one [ "$(summary_of "$TMP/short")" = "batch 1" ]
check compare/units-short-no-ci [ -z "$(csv_col "$TMP/short/summary.csv" hits_per_s_ci95 |
	head -n1)" ]

# --- the text table: one line per point, unmatched ones listed -------------
cmp text -i rate "$TMP/base" "$TMP/fast"
row='^producers=0 +1\.000 ± 0\.05[0-9]M/s +1\.100 ± 0\.05[0-9]M/s +\+(9\.9|10\.0)[0-9]%  '
check compare/text-row grep -Eq "$row"'faster \(p<0\.001\)$' "$TMP/text.out"
check compare/text-base-only grep -Eq '^producers=1 +base only$' "$TMP/text.out"
check compare/text-new-only grep -Eq '^producers=2 +new only$' "$TMP/text.out"
check compare/text-note grep -q '^note: left out of the match (--ignore): rate$' "$TMP/text.out"

# --- the spec's label template, where it labels every point of an experiment apart
cp -r "$TMP/base" "$TMP/labelled" && printf '[report]\nlabel = null prod {producers}\n' \
	>>"$TMP/labelled/spec"
cmp labels -i rate "$TMP/labelled" "$TMP/same"
check compare/label-template grep -Eq '^null prod 0 +1\.000 ± .* no significant change' \
	"$TMP/labels.out"
check compare/label-template-base-only grep -Eq '^null prod 1 +base only$' "$TMP/labels.out"
# BASE's template labels NEW's points too
cmp labels-new -i rate "$TMP/labelled" "$TMP/fast"
check compare/label-template-new-only grep -Eq '^null prod 2 +new only$' "$TMP/labels-new.out"
# a template that labels two points alike is not used: the varying parameters instead
cp -r "$TMP/base" "$TMP/alike" && printf '[report]\nlabel = null\n' >>"$TMP/alike/spec"
cmp alike "$TMP/alike" "$TMP/same"
check compare/label-alike-varying grep -Eq '^producers=1 +base only$' "$TMP/alike.out"

# --- a NEW with a parameter BASE lacks: matched on the others while it is constant
# add_param SRC DST VALUE...: a copy of SRC whose summary has a `batch` column
# after `experiment`, VALUE for each row in turn (the last one repeated)
add_param() {
	cp -r "$1" "$2" && python3 - "$2/summary.csv" "${@:3}" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
vals = sys.argv[2:]
at = rows[0].index("experiment") + 1
for i, r in enumerate(rows):
    r.insert(at, "batch" if i == 0 else vals[min(i - 1, len(vals) - 1)])
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
}
add_param "$TMP/same" "$TMP/batch8" 8
cmp batch8 "$TMP/base" "$TMP/batch8"
check compare/new-param-constant-exit-0 status_is batch8 0
check compare/new-param-note grep -q '^note: only in NEW, not part of the match: batch=8$' \
	"$TMP/batch8.out"
check compare/new-param-matched grep -Eq '^producers=0 .* no significant change \(p=' \
	"$TMP/batch8.out"
add_param "$TMP/same" "$TMP/batchvar" 8 16
cmp batchvar "$TMP/base" "$TMP/batchvar"
check compare/new-param-varies-exit-2 status_is batchvar 2
check compare/new-param-varies-says grep -q "parameter 'batch' is only in NEW and varies there" \
	"$TMP/batchvar.err"

# --- formats -----------------------------------------------------------------
cmp json -i rate -f json "$TMP/base" "$TMP/fast" "$TMP/same"
check compare/json-parses quiet python3 -m json.tool "$TMP/json.out"
check compare/json-two-news [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]));
print(" ".join(c["points"][0]["metrics"][0]["verdict"].split()[0] for c in d["comparisons"]))' \
	"$TMP/json.out")" = "faster no" ]
cmp md -i rate -f markdown "$TMP/base" "$TMP/fast"
check compare/markdown-row grep -Eq '^\| producers=0 \| hits \| 1\.000 ± .* \| faster \|$' \
	"$TMP/md.out"

# --- a set without samples (an imported one): the summary's mean, stddev, n --
mkdir "$TMP/nosamples" && cp "$TMP/base/summary.csv" "$TMP/base/meta" "$TMP/nosamples/"
cmp nosamples -i rate -f csv "$TMP/nosamples" "$TMP/fast"
check compare/summary-fallback [ "$(field nosamples verdict 0 hits)" = faster ]
check compare/summary-fallback-same-p between "$(field nosamples p 0 hits)" \
	$(awk -v p="$(field fast p 0 hits)" 'BEGIN { print p * 0.999, p * 1.001 }')

# --- --fail-above: a significant regression of the headline metric beyond PCT
cmp ci5 -i rate --fail-above 5 "$TMP/fast" "$TMP/base"
check compare/fail-above-exit-1 status_is ci5 1
check compare/fail-above-names-point grep -q 'regression beyond 5%: .*producers=0: hits -9\.09%' \
	"$TMP/ci5.err"
cmp ci20 -i rate --fail-above 20 "$TMP/fast" "$TMP/base"
check compare/fail-above-smaller-exit-0 status_is ci20 0
cmp ci-better -i rate --fail-above 5 "$TMP/base" "$TMP/fast"
check compare/fail-above-improvement-exit-0 status_is ci-better 0

# --- usage errors: exit 2 ------------------------------------------------------
cmp missing "$TMP/base" "$TMP/nonexistent"
check compare/missing-dir-exit-2 status_is missing 2
check compare/missing-dir-says grep -q 'nonexistent: No such file or directory' "$TMP/missing.err"
mkdir "$TMP/empty"
cmp notresult "$TMP/base" "$TMP/empty"
check compare/not-a-result-dir-exit-2 status_is notresult 2
cmp nothing "$TMP/base" "$TMP/fast"
check compare/nothing-in-common-exit-2 status_is nothing 2
check compare/nothing-in-common-says grep -q 'nothing in common' "$TMP/nothing.err"
cmp one "$TMP/base"
check compare/one-dir-exit-2 status_is one 2
cmp badfmt -f yaml "$TMP/base" "$TMP/same"
check compare/bad-format-exit-2 status_is badfmt 2
