#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/attach_overhead.spec through the whole tool, as root, quick: every
# bench is measured with events, as many as the writes, or is unsupported
# with the kernel's reason; base is always measured; the table has the
# seed's shape, one "<bench> : <rate>" row per bench.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip trigger/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

D=$TMP/run
$BPFSWEEP specs/attach_overhead.spec --quick -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
check trigger/spec-exit-0 [ $? = 0 ]
SUM=$D/summary.csv
expected=$($BPFSWEEP check specs/attach_overhead.spec | sed -n 's/.*, \([0-9]*\) points$/\1/p')
check trigger/all-points [ "$(csv_col "$SUM" status | grep -c .)" = "${expected:-x}" ]

# one line per point: bench, status, events/s, missed/s, writes/s, reason;
# '|' apart, since read would take consecutive tabs (empty rates) for one
paste -d'|' <(csv_col "$SUM" bench) <(csv_col "$SUM" status) <(csv_col "$SUM" events_per_s_mean) \
	<(csv_col "$SUM" missed_per_s_mean) <(csv_col "$SUM" writes_per_s_mean) \
	<(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS='|' read -r bench st ev mi wr why; do
	case "$st" in
	ok)
		# each write is one event or one run the kernel missed: the means
		# agree to 1% (an interval's edges cut a rename or two)
		awk -v e="$ev" -v m="$mi" -v w="$wr" 'BEGIN { d = e + m - w; if (d < 0) d = -d
			exit !(e > 0 && d <= w / 100) }' && continue
		fail "trigger/$bench" "events/s $ev, missed/s $mi, writes/s $wr" ;;
	unsupported)
		[ -n "$why" ] && { echo "# $bench: unsupported: $why"; continue; }
		fail "trigger/$bench" "unsupported without a reason" ;;
	*)
		fail "trigger/$bench" "status $st: $why" ;;
	esac
	bad=1
done <"$TMP/rows"
check trigger/every-point-measured-or-unsupported [ "$bad" = 0 ]
check trigger/base-measured grep -q '^base|ok|' "$TMP/rows"
for b in base kprobe kretprobe rawtp fentry fexit fmodret tp; do
	check "trigger/$b-row" grep -qE "^$b +(: [0-9]+\.[0-9]{3} ± [0-9.]+M/s|unsupported: .)" \
		"$D/table.txt"
done
