#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Text from files reaches the terminal and table.txt only through the one
# sanitiser (termsafe.h): an escape sequence in a spec's file name, in a
# summary cell or in a meta value is shown as \e, never sent as ESC.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ESC=$(printf '\033')
no_esc() { ! grep -q "$ESC" "$@"; }

# a spec whose file name clears the screen: its default title and directory
S="$TMP/e${ESC}[2Jx.spec"
printf '%s\n' '[sweep]' 'workload = null' 'warmup = 0s' 'duration = 200ms' \
	'interval = 100ms' '[params]' 'rate = 1000' 'fail = none setup' >"$S"
$BPFSWEEP check "$S" >"$TMP/check" 2>&1 </dev/null
check termsafe/check-exit-0 [ $? = 0 ]
check termsafe/check-name-escaped grep -q 'e\\e\[2Jx.spec: ok' "$TMP/check"
D=$TMP/run
$BPFSWEEP run "$S" --no-plots -o "$D" >"$TMP/run.out" 2>&1 </dev/null
check termsafe/run-exit-1-a-point-failed [ $? = 1 ]
check termsafe/run-output-safe no_esc "$TMP/run.out"
check termsafe/table-safe no_esc "$D/table.txt"
check termsafe/summary-safe no_esc "$D/summary.csv"

# a window title (OSC 0) in a failed row's reason, the clipboard (OSC 52) in meta
sed -i "s/,failed,null: /,failed,${ESC}]0;pwn\\a/" "$D/summary.csv"
sed -i "s/^host: /host: ${ESC}]52;c;Zm9v\\a/" "$D/meta"
$BPFSWEEP report "$D" --no-plots >"$TMP/report.out" 2>&1 </dev/null
check termsafe/report-output-safe no_esc "$TMP/report.out"
check termsafe/report-shows-escapes grep -q '\\e\]0;pwn' "$TMP/report.out"
check termsafe/report-table-safe no_esc "$D/table.txt"
$BPFSWEEP compare "$D" "$D" >"$TMP/compare.out" 2>&1 </dev/null
check termsafe/compare-output-safe no_esc "$TMP/compare.out"
