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

# set_quality DIR VALUE [PRODUCERS]: the quality cell of DIR's ok rows (of that
# producers value) set to VALUE.  compare.spec's alternation makes the null
# workload's intervals two clusters, which its runs may flag `bimodal`, and a
# loaded machine flags interference: the sets whose verdicts are checked are
# made unflagged, and flagged ones where the veto is checked.
set_quality() {
	python3 - "$1/summary.csv" "$2" "${3:-}" <<'PY'
import csv, sys
path, value, prod = sys.argv[1:]
rows = list(csv.reader(open(path)))
q, st, p = (rows[0].index(c) for c in ("quality", "status", "producers"))
for r in rows[1:]:
    if r[st] == "ok" and (not prod or r[p] == prod):
        r[q] = value
csv.writer(open(path, "w"), lineterminator="\n").writerows(rows)
PY
}
for d in base fast same single; do set_quality "$TMP/$d" ""; done

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

# --- one directory: only a sweep over kernels that ran in rounds -----------
cmp one "$TMP/base"
check compare/one-dir-exit-2 status_is one 2
check compare/one-dir-says-what grep -qF "$TMP/base: compare of one directory is of a sweep over \
kernels run with decide (--kernel A --kernel B --set decide=2%); this one is a single run" \
	"$TMP/one.err"

# --- a known difference: +10%, significant, faster -----------------------
cmp fast -i rate -f csv "$TMP/base" "$TMP/fast"
check compare/fast-exit-0 status_is fast 0
check compare/fast-csv-parses quiet csv_col "$TMP/fast.out" verdict
check compare/fast-faster [ "$(field fast verdict 0 hits)" = faster ]
check compare/fast-delta-10pct between "$(field fast delta_pct 0 hits)" 9.5 10.5
check compare/fast-significant between "$(field fast p 0 hits)" 0 0.001
check compare/fast-n-40 [ "$(field fast new_n 0 hits)" = 40 ]
check compare/fast-drops-same [ "$(field fast verdict 0 drops)" = same ]
# the interval of Δ, beside it: +10 % within it, 0 not
check compare/fast-interval awk -v lo="$(field fast delta_lo_pct 0 hits)" \
	-v hi="$(field fast delta_hi_pct 0 hits)" 'BEGIN { exit !(lo > 0 && lo < 10 && hi > 10) }'
check compare/fast-decision grep -Eq '^faster: \+10\.0 % \[\+[0-9.]+, \+[0-9.]+\]$' \
	<(field fast decision 0 hits)
check compare/base-only-listed [ "$(field fast state 1 "")" = "base only" ]
check compare/new-only-listed [ "$(field fast state 2 "")" = "new only" ]
check compare/new-only-listed-failures [ "$(field fast state 2 "" failures)" = "new only" ]
check compare/unsupported-not-compared [ "$(field fast reason 0 "" failures)" = \
	"both unsupported: null: unsupported on request (fail=probe)" ]

# a smoke run says so in the header
run "$TMP/quick" --quick --set producers=0 || fail compare/runs "quick run failed"
set_quality "$TMP/quick" ""
cmp quick "$TMP/base" "$TMP/quick"
check compare/quick-marked grep -q '^new: .*(smoke run: --quick)$' "$TMP/quick.out"
check compare/base-not-marked not grep -q '^base: .*smoke run' "$TMP/quick.out"

# the same, the other way round: slower, -9.09%
cmp slow -i rate -f csv "$TMP/fast" "$TMP/base"
check compare/slow-slower [ "$(field slow verdict 0 hits)" = slower ]
check compare/slow-delta between "$(field slow delta_pct 0 hits)" -9.5 -8.7

# --- the same rate: no change found; "same" only within the bound it rules out
# (compare.spec's ±5 % alternation over 40 units: an interval of about ±2.3 %)
cmp same -f csv "$TMP/base" "$TMP/same"
check compare/same-undecided [ "$(field same verdict 0 hits)" = undecided ]
check compare/same-delta-small between "$(field same delta_pct 0 hits)" -0.5 0.5
check compare/same-undecided-says-what grep -Eq \
	'^undecided: changes up to ±2\.[0-9] % not ruled out$' <(field same decision 0 hits)
