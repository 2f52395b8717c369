#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# specs/attach_overhead.spec through the whole tool, as root, quick: every
# bench of either trigger (user, kernel) is measured with events, as many
# as the triggers, or is unsupported with the kernel's reason; user base
# is always measured; the table has the seed's shape, one "<bench> :
# <rate>" row per bench and trigger.
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

# one line per point: trigger, bench, status, events/s, missed/s,
# triggers/s, reason; '|' apart, since read would take consecutive tabs
# (empty rates) for one
paste -d'|' <(csv_col "$SUM" trigger) <(csv_col "$SUM" bench) <(csv_col "$SUM" status) \
	<(csv_col "$SUM" events_per_s_mean) <(csv_col "$SUM" missed_per_s_mean) \
	<(csv_col "$SUM" triggers_per_s_mean) <(csv_col "$SUM" reason) >"$TMP/rows"
bad=0
while IFS='|' read -r trig bench st ev mi wr why; do
	case "$st" in
	ok)
		# each trigger is one event or one run the kernel missed: the means
		# agree to 1% (an interval's edges cut a trigger or a batch)
		awk -v e="$ev" -v m="$mi" -v w="$wr" 'BEGIN { d = e + m - w; if (d < 0) d = -d
			exit !(e > 0 && d <= w / 100) }' && continue
		fail "trigger/$trig-$bench" "events/s $ev, missed/s $mi, triggers/s $wr" ;;
	unsupported)
		[ -n "$why" ] && { echo "# $trig $bench: unsupported: $why"; continue; }
		fail "trigger/$trig-$bench" "unsupported without a reason" ;;
	*)
		fail "trigger/$trig-$bench" "status $st: $why" ;;
	esac
	bad=1
done <"$TMP/rows"
check trigger/every-point-measured-or-unsupported [ "$bad" = 0 ]
check trigger/base-measured grep -q '^user|base|ok|' "$TMP/rows"
check trigger/both-triggers [ "$(cut -d'|' -f1 "$TMP/rows" | sort -u | tr '\n' ' ')" = "kernel user " ]
# a row per bench in each trigger's table
for b in base kprobe kretprobe rawtp fentry fexit fmodret tp; do
	check "trigger/$b-rows" [ "$(grep -cE "^$b +(: [0-9]+\.[0-9]{3} ± [0-9.]+M/s|unsupported: .)" \
		"$D/table.txt")" = 2 ]
done
# where the kernel runs the driver, batching makes events cheaper than a rename
if grep -q '^kernel|base|ok|' "$TMP/rows"; then
	ub=$(awk -F'|' '$1 == "user" && $2 == "base" { print $4 }' "$TMP/rows")
	kb=$(awk -F'|' '$1 == "kernel" && $2 == "base" { print $4 }' "$TMP/rows")
	check trigger/kernel-base-faster awk -v u="$ub" -v k="$kb" 'BEGIN { exit !(k > u) }'
fi
