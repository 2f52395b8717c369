#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# [sweep] decide end to end without root (docs/statistics.md, "Decisions"):
# a baseline's arms run in interleaved rounds, each round one repetition of
# every arm in a shuffled order that samples.csv's slot column records; the
# null workload counts at exactly `rate`, so +5 % is different at the first
# look (5 rounds) and two arms at the same rate the same; a budget that
# ends before 3 rounds says there was no test; the table, report and meta
# say it all; decide refuses a spec with no baseline or with a precision.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPEC=tests/e2e/decide.spec

# cell DIR COLUMN KEY VALUE: COLUMN of the summary row whose KEY is VALUE
cell() { csv_col "$1/summary.csv" "$2" "$3" "$4"; }
between() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

$BPFSWEEP run $SPEC --no-plots -o "$TMP/run" >"$TMP/run.out" 2>&1 </dev/null
check decide/run-exit-0 [ $? = 0 ]
check decide/five-percent-different grep -Eq \
	'^different: \+5\.0 % \[\+[45]\.[0-9], \+5\.[0-9]\]$' <(cell "$TMP/run" decision rate 1050000)
check decide/interval-holds-five between "$(cell "$TMP/run" decision_lo_pct rate 1050000)" 4 5
check decide/interval-upper between "$(cell "$TMP/run" decision_hi_pct rate 1050000)" 5 6
check decide/first-look [ "$(cell "$TMP/run" rounds rate 1050000)" = 5 ]
check decide/stop-decided [ "$(cell "$TMP/run" stop rate 1050000)" = decided ]
check decide/baseline-named [ "$(cell "$TMP/run" decision rate 1000000 | head -n1)" = baseline ]
check decide/baseline-no-rounds [ -z "$(cell "$TMP/run" rounds rate 1000000 | head -n1)" ]
check decide/same-rate-same grep -Eq '^same: no change beyond ±[0-9.]+ %$' \
	<(cell "$TMP/run" decision producers 1)
# a round is one repetition of each arm: 5 units of 5 intervals
check decide/rounds-are-units [ "$(cell "$TMP/run" hits_per_s_units rate 1050000)" = 5 ]
check decide/rounds-n [ "$(cell "$TMP/run" n rate 1050000)" = 25 ]

# samples.csv: each round ran each arm of a set once, at a place of its own,
# and the order changes from round to round (drawn again from the seed in meta)
python3 - "$TMP/run/samples.csv" >"$TMP/order" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sets = {}
for r in rows:
    sets.setdefault((r["experiment"], r["rep"]), {})[r["point"]] = r["slot"]
ok = all(sorted(v.values()) == [str(i) for i in range(len(v))] for v in sets.values())
orders = {tuple(sorted(v, key=v.get)) for (e, _), v in sets.items() if e == "decide"}
print(ok, len(sets), len(orders))
PY
read -r each_once nr_rounds nr_orders <"$TMP/order"
check decide/slots-each-arm-once [ "$each_once" = True ]
check decide/slots-per-round [ "$nr_rounds" = 10 ]
check decide/order-shuffled [ "$nr_orders" = 2 ]
check decide/meta grep -q '^decide: 2% (rounds 5 to 10, looks 5, 10, max_time 0s; ' "$TMP/run/meta"

# the table: each arm's decision beside its numbers, the baseline named
check decide/table-baseline grep -Eq '^rate=1000000 .*  baseline$' "$TMP/run.out"
check decide/table-different grep -Eq '^rate=1050000 .*  different: \+5\.0 % \[' "$TMP/run.out"
check decide/progress-line grep -Eq '^\[2/4\] null\{rate=1050000\}: ok hits .*, different: \+5\.0 %' \
	"$TMP/run.out"
$BPFSWEEP report "$TMP/run" -f markdown >"$TMP/md" 2>&1
check decide/markdown-column grep -q '^| point | hits | drops | decision |$' "$TMP/md"
check decide/markdown-row grep -Eq '^\| rate=1050000 \| .* \| different: \+5\.0 % \[.*\] \|$' \
	"$TMP/md"

# a point with no arm to run with is no baseline: it runs on its own (5 repetitions)
$BPFSWEEP run $SPEC --no-plots --set rate=1000000 -o "$TMP/alone" >"$TMP/alone.out" 2>&1 </dev/null
check decide/alone-not-baseline [ -z "$(cell "$TMP/alone" decision producers 0 | head -n1)" ]
check decide/alone-five-reps [ "$(cell "$TMP/alone" hits_per_s_units producers 0 | head -n1)" = 5 ]
check decide/alone-table-bare grep -Eq '^decide +1\.000 ± [0-9.]+M/s \(drops [^)]*\)$' \
	"$TMP/alone.out"

# a budget that ends before 3 rounds: no test, said so, and why it stopped
$BPFSWEEP run $SPEC --no-plots --set max_time=1ms -o "$TMP/budget" >/dev/null 2>&1 </dev/null
check decide/budget-stop [ "$(cell "$TMP/budget" stop rate 1050000)" = budget ]
check decide/budget-no-test [ "$(cell "$TMP/budget" decision rate 1050000)" = \
	"no test (< 3 rounds)" ]

# the plan says what runs; --quick runs no rounds
$BPFSWEEP expand $SPEC >"$TMP/expand" 2>&1
check decide/expand grep -q '× 5 to 10 repetitions (rounds until each point is decided' \
	"$TMP/expand"
$BPFSWEEP expand $SPEC --quick >"$TMP/quick" 2>&1
check decide/quick-no-rounds grep -q '× 1 repetition, ' "$TMP/quick"

# refused: nothing to compare with, or a precision beside it
printf '[sweep]\nworkload = null\ndecide = 2%%\n[params]\nrate = 1 2\n' >"$TMP/nobase.spec"
$BPFSWEEP check "$TMP/nobase.spec" >/dev/null 2>"$TMP/nobase.err"
check decide/no-baseline-exit-2 [ $? = 2 ]
check decide/no-baseline-located grep -q \
	"nobase.spec:3:10: error: decide needs a baseline to compare each point with" "$TMP/nobase.err"
$BPFSWEEP check $SPEC --set precision=2% >/dev/null 2>"$TMP/both.err"
check decide/with-precision-exit-2 [ $? = 2 ]
check decide/with-precision-said grep -q 'error: decide and precision both set' "$TMP/both.err"
$BPFSWEEP check $SPEC --set decide=two >/dev/null 2>"$TMP/bad.err"
check decide/bad-value grep -q "error: invalid decide 'two': a percentage" "$TMP/bad.err"

# the power benchmark's knob: a cost the verifier can walk, or a located refusal
$BPFSWEEP check specs/power_csum.spec >/dev/null 2>&1
check decide/power-spec-ok [ $? = 0 ]
$BPFSWEEP check specs/power_csum.spec --set batch=1024 --set extra_work="0 64" \
	>/dev/null 2>"$TMP/work.err"
check decide/extra-work-bounded grep -q \
	'error: batch x extra_work must be at most 32768: the verifier walks every round' \
	"$TMP/work.err"
