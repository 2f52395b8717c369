#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/htab_mem.spec through the whole tool, as root, quick: every point
# is measured with ops, or is unsupported with the kernel's reason; every
# use case with and without preallocation is a row of the seed's table.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip htab_mem/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP specs/htab_mem.spec --quick -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check htab_mem/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/htab_mem.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check htab_mem/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: use_case, prealloc, value_size, status, ops/s, reason
paste <(csv_col "$SUM" use_case) <(csv_col "$SUM" prealloc) <(csv_col "$SUM" value_size) \
	<(csv_col "$SUM" status) <(csv_col "$SUM" ops_per_s_mean) \
	<(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS=$'\t' read -r uc pre vs st ops why; do
	case "$st" in
	ok)
		awk -v o="$ops" 'BEGIN { exit !(o > 0) }' && continue
		fail "htab_mem/$uc-$pre-$vs" "ops/s $ops" ;;
	unsupported)
		[ -n "$why" ] && { echo "# $uc $pre $vs: unsupported: $why"; continue; }
		fail "htab_mem/$uc-$pre-$vs" "unsupported without a reason" ;;
	*)
		fail "htab_mem/$uc-$pre-$vs" "status $st: $why" ;;
	esac
	bad=1
done <"$TMP/rows"
[ -s "$TMP/rows" ] || bad=1
check htab_mem/every-point-measured-or-unsupported [ "$bad" = 0 ]
# the seed's table: every use case, with and without preallocation, at 8-byte values
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for pre in on off; do
		check "htab_mem/$uc-prealloc-$pre-row" grep -q "^$uc	$pre	8	" "$TMP/rows"
	done
	check "htab_mem/$uc-table-row" grep -Eq "^$uc +[^ ]" "$D/table.txt"
done
# and the value size sweep reaches the bench's largest value
check htab_mem/value-size-4096 grep -q "	4096	" "$TMP/rows"
