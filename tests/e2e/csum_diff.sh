#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/csum_diff.spec through the whole tool, as root, quick: every point
# passes its correctness check and is measured (ok, calls > 0, calls =
# runs x batch), the seed's sizes are rows of its table with M/s and ns
# per call, and the chart of calls by batch is drawn.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip csum_diff/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP specs/csum_diff.spec --quick -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check csum_diff/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/csum_diff.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check csum_diff/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: size, batch, test_repeat, status, calls/s, runs/s, reason
paste <(csv_col "$SUM" size) <(csv_col "$SUM" batch) <(csv_col "$SUM" test_repeat) \
	<(csv_col "$SUM" status) <(csv_col "$SUM" calls_per_s_mean) \
	<(csv_col "$SUM" runs_per_s_mean) <(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS=$'\t' read -r size batch rep st calls runs why; do
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
done <"$TMP/rows"
check csum_diff/every-point-ok-with-calls [ "$bad" = 0 ]
# every size and batch of the spec ran
for b in 1 16 128; do
	check "csum_diff/batch-$b-rows" grep -q "^4	$b	1	ok" "$TMP/rows"
done
check csum_diff/test-repeat-rows [ "$(grep -c '	128	100	ok' "$TMP/rows")" = 11 ]

# the seed's table: its ten sizes, each "N.NNN ± N.NNNM/s per producer, N.NNns per call"
seed_rows=$(grep -Ec '^(4|8|16|20|32|40|64|128|256|512) +[0-9]+\.[0-9]{3} ± [0-9.]+M/s per producer, [0-9]+\.[0-9]{2}ns per call' "$D/table.txt")
check csum_diff/seed-rows [ "$seed_rows" = 10 ]
# ns per call is 1e9 / calls per second (one producer) on the first seed row
ns=$(grep -E '^4 +[0-9]' "$D/table.txt" | head -1 | sed -n 's/.*, \([0-9.]*\)ns per call.*/\1/p')
rate=$(csv_col "$SUM" calls_per_s_mean | head -1)
check csum_diff/ns-per-call awk -v n="${ns:-0}" -v r="$rate" \
	'BEGIN { d = n - 1e9 / r; if (d < 0) d = -d; exit !(n > 0 && d < 0.01) }'

check csum_diff/chart [ -n "$(ls "$D"/plots/*.png 2>/dev/null)" ]
for f in "$D"/plots/*.png; do
	check "csum_diff/chart-png-${f##*/}" is_png "$f"
done
check csum_diff/no-stderr-errors not grep -qi error "$TMP/err"
