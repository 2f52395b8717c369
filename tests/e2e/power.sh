#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/power.sh, the benchmark of decide's power, end to end as root,
# tiny: one pair of each kind on short csum_diff points with a budget of 5
# rounds, every pair's line, the effect of extra_work pooled over the A/B
# rounds, and the table.  The shares and times are the benchmark's numbers
# (docs/statistics.md), not asserted here.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	skip power/e2e "needs root to load BPF programs"
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

BPFSWEEP=$BPFSWEEP scripts/power.sh --pairs 1 --reps 3 --set max_repeat=5 --set warmup=20ms \
	--set duration=60ms --set interval=20ms --out "$TMP/p" >"$TMP/out" 2>"$TMP/err"
check power/exit-0 [ $? = 0 ]
word='(same|different|undecided|inconclusive|faster|slower|no)'
for kind in aa-rounds ab-rounds aa-separate ab-separate; do
	check "power/$kind-line" grep -Eq "^$kind 1 $word [0-9]+ [0-9.]+$" "$TMP/out"
done
check power/rounds-within-budget grep -Eq '^aa-rounds 1 [a-z]+ [3-5] ' "$TMP/out"
check power/effect-pooled grep -Eq '^extra_work=2: [-+][0-9]+\.[0-9] % over [0-9]+ rounds' \
	"$TMP/out"
check power/table-head grep -q '^| kind | pairs | different | same |' "$TMP/out"
check power/table-rows [ "$(grep -c '^| [a-b][a-b]-' "$TMP/out")" = 4 ]

scripts/power.sh --pairs x >/dev/null 2>"$TMP/bad.err"
check power/bad-pairs-exit-2 [ $? = 2 ]
