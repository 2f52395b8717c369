# SPDX-License-Identifier: GPL-2.0
# Checks of a result directory shared by persist.sh and kill.sh (after lib.sh).

# has_header FILE: FILE parses as CSV and its first line names the point column
has_header() { csv_col "$1" point >/dev/null 2>&1; }

# consistent DIR PER_POINT: both CSVs parse with their headers; every summary
# row's n is the number of measured sample rows of its point, and an ok point
# has all PER_POINT rows (warmup and measured intervals of every repetition)
consistent() {
	has_header "$1/summary.csv" && has_header "$1/samples.csv" || return 1
	awk -v per="$2" '
		FNR == NR { all[$1]++; if ($2 == 0) measured[$1]++; next }
		{ if (measured[$1] + 0 != $3 || ($2 == "ok" && all[$1] != per)) bad = 1 }
		END { exit bad }' \
		<(paste -d' ' <(csv_col "$1/samples.csv" point) \
			<(csv_col "$1/samples.csv" warmup)) \
		<(paste -d' ' <(csv_col "$1/summary.csv" point) <(csv_col "$1/summary.csv" status) \
			<(csv_col "$1/summary.csv" n))
}

# rows DIR: "point status" of every summary row, sorted by point
rows() {
	paste -d' ' <(csv_col "$1/summary.csv" point) <(csv_col "$1/summary.csv" status) |
		sort -n
}

# one_header FILE: the header line appears once
one_header() { [ "$(grep -cxF "$(head -1 "$1")" "$1")" = 1 ]; }

# no_tmp DIR: no temporary file left behind
no_tmp() { [ -z "$(find "$1" -name '*.tmp')" ]; }
