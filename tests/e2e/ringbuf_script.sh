#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/ringbuf.spec prints run_bench_ringbufs.sh's table: its section
# headers and row labels, in its order, line by line as
# tests/e2e/run_bench_ringbufs.rows lists them.  Every section's title and
# number of rows from `expand` (all 94 points, no run); the rows' labels
# from `--quick` runs of the sections whose labels are more than
# {bench}/{producers} (the -sampled suffix, reserve/output) and of the
# one that pins producer and consumer to one CPU (as root), ~25 s.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

SPEC=specs/ringbuf.spec
ROWS=tests/e2e/run_bench_ringbufs.rows
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# "TITLE<TAB>rows" per section of the script's list, in its order
script_sections() {
	awk '/^#/ { next }
	     /^$/ { if (t != "") print t "\t" n; t = ""; n = 0; next }
	     /^=+$/ { next }
	     t == "" { t = $0; next }
	     { n++ }
	     END { if (t != "") print t "\t" n }' "$ROWS"
}

# the same from bpfsweep expand: a title, then one indented line per point
# (and after them lines that start with a count: what it would take)
spec_sections() {
	awk '/^$/ || /^[0-9]/ { next }
	     /^ / { n++; next }
	     /^[^ ]/ { if (t != "") print t "\t" n; t = $0; n = 0 }
	     END { if (t != "") print t "\t" n }' "$1"
}

$BPFSWEEP expand "$SPEC" >"$TMP/expand" 2>"$TMP/expand.err" </dev/null
check ringbuf_script/expand-exit-0 [ $? = 0 ]
script_sections >"$TMP/want"
spec_sections "$TMP/expand" >"$TMP/got"
check ringbuf_script/sections-as-the-script diff -u "$TMP/want" "$TMP/got"

# one section's lines of the script's list: header, underline, rows
script_block() {
	awk -v t="$1" '$0 == t { on = 1 } on && /^$/ { exit } on' "$ROWS"
}

# one table's lines: the header without the smoke-run note, its underline
# as the script draws it, and each row's label (what precedes its number)
table_block() {
	sed -E -n -e '/^- /d' -e '/^\[[a-z]+[]=]/d' -e '/^note:/d' -e '/^$/d' \
		-e 's/ \(smoke run: --quick\)$//' \
		-e '/^=+$/d' \
		-e 's/ +[0-9]+\.[0-9]+ ± .*//' -e p "$1" |
		awk 'NR == 1 { print; u = $0; gsub(/./, "=", u); print u; next } { print }'
}

if [ "$(id -u)" -ne 0 ]; then
	skip ringbuf_script/labels "needs root to load BPF programs"
	exit 0
fi
FAST=(--quick --no-plots --set warmup=0s --set duration=100ms --set interval=50ms
      --set bpf_stats=off)
i=0
for title in "Single-producer, back-to-back mode" \
	     "Ringbuf back-to-back, reserve+commit vs output" \
	     "Ringbuf sampled, reserve+commit vs output" \
	     "Single-producer, consumer/producer competing on the same CPU, low batch count"; do
	i=$((i + 1))
	$BPFSWEEP run "$SPEC" "${FAST[@]}" --only "$title" -o "$TMP/r$i" >"$TMP/out$i" 2>&1 \
		</dev/null
	check "ringbuf_script/run-$i-exit-0" [ $? = 0 ]
	script_block "$title" >"$TMP/want$i"
	table_block "$TMP/r$i/table.txt" >"$TMP/got$i"
	check "ringbuf_script/labels-$i-as-the-script" diff -u "$TMP/want$i" "$TMP/got$i"
done
# --prod-affinity 0 --cons-affinity 0: both threads on the first allowed CPU
first=$(taskset -pc $$ | sed -E 's/.*: *([0-9]+).*/\1/')
check ringbuf_script/same-cpu [ "$(csv_col "$TMP/r4/summary.csv" cpus | sort -u)" = \
	"cons $first prod $first" ]
