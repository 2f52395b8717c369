#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/map_perf.spec through the whole tool, as root, quick: every point
# is measured with events and no errors, or is unsupported with the
# kernel's reason; a worker per allowed CPU by default, with the CPU
# count on the row; the seed's cases are table rows.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip map_perf/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP specs/map_perf.spec --quick -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check map_perf/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/map_perf.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check map_perf/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: map, max_entries, workers, status, events/s, errors/s, reason
paste <(csv_col "$SUM" map) <(csv_col "$SUM" max_entries) <(csv_col "$SUM" workers) \
	<(csv_col "$SUM" status) <(csv_col "$SUM" events_per_s_mean) \
	<(csv_col "$SUM" errors_per_s_mean) <(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS=$'\t' read -r map n p st ev er why; do
	case "$st" in
	ok)
		awk -v e="$ev" -v r="$er" 'BEGIN { exit !(e > 0 && r == 0) }' && continue
		fail "map_perf/$map-$n-$p" "events/s $ev, errors/s $er" ;;
	unsupported)
		[ -n "$why" ] && { echo "# $map $n $p: unsupported: $why"; continue; }
		fail "map_perf/$map-$n-$p" "unsupported without a reason" ;;
	*)
		fail "map_perf/$map-$n-$p" "status $st: $why" ;;
	esac
	bad=1
done <"$TMP/rows"
check map_perf/every-point-measured-or-unsupported [ "$bad" = 0 ]
# every map kind appears in the rows
for m in hash hash_kmalloc percpu_hash percpu_hash_kmalloc lru_hash array; do
	check "map_perf/$m-rows" grep -q "^$m	" "$TMP/rows"
done
# workers = all: as many workers as the run had CPUs, on every row
check map_perf/workers-all [ "$(csv_col "$SUM" workers | sort -u)" = all ]
nr_cpus=$(csv_col "$SUM" nr_cpus | sort -u)
check map_perf/nr-cpus [ "$nr_cpus" = "$(nproc)" ]
check map_perf/a-worker-per-cpu [ "$(csv_col "$SUM" nr_producers | sort -u)" = "$nr_cpus" ]
# the seed's cases, map_perf_test 4 N and 4 N 16384, as rows of their tables
check map_perf/seed-rows [ "$(grep -Ec \
	'^hash_map_perf kmalloc +[0-9]+\.[0-9]{3} ± ' "$D/table.txt")" = 2 ]
