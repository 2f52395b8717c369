#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# [sweep] precision end to end without root (docs/spec.md): the null
# workload's paced rate reaches a 2 % target at the minimum of 5
# repetitions; a target it cannot reach runs to max_repeat ("budget"); the
# ±5 % alternation of compare.spec is bimodal, which vetoes the target.
# Each row says why it stopped and what half-width it got; expand and meta
# say what the budget allows.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() {
	$BPFSWEEP run tests/e2e/compare.spec --no-plots --set producers=0 --set duration=100ms \
		-o "$@" >/dev/null 2>&1 </dev/null
}
# cell DIR COLUMN: COLUMN of the summary's first row (the point that ran)
cell() { csv_col "$1/summary.csv" "$2" | head -n1; }
between() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

run "$TMP/target" --set jitter_pct=0 --set precision=2% || fail precision/runs "target run"
check precision/target-stop [ "$(cell "$TMP/target" stop)" = target ]
check precision/target-five-units [ "$(cell "$TMP/target" hits_per_s_units)" = 5 ]
check precision/target-rep-units [ "$(cell "$TMP/target" unit_kind)" = rep ]
check precision/target-half-width between "$(cell "$TMP/target" half_width_pct)" 0 2
check precision/meta grep -q '^precision: 2% (repetitions 5 to 20, ' "$TMP/target/meta"

run "$TMP/budget" --set jitter_pct=0 --set precision=0.0000001% --set max_repeat=7 ||
	fail precision/runs "budget run"
check precision/budget-stop [ "$(cell "$TMP/budget" stop)" = budget ]
check precision/budget-max-repeat [ "$(cell "$TMP/budget" hits_per_s_units)" = 7 ]
# (three decimals: the paced rate's half-width may print as 0.000)
check precision/budget-half-width between "$(cell "$TMP/budget" half_width_pct)" 0 100

run "$TMP/veto" --set precision=2% --set max_repeat=6 || fail precision/runs "veto run"
check precision/veto-stop [ "$(cell "$TMP/veto" stop)" = "vetoed: bimodal" ]
check precision/veto-ran-to-budget [ "$(cell "$TMP/veto" hits_per_s_units)" = 6 ]

# without a precision: the repetitions asked for, and the row says so
run "$TMP/fixed" --set jitter_pct=0 || fail precision/runs "fixed run"
check precision/fixed-stop [ "$(cell "$TMP/fixed" stop)" = repeat ]
check precision/fixed-no-meta not grep -q '^precision:' "$TMP/fixed/meta"

$BPFSWEEP expand tests/e2e/compare.spec --set precision=2% --set max_repeat=8 >"$TMP/expand"
check precision/expand-range grep -q '× 5 to 8 repetitions (until ± 2%), ' "$TMP/expand"
$BPFSWEEP expand tests/e2e/compare.spec --set precision=2% --quick >"$TMP/quick"
check precision/quick-one-rep grep -q '× 1 repetition, ' "$TMP/quick"
