#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# [report] baseline end to end with the null workload (tests/e2e/baseline.spec):
# summary.csv's columns relative to the baseline, the table's derived
# fields, report recomputing them from the result directory, and a spec
# without a baseline writing none of those columns.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# near VALUE EXPECTED ABS: |VALUE - EXPECTED| <= ABS
near() { awk -v v="$1" -v e="$2" -v a="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= a) }'; }

# col_near FILE COLUMN KEY VALUE EXPECTED ABS: every COLUMN of the rows whose KEY
# is VALUE is near EXPECTED, and there are two (one per producers count)
col_near() {
	local n=0 v
	for v in $(csv_col "$1" "$2" "$3" "$4"); do
		near "$v" "$5" "$6" || return 1
		n=$((n + 1))
	done
	[ "$n" = 2 ]
}

D=$TMP/run
$BPFSWEEP tests/e2e/baseline.spec -o "$D" --no-plots >"$TMP/out" 2>"$TMP/err" </dev/null
status=$?
SUM=$D/summary.csv
# the setup=fail points fail on request: exit status 1
check baseline/ran [ "$status" = 1 ]
# 1e9/5e5 - 1e9/1e6 = 1000 ns; the null workload's rates are exact to a few ppm
check baseline/over-base-ns col_near "$SUM" hits_over_base_ns_mean rate 500000 1000 1
check baseline/vs-base col_near "$SUM" hits_vs_base_mean rate 500000 0.5 0.0005
check baseline/own-baseline-is-zero [ "$(csv_col "$SUM" hits_over_base_ns_mean rate 1000000 | \
	tr '\n' ' ')" = "0.000 0.000 " ]
check baseline/own-baseline-ratio-1 [ "$(csv_col "$SUM" hits_vs_base_mean rate 1000000 | \
	tr '\n' ' ')" = "1.000000 1.000000 " ]
check baseline/sd-present [ -n "$(csv_col "$SUM" hits_over_base_ns_sd point 0)" ]
# a failed baseline leaves the cells of its ok point empty
check baseline/missing-baseline-empty [ "$(csv_col "$SUM" hits_over_base_ns_mean point 4)" = "" ]
check baseline/missing-baseline-is-ok [ "$(csv_col "$SUM" status point 4)" = ok ]
# drops stay at 0 (drop_pct 0): no time per event of a zero rate
check baseline/zero-rate-empty [ "$(csv_col "$SUM" drops_over_base_ns_mean point 0)" = "" ]

# the table's derived fields, on stdout and in table.txt
row_ok() { grep -Eq "^rate 500000 prod $2 +0\.500 ± 0\.[0-9]{3}M/s over base \+(999\.[0-9]|1000\.[0-9]) ± [0-9.]+ns, 0\.500 ± 0\.[0-9]{3}x" "$1"; }
check baseline/table-row-1 row_ok "$D/table.txt" 1
check baseline/table-row-2 row_ok "$D/table.txt" 2
check baseline/table-baseline-row grep -Eq "^rate 1000000 prod 1 +1\.000 ± 0\.[0-9]{3}M/s over base \+0\.0 ± 0\.0ns, 1\.000 ± 0\.000x" "$D/table.txt"
check baseline/table-na grep -Eq "^fail none +0\.500 ± 0\.[0-9]{3}M/s over base n/a, n/a" "$D/table.txt"
check baseline/stdout-table row_ok "$TMP/out" 1

# report recomputes the figures from the result directory's rows
rm "$D/table.txt"
$BPFSWEEP report "$D" --no-plots >"$TMP/rep" 2>&1 </dev/null
check baseline/report-row row_ok "$D/table.txt" 2

# without a baseline, summary.csv has none of these columns, and the others are the same
grep -v -e '^baseline' -e '^values' -e 'hits.over_base_ns' tests/e2e/baseline.spec | \
	sed '/^\[params "no baseline"\]/,$d' >"$TMP/plain.spec"
$BPFSWEEP "$TMP/plain.spec" -o "$TMP/plain" --no-plots >/dev/null 2>&1 </dev/null
PH=$(head -1 "$TMP/plain/summary.csv")
BH=$(head -1 "$SUM")
check baseline/no-columns-without-baseline not grep -q _base_ "$TMP/plain/summary.csv"
check baseline/columns-appended [ "${BH#"$PH",}" != "$BH" ]
