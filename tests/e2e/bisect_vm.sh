#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The functional bisect of issue 37, by hand (not in make check: it reads
# Debian's suites twice, fetches kernels on a cold cache and boots seven;
# 131 s on an idle machine with three images to fetch): when did ring
# buffer overwrite mode appear between Debian's 6.12 and 7.3?  The ends run
# first (unsupported on 6.12, ok on 7.3: a bisect by status), then about
# log2(n) steps find the last old kernel and the first new one: 6.18.15
# and 6.19.6 on 2026-12-05, 6.19.x fetched image-only (docs/kernel.md).
# Then --resume of the finished OUT reuses every step.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/bisect
ONLY="Ringbuf, multi-producer contention, overwrite mode, producer only"
args=(specs/ringbuf_overwrite.spec --only "$ONLY" --set producers=1 --quick)

$BPFSWEEP bisect "${args[@]}" --old 6.12 --new 7.3 -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
grep '^bisect:' "$TMP/err"
check bisect_vm/by_status grep -q "by status, 1 point: .*unsupported on the old end, ok on the new end" "$TMP/out"
check bisect_vm/ends_ran [ -d "$OUT/steps/000-6.12.118/1/runs/1" ]
# a step old, a later one new; every kernel between them named, none decided
check bisect_vm/last_old grep -q '^last old: 6\.1[2-9]' "$TMP/out"
check bisect_vm/first_new grep -Eq '^first new( that ran)?: (6\.19|7\.)' "$TMP/out"
# 6.19.x boots image-only: every kernel is served, so the bisect decides
check bisect_vm/decided not grep -q '^undecided' "$TMP/out"
# about log2(30) steps: no more than 6
check bisect_vm/log2_steps [ "$(grep -cE '^[0-9]+  ' "$TMP/out")" -le 6 ]
check bisect_vm/steps_table [ "$(grep -cE '^[0-9]+  ' "$TMP/out")" -ge 1 ]
if grep -q '^undecided' "$TMP/out"; then
	check bisect_vm/undecided_exits_1 [ "$rc" = 1 ]
else
	check bisect_vm/found_exits_0 [ "$rc" = 0 ]
fi
check bisect_vm/steps_csv [ "$(($(wc -l <"$OUT/steps.csv") - 1))" = "$(grep -cE '^[0-9]+  ' "$TMP/out")" ]
check bisect_vm/page_of_every_step [ "$(grep -c '<tr id="step-' "$OUT/bisect.html")" = \
	"$(($(wc -l <"$OUT/steps.csv") - 1))" ]
# --resume: every step reused (no run appends to a step's log), the same table
cat "$OUT"/steps/*/log >"$TMP/logs"
$BPFSWEEP bisect "${args[@]}" --resume "$OUT" >"$TMP/out2" 2>"$TMP/err2"
check bisect_vm/resume_same_table cmp -s "$TMP/out" "$TMP/out2"
check bisect_vm/resume_ran_nothing cmp -s "$TMP/logs" <(cat "$OUT"/steps/*/log)