cmp same3 --decide 3 -f csv "$TMP/base" "$TMP/same"
check compare/same-within-3 [ "$(field same3 verdict 0 hits)" = same ]
check compare/same-within-3-says-what grep -Eq '^same: no change beyond ±2\.[0-9] %$' \
	<(field same3 decision 0 hits)

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
check compare/n-1-text grep -Eq '^producers=0  hits +1\.000 → +[0-9.]+M/s +[-+][0-9.]+ %  +no test \(< 3 units\)$' \
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
# three repetitions of the deterministic null workload: three equal means, the same
check compare/units-rep-test [ "$(field rep3 verdict 0 hits)" = same ]
cmp rep2 -i rate -f csv "$TMP/rep3" "$TMP/rep2"
check compare/units-two-no-test [ "$(field rep2 verdict 0 hits)" = "no test (< 3 units)" ]
# ten intervals cannot tell their autocorrelation: one repetition is one unit, no interval
run "$TMP/short" --set producers=0 --set repeat=1 --set duration=200ms ||
	fail compare/runs "short run failed"
check compare/units-short-one [ "$(summary_of "$TMP/short")" = "batch 1" ]
check compare/units-short-no-ci [ -z "$(csv_col "$TMP/short/summary.csv" hits_per_s_ci95 |
	head -n1)" ]

# --- the text table: one line per point and metric, as the kernel bench's line of a
# point reads: label, metric, base → new in its unit, Δ % [its interval], the verdict;
# each column as wide as its content (the label's, "producers=0", and two blanks)
cmp text -i rate "$TMP/base" "$TMP/fast"
row='^producers=0  hits   1\.000 → 1\.100M/s  \+(9\.9|10\.0|10\.1) % \[\+[0-9.]+, \+[0-9.]+\]  '
check compare/text-row grep -Eq "$row"'faster$' "$TMP/text.out"
check compare/text-row-drops grep -Eq '^producers=0  drops  0\.000 → 0\.000M/s +n/a +same: no change beyond ±0\.0 %$' \
	"$TMP/text.out"
# no line of a metric without its point (the old layout's "  drops" under it)
check compare/text-every-line-labelled not grep -Eq '^ ' "$TMP/text.out"
check compare/text-no-p not grep -q 'p<0' "$TMP/text.out"
check compare/text-base-only grep -Eq '^producers=1 +base only$' "$TMP/text.out"
check compare/text-new-only grep -Eq '^producers=2 +new only$' "$TMP/text.out"
check compare/text-note grep -q '^note: left out of the match (--ignore): rate$' "$TMP/text.out"

# --- the spec's label template, where it labels every point of an experiment apart
cp -r "$TMP/base" "$TMP/labelled" && printf '[report]\nlabel = null prod {producers}\n' \
	>>"$TMP/labelled/spec"
cmp labels -i rate "$TMP/labelled" "$TMP/same"
check compare/label-template grep -Eq '^null prod 0  hits +1\.000 → .* undecided: ' \
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
check compare/new-param-matched grep -Eq '^producers=0  hits .* undecided: changes up to ' \
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
	"$TMP/json.out")" = "faster undecided" ]
