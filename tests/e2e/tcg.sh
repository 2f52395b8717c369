#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A run in a VM under TCG emulation, without root or a VM: a null-workload
# run whose meta says vm_accel: tcg, as bpfsweep in such a guest writes it.
# Its table and chart titles say its numbers are for function, report and
# merge of it with a host run name it so, merge writes its kernel and accel
# columns, and compare refuses it against the host run unless --allow-tcg.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPEC=tests/e2e/report.spec
NOTE='(VM under TCG emulation: for function, not performance)'
NOTE_RE='\(VM under TCG emulation: for function, not performance\)'
H=$TMP/host
T=$TMP/tcg

$BPFSWEEP $SPEC -o "$H" --no-plots </dev/null >/dev/null 2>&1
check tcg/host-run [ $? = 0 ]
cp -r "$H" "$T"
# what the guest's meta says besides the host's (the kernel path as the user gave it)
sed -i -e 's|^kernel: host$|kernel: vmlinuz-7.3.4|' \
	-e 's|^executor: host$|executor: vm\nvm_accel: tcg|' "$T/meta"
check tcg/meta-made grep -qx 'vm_accel: tcg' "$T/meta"

# --- the run's own table and charts -------------------------------------------
$BPFSWEEP report "$T" >"$TMP/out" 2>"$TMP/err"
check tcg/report-exit-0 [ $? = 0 ]
check tcg/table-title grep -qxF "report $NOTE" "$T/table.txt"
# the title, then the machine's line under it (\n) or the end of the string
check tcg/chart-title grep -qE "^set title 'report $NOTE_RE'" \
	"$T/plots/1-hits-vs-producers.gp"
$BPFSWEEP report "$H" >/dev/null 2>&1
check tcg/host-table-unmarked not grep -qF 'TCG' "$H/table.txt"

# --- merged with the host run ---------------------------------------------------
M=$TMP/m
$BPFSWEEP merge "$H" "$T" -o "$M" >/dev/null 2>&1
check tcg/merge-exit-0 [ $? = 0 ]
check tcg/merge-kernel [ "$(csv_col "$M/summary.csv" kernel run 2 | sort -u)" = vmlinuz-7.3.4 ]
check tcg/merge-kernel-host [ "$(csv_col "$M/summary.csv" kernel run 1 | sort -u)" = host ]
check tcg/merge-accel [ "$(csv_col "$M/summary.csv" accel run 2 | sort -u)" = tcg ]
check tcg/merge-accel-host [ -z "$(csv_col "$M/summary.csv" accel run 1 | sort -u)" ]
check tcg/merge-heading grep -qE "^run 2: .* $NOTE_RE\$" "$M/table.txt"
check tcg/merge-heading-host-unmarked not grep -qE '^run 1: .*TCG' "$M/table.txt"
check tcg/merge-chart-title grep -qF "set title 'report $NOTE'" \
	"$M/plots/1-hits-vs-producers.gp"

# --- compare ----------------------------------------------------------------------
# cmp NAME ARGS...: run compare, keep stdout, stderr and the exit status in $TMP/NAME.*
cmp() {
	local name=$1
	shift
	$BPFSWEEP compare "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	echo $? >"$TMP/$name.status"
}
cmp refused "$H" "$T"
check tcg/compare-refused-exit-2 [ "$(cat "$TMP/refused.status")" = 2 ]
check tcg/compare-refused-says-why grep -qF "NEW ran in a VM under TCG emulation and BASE did \
not: TCG numbers are for function, not performance (--allow-tcg compares them anyway)" \
	"$TMP/refused.err"
check tcg/compare-refused-no-output [ ! -s "$TMP/refused.out" ]
cmp reversed "$T" "$H"
check tcg/compare-reversed-exit-2 [ "$(cat "$TMP/reversed.status")" = 2 ]
check tcg/compare-reversed-names-base grep -qF "BASE ran in a VM under TCG" "$TMP/reversed.err"
cmp allowed --allow-tcg "$H" "$T"
check tcg/compare-allowed-exit-0 [ "$(cat "$TMP/allowed.status")" = 0 ]
check tcg/compare-allowed-marked grep -qE "^new: .*TCG emulation: for function, not \
performance\)\$" "$TMP/allowed.out"
check tcg/compare-allowed-base-unmarked not grep -q '^base: .*TCG' "$TMP/allowed.out"
cmp both "$T" "$T"
check tcg/compare-two-tcg-exit-0 [ "$(cat "$TMP/both.status")" = 0 ]
