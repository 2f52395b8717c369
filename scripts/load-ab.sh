#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# load_time of one point with two bpfsweep binaries, interleaved: A, B,
# A, B, ... N times each (one repetition a run, no statistics pass, no
# charts), so that the host's drift falls on both alike.  Prints each
# run's load_time and verify_time (the point's summed, docs/results.md)
# and each binary's median:
#
#   scripts/load-ab.sh OLD/bpfsweep ./bpfsweep 6 trigger --set bench=rawtp
#
# Run as root.  What it measured for trigger is in docs/results.md.
set -u
[ $# -ge 4 ] || { echo "usage: $0 BIN_A BIN_B N WORKLOAD [OPTION...]" >&2; exit 2; }
A=$1 B=$2 N=$3
shift 3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# column NAME of summary.csv $1's first row
column() {
	awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i; next }
		NR == 2 { print $c }' "$1"
}

for i in $(seq "$N"); do
	for which in A B; do
		bin=$A
		[ "$which" = B ] && bin=$B
		out=$TMP/$which-$i
		"$bin" "$@" -w 0 -d 0.2 --set repeat=1 --set bpf_stats=off --no-plots -o "$out" \
			</dev/null >/dev/null 2>"$out.err" ||
			{ echo "$which run $i failed: $(tail -n1 "$out.err")" >&2; exit 1; }
		load=$(column "$out/summary.csv" load_time_mean)
		verify=$(column "$out/summary.csv" verify_time_mean)
		printf '%s %2d load_time %10.0f us  verify_time %8.0f us\n' "$which" "$i" "$load" "$verify"
	done
done | tee "$TMP/all"
for which in A B; do
	awk -v w="$which" '$1 == w { print $4 }' "$TMP/all" | sort -n |
		awk -v w="$which" '{ v[NR] = $1 } END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%s median load_time %.1f ms (%d runs, %.1f to %.1f)\n", w, m / 1000, NR,
			       v[1] / 1000, v[NR] / 1000 }'
done