# the numbers are events per second: their unit says so, the text's unit beside it
# (it said "M/s" beside 999999.8)
check compare/json-units [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
m = d["comparisons"][0]["points"][0]["metrics"][0]
print(m["unit"], m["display_unit"], round(m["base"]["mean"] / 1e5))' "$TMP/json.out")" = \
	"hits/s M/s 10" ]
cmp md -i rate -f markdown "$TMP/base" "$TMP/fast"
check compare/markdown-row grep -Eq \
	'^\| producers=0 \| hits \| 1\.000 → 1\.100M/s \| \+(9\.9|10\.0|10\.1) % \| \[\+[0-9.]+, \+[0-9.]+\] \| faster \|$' \
	"$TMP/md.out"
check compare/markdown-base-only grep -Eq '^\| producers=1 \|  \|  \|  \|  \| base only \|$' "$TMP/md.out"

# --- what else differs between the sets: one note each, before the table -------
# two null runs of other settings: duration and repeat (a 5 s run against a 1 s one
# was compared in silence); the load may warn on one side only, so the checks here
# leave system warnings to the edited sets below
run "$TMP/settings" --set producers=0 --set duration=200ms --set repeat=3 ||
	fail compare/runs "settings run failed"
cmp settings "$TMP/base" "$TMP/settings"
check compare/differs-duration grep -qx 'note: duration differs: base 400ms, new 200ms' \
	"$TMP/settings.out"
check compare/differs-repeat grep -qx 'note: repeat differs: base 2, new 3' "$TMP/settings.out"
check compare/differs-before-table awk '/^note: duration differs/ { n = NR } /^=+$/ { t = NR; exit }
	END { exit !(n && t && n < t) }' "$TMP/settings.out"
cmp same-text "$TMP/base" "$TMP/same"
check compare/differs-none-same-settings not grep -q ' differs: ' "$TMP/same-text.out"
cmp settings-md -f markdown "$TMP/base" "$TMP/settings"
check compare/differs-markdown grep -qx 'note: duration differs: base 400ms, new 200ms' \
	"$TMP/settings-md.out"
cmp settings-json -f json "$TMP/base" "$TMP/settings"
check compare/differs-json [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
print(" ".join(x["key"] + "=" + x["base"] + ">" + x["new"] for x in d["comparisons"][0]["differences"]
	       if x["key"] != "system_warning"))' \
	"$TMP/settings-json.out")" = "duration=400ms>200ms repeat=2>3" ]
# the machine, its kernel config and a system warning on one side only (meta edited:
# one machine runs both sides here)
cp -r "$TMP/same" "$TMP/othermachine"
sed -i -e 's/^cpu_model: .*/cpu_model: Other CPU/' -e 's/^cpu_boost: .*/cpu_boost: on/' \
	-e '/^config: CONFIG_HZ[= ]/d' -e '/^system_warning: /d' -e '$a config: CONFIG_HZ=1000' \
	-e '$a system_warning: CPU boost on: the clock follows temperature' "$TMP/othermachine/meta"
cp -r "$TMP/base" "$TMP/basewarned"
sed -i -e 's/^cpu_boost: .*/cpu_boost: off/' -e '/^config: CONFIG_HZ[= ]/d' -e '/^system_warning: /d' \
	-e '$a config: CONFIG_HZ=250' -e '$a system_warning: virtualised: the hypervisor is in the numbers' "$TMP/basewarned/meta"
cmp machine "$TMP/basewarned" "$TMP/othermachine"
check compare/differs-cpu grep -qx 'note: cpu_model differs: base .*, new Other CPU' \
	"$TMP/machine.out"
check compare/differs-boost grep -qx 'note: cpu_boost differs: base off, new on' "$TMP/machine.out"
check compare/differs-config grep -qx 'note: CONFIG_HZ differs: base 250, new 1000' \
	"$TMP/machine.out"
check compare/differs-warning-base grep -qx 'note: system warning in BASE only: virtualised' \
	"$TMP/machine.out"
check compare/differs-warning-new grep -qx 'note: system warning in NEW only: CPU boost on' \
	"$TMP/machine.out"

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

# --- noise vetoes verdicts: a flagged point's change is inconclusive, on either side
cp -r "$TMP/fast" "$TMP/fastflag" && set_quality "$TMP/fastflag" "cv=37%;bimodal" 0
cmp veto -i rate "$TMP/base" "$TMP/fastflag"
check compare/veto-text grep -Eq "$row"'inconclusive \(new cv=37%;bimodal\)$' "$TMP/veto.out"
cmp veto-csv -i rate -f csv "$TMP/base" "$TMP/fastflag"
check compare/veto-csv [ "$(field veto-csv verdict 0 hits)" = inconclusive ]
check compare/veto-csv-flags [ "$(field veto-csv new_quality 0 hits)" = "cv=37%;bimodal" ]
check compare/veto-csv-no-change-stands \
	[ "$(field veto-csv verdict 0 drops)" = same ]
cmp veto-json -i rate -f json "$TMP/base" "$TMP/fastflag"
check compare/veto-json-tested [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
m = d["comparisons"][0]["points"][0]["metrics"][0]; print(m["verdict"], m["tested"])' \
	"$TMP/veto-json.out")" = "inconclusive faster" ]
# --fail-above fails closed: a flagged regression is no regression (exit 1) but is
# not passed either (exit 3), named with the flags; noise alone vetoes nothing
cmp veto-ci -i rate --fail-above 5 "$TMP/fastflag" "$TMP/base"
check compare/veto-ci-exit-3 status_is veto-ci 3
check compare/veto-ci-names grep -q \
	'inconclusive: .*producers=0: hits -9\.09% .*flagged: cv=37%;bimodal (the test alone: a regression beyond the limit)' \
	"$TMP/veto-ci.err"
check compare/veto-ci-count grep -q \
	'0 regressions; 1 point not passed (0 untested, 0 undecided, 1 inconclusive)' "$TMP/veto-ci.err"
check compare/unflagged-ci-count grep -q '1 regression; 0 points not passed' "$TMP/ci5.err"
cp -r "$TMP/fast" "$TMP/fastnoisy" && set_quality "$TMP/fastnoisy" "cv=37%;interference=54%" 0
cmp noisy-csv -i rate -f csv "$TMP/base" "$TMP/fastnoisy"
check compare/noise-alone-no-veto [ "$(field noisy-csv verdict 0 hits)" = faster ]
# an untested point (one unit) and one whose interval holds a regression beyond
# the limit are named and fail the gate closed; within it, the gate passes
cmp single-ci -i rate --fail-above 5 "$TMP/base" "$TMP/single"
check compare/untested-ci-exit-3 status_is single-ci 3
check compare/untested-ci-named grep -q 'untested: .*producers=0: hits .*no test (< 3 units)' \
	"$TMP/single-ci.err"
check compare/untested-advice grep -q \
	'1 point had fewer than 3 units a side, so no test: give repeat = 3 or more' "$TMP/single-ci.err"
# a point alone in its experiment is labelled by the title: named once, not
# "compare: compare: hits"
cmp alone-ci -i rate --fail-above 5 "$TMP/same" "$TMP/single"
check compare/gate-names-point-once grep -q "^bpfsweep: warning: untested: $TMP/single: compare: hits " \
	"$TMP/alone-ci.err"
cmp same-ci1 --fail-above 1 "$TMP/base" "$TMP/same"
check compare/undecided-ci-exit-3 status_is same-ci1 3
check compare/undecided-ci-named grep -q \
	'undecided: .*producers=0: hits: a regression beyond 1% is not ruled out (undecided: ' \
	"$TMP/same-ci1.err"
cmp same-ci5 --fail-above 5 "$TMP/base" "$TMP/same"
check compare/ruled-out-ci-exit-0 status_is same-ci5 0

# a point with any status but ok (a stalled one: rate 0 while its producers ran) gets no verdict
cp -r "$TMP/same" "$TMP/stalled" && python3 - "$TMP/stalled/summary.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    if r[h.index("producers")] == "0" and r[h.index("status")] == "ok":
        r[h.index("status")], r[h.index("reason")] = "stalled", "rate 0 while producers ran"
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
cmp stalled -f csv "$TMP/base" "$TMP/stalled"
check compare/stalled-not-compared [ "$(field stalled state 0 "")" = "not compared" ]
check compare/stalled-reason [ "$(field stalled reason 0 "")" = \
	"new stalled: rate 0 while producers ran" ]

# --- directions and units from meta's metric lines; older sets by name, said
check compare/meta-lines grep -qx 'metric: drops counter M/s lower' "$TMP/base/meta"
check compare/better-csv [ "$(field fast better 0 hits) $(field fast better 0 drops)" = \
	"higher lower" ]
cp -r "$TMP/same" "$TMP/old" && sed -i '/^metric: /d' "$TMP/old/meta"
cmp old -f json "$TMP/old" "$TMP/old"
check compare/old-set-by-name [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
c = d["comparisons"][0]; m = c["points"][0]["metrics"]
print(m[1]["better"], m[1]["better_from"], any("follow the metric names" in n for n in c["notes"]))' \
	"$TMP/old.out")" = "lower name True" ]

# --- typed parameters in JSON, as run's export gives them
check compare/json-typed-params [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
p = d["comparisons"][0]["points"][0]["parameters"]
print(json.dumps([p["producers"], p["jitter_pct"], p["mode"], p["flag"]]))' "$TMP/json.out")" = \
	'[0, 5, "fast", false]' ]

# --- ns_per_run and a value one side did not record --------------------------
# with_prog SRC DST NS: a copy of SRC whose intervals have the program counters,
# 50000 runs a second of NS ns each (+-1%), or empty cells (the BPF statistics off)
# for NS "-"
with_prog() {
	cp -r "$1" "$2" && python3 - "$2" "$3" <<'PY'
import csv, sys
d, ns = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(d + "/samples.csv")))
rows[0] += ["prog_runs", "prog_ns"]
el = rows[0].index("elapsed_ns")
for i, r in enumerate(rows[1:]):
    runs = int(r[el]) // 20000
    each = float(ns) * (1 + (i % 2 - .5) / 50) if ns != "-" else 0
    r += ["", ""] if ns == "-" else [str(runs), str(int(runs * each))]
csv.writer(open(d + "/samples.csv", "w"), lineterminator="\n").writerows(rows)
rows = list(csv.reader(open(d + "/summary.csv")))
stats = ["mean", "stddev", "median", "min", "max", "ci95"]
cols = ["prog_runs_per_s_" + s for s in stats] + ["prog_ns_per_s_" + s for s in stats]
cols += ["ns_per_run_" + s for s in stats]
rows[0] += cols
for r in rows[1:]:
    r += [""] * len(cols) if ns == "-" or r[rows[0].index("status")] != "ok" else \
        ["1"] * 12 + [ns] + [""] * 5
csv.writer(open(d + "/summary.csv", "w"), lineterminator="\n").writerows(rows)
with open(d + "/meta", "a") as f:
    f.write("metric: prog_runs counter M/s neither\nmetric: prog_ns counter ms/s neither\n"
            "metric: ns_per_run ratio ns lower\n")
PY
}
with_prog "$TMP/base" "$TMP/prog50" 50
with_prog "$TMP/same" "$TMP/prog60" 60
with_prog "$TMP/same" "$TMP/progoff" -
cmp prog -f csv "$TMP/prog50" "$TMP/prog60"
check compare/ns-per-run-compared [ "$(field prog verdict 0 ns_per_run)" = worse ]
check compare/ns-per-run-delta between "$(field prog delta_pct 0 ns_per_run)" 19.5 20.5
check compare/prog-ns-neither [ "$(field prog verdict 0 prog_ns)" = changed ]
cmp prog-text "$TMP/prog50" "$TMP/prog60"
check compare/ns-per-run-in-ns grep -Eq \
	'^producers=0  ns_per_run   50\.0 →  60\.0ns    \+20\.0 % \[\+[0-9.]+, \+[0-9.]+\]  worse$' \
	"$TMP/prog-text.out"
check compare/prog-ns-in-ms-per-s grep -Eq '^producers=0  prog_ns +[0-9.]+ → +[0-9.]+ms/s ' \
	"$TMP/prog-text.out"
cmp progoff -f csv "$TMP/prog50" "$TMP/progoff"
check compare/not-recorded-na [ "$(field progoff verdict 0 prog_ns) / $(field progoff verdict 0 \
	ns_per_run)" = "n/a (not recorded) / n/a (not recorded)" ]
check compare/not-recorded-no-zero [ -z "$(field progoff new_mean 0 prog_ns)" ]
cmp progoff-text "$TMP/prog50" "$TMP/progoff"
# what a side did not record is left out of text and markdown, named once (it was two
# rows of "n/a (not recorded)" a point, for every ringbuf run without BPF statistics)
check compare/not-recorded-text-left-out not grep -Eq 'prog_ns|prog_runs|ns_per_run|not recorded\)' \
	<(grep -v '^note: ' "$TMP/progoff-text.out")
check compare/not-recorded-text-note grep -qx \
	'note: not recorded by both sets, not shown (-e shows them): prog_runs prog_ns ns_per_run' \
	"$TMP/progoff-text.out"
cmp progoff-md -f markdown "$TMP/prog50" "$TMP/progoff"
check compare/not-recorded-markdown-left-out not grep -q '| prog_ns |' "$TMP/progoff-md.out"
# -e asks for it: shown, n/a on the side that did not record it
cmp progoff-e -e hits,prog_ns "$TMP/prog50" "$TMP/progoff"
check compare/not-recorded-picked grep -Eq \
	'^producers=0  prog_ns +[0-9.]+ms/s → +n/a +n/a +n/a \(not recorded\)$' "$TMP/progoff-e.out"

# --- -e METRIC,...: the metrics printed, in its order, in every format ------------
cmp pick -e ns_per_run,hits "$TMP/prog50" "$TMP/prog60"
check compare/pick-order [ "$(grep '^producers=0 ' "$TMP/pick.out" | awk '{ print $2 }' | tr '\n' ' ')" = \
	"ns_per_run hits " ]
# one metric: no metric column, the row reads as the bench's ("rb-libbpf 14.970 → ...")
cmp pick-one -e hits -i rate "$TMP/base" "$TMP/fast"
check compare/pick-one-row grep -Eq \
	'^producers=0  1\.000 → 1\.100M/s  \+(9\.9|10\.0|10\.1) % \[\+[0-9.]+, \+[0-9.]+\]  faster$' \
	"$TMP/pick-one.out"
check compare/pick-one-legend grep -q '^hits: base → new: ' "$TMP/pick-one.out"
cmp pick-csv -e drops -f csv -i rate "$TMP/base" "$TMP/fast"
check compare/pick-csv [ "$(csv_col "$TMP/pick-csv.out" metric | sort -u | tr '\n' ' ')" = " drops " ]
check compare/pick-csv-every-field [ -n "$(field pick-csv base_stddev 0 drops)" ]
cmp pick-json -e drops -f json -i rate "$TMP/base" "$TMP/fast"
check compare/pick-json [ "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
print(" ".join(m["metric"] for m in d["comparisons"][0]["points"][0]["metrics"]))' \
	"$TMP/pick-json.out")" = drops ]
# a name neither set has, or only one: a usage error naming what there is
cmp pick-bad -e hits,hitz -i rate "$TMP/base" "$TMP/fast"
check compare/pick-unknown-exit-2 status_is pick-bad 2
check compare/pick-unknown-lists grep -q \
	"error: .*: -e: no metric 'hitz' in both sets (did you mean 'hits'?); they have: hits drops$" \
	"$TMP/pick-bad.err"
check compare/pick-unknown-no-output [ ! -s "$TMP/pick-bad.out" ]
cmp pick-paired -e hits --paired "$TMP/base" "$TMP/same"
check compare/pick-not-paired status_is pick-paired 2
cmp oneside "$TMP/prog50" "$TMP/same"
check compare/metric-one-side-note grep -q \
	'^note: metrics only in BASE, not compared: prog_runs prog_ns$' "$TMP/oneside.out"

# --- tampered result files: refused alike by every reader, exit 2 -----------------
# a negative count was read as 2^64 - 5 (report) and as a slowdown (compare)
cp -r "$TMP/same" "$TMP/neg"
sed -i '3s/^\([^,]*,[^,]*,[^,]*,[^,]*,0,[0-9]*,\)[0-9]*/\1-5/' "$TMP/neg/samples.csv"
cmp neg "$TMP/base" "$TMP/neg"
check compare/negative-count-exit-2 status_is neg 2
check compare/negative-count-says-where grep -q "samples.csv:3:7: error: hits is '-5'" "$TMP/neg.err"
$BPFSWEEP report "$TMP/neg" -o "$TMP/neg.r" --no-plots >/dev/null 2>"$TMP/neg-report.err"
check report/negative-count-exit-2 [ $? = 2 ]
$BPFSWEEP merge "$TMP/base" "$TMP/neg" -o "$TMP/neg.m" --no-plots >/dev/null 2>"$TMP/neg-merge.err"
check merge/negative-count-exit-2 [ $? = 2 ]
check tampered/same-message-everywhere [ "$(cat "$TMP/neg.err")" = "$(cat "$TMP/neg-report.err")" \
	-a "$(cat "$TMP/neg.err")" = "$(cat "$TMP/neg-merge.err")" ]
# a renamed summary column: compare printed 0 on both sides and exit 0 under --fail-above
cp -r "$TMP/same" "$TMP/renamed"
sed -i '1s/hits_per_s_mean/hitz_per_s_mean/' "$TMP/renamed/summary.csv"
cmp renamed --fail-above 5 "$TMP/base" "$TMP/renamed"
check compare/renamed-column-exit-2 status_is renamed 2
check compare/renamed-column-says grep -q "summary.csv:1:[0-9]*: error: hitz_per_s_mean is of metric" \
	"$TMP/renamed.err"
# the same without samples.csv (an imported set): the headline missing from one side
rm "$TMP/renamed/samples.csv"
cmp renamed-nosamples --fail-above 5 "$TMP/base" "$TMP/renamed"
check compare/renamed-headline-exit-2 status_is renamed-nosamples 2
check compare/renamed-headline-says grep -q "headline metric 'hits' is not in NEW" \
	"$TMP/renamed-nosamples.err"
# a row of another width (as a bad CSV or a header): refused as a cell is,
# "FILE:LINE:COL: error: ...", the same line from compare, report, merge and
# resume (was "FILE line 3: not valid CSV", and "cannot read/resume DIR: " first)
cp -r "$TMP/same" "$TMP/wide"
sed -i '3s/$/,9/' "$TMP/wide/samples.csv"
cmp wide "$TMP/base" "$TMP/wide"
$BPFSWEEP report "$TMP/wide" -o "$TMP/wide.r" --no-plots >/dev/null 2>"$TMP/wide-report.err"
$BPFSWEEP merge "$TMP/base" "$TMP/wide" -o "$TMP/wide.m" --no-plots >/dev/null \
	2>"$TMP/wide-merge.err"
$BPFSWEEP run tests/e2e/compare.spec --no-plots --set producers=0 --resume "$TMP/wide" \
	2>&1 >/dev/null | grep -v ': warning: ' >"$TMP/wide-resume.err"
wide_said="$TMP/wide/samples.csv:3:1: error: a row of 9 fields, not as many as the header's"
check tampered/row-width-located [ "$(cat "$TMP/wide.err")" = "$wide_said" ]
check tampered/row-width-same-everywhere [ "$(cat "$TMP/wide-report.err")" = "$wide_said" -a \
	"$(cat "$TMP/wide-merge.err")" = "$wide_said" -a "$(cat "$TMP/wide-resume.err")" = "$wide_said" ]

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
