#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Result files are read into one block of text plus a pointer a cell
# (csvfile.h), not an allocation a cell: a 64 MiB summary.csv is read
# within five times its size of address space.  A
# NUL byte in a result file is refused with its line, not read as its end.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP run tests/e2e/count.spec --quick --no-plots -o "$D" >/dev/null 2>&1 </dev/null
check bigcsv/run-exit-0 [ $? = 0 ]

# 64 MiB of summary rows: the first point's row again under every point id
B=$TMP/big
cp -r "$D" "$B"
awk -F, -v OFS=, 'NR == 1 { print; next } NR == 2 {
	row = $0
	for (i = 0; size < 64 * 1048576; i++) {
		$0 = row; $2 = i; print; size += length($0) + 1
	}
	exit }' "$D/summary.csv" >"$B/summary.csv"
size_kb=$(($(stat -c %s "$B/summary.csv") / 1024))
# the reader alone (csvget reads through csvfile.c as every reader does)
(ulimit -v $((5 * size_kb)); csv_col "$B/summary.csv" point) >"$TMP/points" 2>"$TMP/err"
check bigcsv/read-within-5x-its-size-exit-0 [ $? = 0 ]
check bigcsv/read-every-row [ "$(wc -l <"$TMP/points")" = $(($(wc -l <"$B/summary.csv") - 1)) ]
# report reads it to its first check of the rows
$BPFSWEEP report "$B" --no-plots -f csv >/dev/null 2>"$TMP/err"
check bigcsv/report-exit-2 [ $? = 2 ]
check bigcsv/report-reads-to-the-rows grep -q \
	'summary.csv:3:[0-9]*: error: point 1 is not the point of its spec' "$TMP/err"

# a NUL byte: refused with the line it is on
N=$TMP/nul
cp -r "$D" "$N"
printf 'x\0y\n' >>"$N/samples.csv"
$BPFSWEEP report "$N" --no-plots >/dev/null 2>"$TMP/err"
check bigcsv/nul-exit-2 [ $? = 2 ]
lines=$(wc -l <"$N/samples.csv")
check bigcsv/nul-refused-at-its-line grep -q "samples.csv:$lines:2: error: a NUL byte" "$TMP/err"
