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

# A file in a CSV's place that is not one, or no CSV at all: refused at once
# by every reader, saying what it is.  A FIFO blocked report, compare, merge
# and --resume for ever; an empty summary.csv was "no summary.csv" to compare
# and "0 parameters" to report; a symlink out was "Invalid cross-device link".
# refused_by_all WHAT NAME: each reader of the set $S, within 10 s, exits 2 saying WHAT
refused_by_all() {
	local what=$1 name=$2 cmd
	for cmd in "report $S --no-plots" "compare $D $S" "merge $D $S -o $TMP/m-$name --no-plots" \
		"run tests/e2e/count.spec --quick --no-plots --resume $S"; do
		# shellcheck disable=SC2086
		timeout 10 $BPFSWEEP $cmd >/dev/null 2>"$TMP/err" </dev/null
		check "bigcsv/$name-${cmd%% *}-exit-2" [ $? = 2 ]
		check "bigcsv/$name-${cmd%% *}-says-so" grep -q "^$S/$what" "$TMP/err"
	done
}
S=$TMP/fifo
cp -r "$D" "$S"
rm "$S/samples.csv"
mkfifo "$S/samples.csv"
refused_by_all "samples.csv:1:1: error: a FIFO, not a regular file: refused" fifo
rm -rf "$S"
cp -r "$D" "$S"
: >"$S/summary.csv"
refused_by_all "summary.csv:1:1: error: summary.csv is empty: not even its header line" empty
rm -rf "$S"
cp -r "$D" "$S"
mv "$S/summary.csv" "$TMP/outside.csv"
ln -s "$TMP/outside.csv" "$S/summary.csv"
refused_by_all "summary.csv:1:1: error: a symlink out of $S: refused" symlink-out

# a torn last line (a kill in the middle of an append) is left out, and said
T=$TMP/torn
cp -r "$D" "$T"
printf '0,count,0,9' >>"$T/samples.csv"
$BPFSWEEP report "$T" --no-plots >/dev/null 2>"$TMP/err"
check bigcsv/torn-exit-0 [ $? = 0 ]
lines=$(($(wc -l <"$T/samples.csv") + 1))
check bigcsv/torn-said grep -q "warning: $T/samples.csv:$lines: an unfinished last line" \
	"$TMP/err"

# A chart of 12,000 points: its SVG (1.4 MB) is past the text files' 1 MiB,
# and is still titled and kept; the run's report does not fail on it (N4)
python3 -c "
print('Ringbuf, multi-producer contention')
print('==================================')
for i in range(1, 12001): print('rb-libbpf nr_prod %d   %.3f ± 0.100M/s' % (i, 10 + i % 7))
" >"$TMP/many.txt"
$BPFSWEEP import "$TMP/many.txt" --label 'rb-libbpf nr_prod {producers}' -o "$TMP/many" \
	>/dev/null 2>&1 </dev/null
$BPFSWEEP report "$TMP/many" >/dev/null 2>"$TMP/many.err" </dev/null
check bigcsv/big-chart-exit-0 [ $? = 0 ]
check bigcsv/big-chart-over-1mib [ "$(stat -c %s "$TMP/many/plots/1-hits-vs-producers.svg")" -gt 1048576 ]
check bigcsv/big-chart-titled grep -q '<title>Ringbuf, multi-producer contention' \
	"$TMP/many/plots/1-hits-vs-producers.svg"
