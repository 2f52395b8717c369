#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# summary.csv's column table round trip (null workload, tests/e2e/baseline.spec):
# the run writes columns.csv beside summary.csv naming every column with its
# metric, statistic, kind, unit and direction; report reads the directory
# back and prints the table byte for byte as the run printed it; a set
# without its spec draws the same table from columns.csv as from the
# column names alone (a set from before columns.csv).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP tests/e2e/baseline.spec --quick --no-plots -o "$D" >"$TMP/run.out" 2>/dev/null </dev/null
# exit 1: the "no baseline" block fails a point on purpose
check columns/run [ $? = 1 ]
check columns/written [ -s "$D/columns.csv" ]
# columns.csv's rows name summary.csv's columns, in order
check columns/names-the-header [ "$(csv_col "$D/columns.csv" column | paste -sd,)" = \
	"$(head -1 "$D/summary.csv")" ]
check columns/counter grep -qx 'hits_per_s_mean,hits,mean,counter,1/s,higher' "$D/columns.csv"
check columns/spread-no-direction grep -qx 'drops_per_s_stddev,drops,stddev,counter,1/s,' \
	"$D/columns.csv"
check columns/baseline grep -qx 'hits_over_base_ns_mean,hits,over_base_ns_mean,counter,ns,lower' \
	"$D/columns.csv"
check columns/param grep -qx 'producers,,,param,,' "$D/columns.csv"

# --- read back: the run's table, byte for byte ------------------------------
$BPFSWEEP report "$D" --no-plots >"$TMP/report.out" 2>/dev/null </dev/null
check columns/report-exit-0 [ $? = 0 ]
check columns/report-is-run-table cmp "$TMP/run.out" "$TMP/report.out"
check columns/table-txt-is-run-table cmp "$TMP/run.out" "$D/table.txt"

# --- without the spec: columns.csv and the names alone draw the same table --
cp -r "$D" "$TMP/nospec" && rm "$TMP/nospec/spec"
cp -r "$TMP/nospec" "$TMP/old" && rm "$TMP/old/columns.csv"
$BPFSWEEP report "$TMP/nospec" --no-plots >"$TMP/nospec.out" 2>/dev/null </dev/null
check columns/nospec-exit-0 [ $? = 0 ]
$BPFSWEEP report "$TMP/old" --no-plots >"$TMP/old.out" 2>/dev/null </dev/null
check columns/old-exit-0 [ $? = 0 ]
check columns/nospec-has-rows grep -q 'M/s' "$TMP/nospec.out"
check columns/old-same-table cmp "$TMP/nospec.out" "$TMP/old.out"
$BPFSWEEP compare "$D" "$TMP/old" >"$TMP/cmp.out" 2>/dev/null </dev/null
check columns/compare-old-exit [ $? = 0 ]
check columns/compare-old-rows [ "$(grep -cE '^[^ ].*  drops +0\.000 → 0\.000M/s +n/a +no test' \
	"$TMP/cmp.out")" = 5 ]
