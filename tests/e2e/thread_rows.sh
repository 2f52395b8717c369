# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests of workloads with a per-producer metric, after
# tests/lib.sh.

# thread_rows DIR METRIC: "ok" if in DIR/samples.csv every interval's
# whole-point row (empty thread cell) is followed by one row per producer,
# thread 0..N-1 with N the point's nr_producers in DIR/summary.csv, whose
# METRIC cells add up to the whole-point row's; else "bad:" and what is wrong
thread_rows() {
	local d=$1 m=$2

	paste <(csv_col "$d/samples.csv" point) <(csv_col "$d/samples.csv" rep) \
		<(csv_col "$d/samples.csv" interval) <(csv_col "$d/samples.csv" "$m") \
		<(csv_col "$d/samples.csv" thread) |
	awk -F'\t' '
		function done() {
			if (key != "" && (next_t != np[pt] || sum != total))
				bad = bad " " key ": " next_t " threads, " sum " of " total
		}
		NR == FNR { np[$1] = $2; next }
		$5 == "" {
			done()
			key = $1 "/" $2 "/" $3; pt = $1; total = $4; sum = 0; next_t = 0; rows++
			next
		}
		{
			if ($1 "/" $2 "/" $3 != key || $5 != next_t)
				bad = bad " stray thread row " $0
			sum += $4
			next_t++
		}
		END { done(); print bad == "" && rows ? "ok" : "bad:" substr(bad, 1, 300) }' \
		<(paste <(csv_col "$d/summary.csv" point) <(csv_col "$d/summary.csv" nr_producers)) -
}
