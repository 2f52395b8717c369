#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A run in a VM under TCG icount, without root or a VM: a null-workload run
# whose meta says vm_accel: tcg-icount, as bpfsweep in such a guest writes
# it (tests/e2e/icount_vm.sh boots one).  Its table, chart, JSON and HTML
# say its rates are instruction path length; a point of more threads than
# the guest's one vCPU is said to be time-sliced; merged with a host run
# only its heading is marked; compare refuses it beside a timed run (the
# host's, or plain TCG's) unless --allow-tcg, and two icount runs compare
# as any two.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SPEC=tests/e2e/report.spec
NOTE='(TCG icount: instruction path length, not hardware time)'
H=$TMP/host
I=$TMP/icount
T=$TMP/tcg

$BPFSWEEP $SPEC -o "$H" --no-plots </dev/null >/dev/null 2>&1
check icount/host-run [ $? = 0 ]
# as_guest DIR ACCEL: DIR's meta as a guest under ACCEL writes it, one CPU
as_guest() {
	cp -r "$H" "$1"
	sed -i -e 's|^kernel: host$|kernel: vmlinuz-7.3.4|' \
		-e "s|^executor: host\$|executor: vm\nvm_accel: $2|" "$1/meta"
	# the guest's one vCPU: the runner saw 1 CPU (producers 2 and 4 time-slice)
	python3 - "$1/summary.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
col = rows[0].index("nr_cpus")
for r in rows[1:]:
    r[col] = "1"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
EOF
}
as_guest "$I" tcg-icount
as_guest "$T" tcg
check icount/meta-made grep -qx 'vm_accel: tcg-icount' "$I/meta"

# --- the run's own table, chart, JSON and page --------------------------------------
$BPFSWEEP report "$I" >"$TMP/out" 2>"$TMP/err"
check icount/report-exit-0 [ $? = 0 ]
check icount/table-title grep -qxF "report $NOTE" "$I/table.txt"
check icount/table-not-tcg not grep -qF 'for function' "$I/table.txt"
check icount/table-timesliced grep -qxF "note: 2 points ran more threads than the guest's \
one vCPU (TCG icount): time-sliced on it" "$I/table.txt"
check icount/chart-title grep -qF "set title 'report $NOTE'" "$I/plots/1-hits-vs-producers.gp"
$BPFSWEEP report "$I" -f json >"$TMP/json" 2>/dev/null
check icount/json-flag python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert runs[0]["icount"] is True and runs[0]["tcg"] is False, runs[0]' "$TMP/json"
$BPFSWEEP report "$I" --html >/dev/null 2>&1
check icount/html-notes grep -qF "${NOTE:1:-1}" "$I/report.html"
$BPFSWEEP report "$H" >/dev/null 2>&1
check icount/host-table-unmarked not grep -qF 'icount' "$H/table.txt"

# --- merged with the host run ---------------------------------------------------
M=$TMP/m
$BPFSWEEP merge "$H" "$I" -o "$M" >/dev/null 2>&1
check icount/merge-exit-0 [ $? = 0 ]
check icount/merge-accel [ "$(csv_col "$M/summary.csv" accel run 2 | sort -u)" = tcg-icount ]
check icount/merge-heading grep -qE "^run 2: .* \(TCG icount: instruction path length, not \
hardware time\)\$" "$M/table.txt"
check icount/merge-heading-host-unmarked not grep -qE '^run 1: .*icount' "$M/table.txt"

# --- compare ----------------------------------------------------------------------
# cmp NAME ARGS...: run compare, keep stdout, stderr and the exit status in $TMP/NAME.*
cmp() {
	local name=$1
	shift
	$BPFSWEEP compare "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	echo $? >"$TMP/$name.status"
}
cmp refused "$H" "$I"
check icount/compare-refused-exit-2 [ "$(cat "$TMP/refused.status")" = 2 ]
check icount/compare-refused-says-why grep -qF "NEW ran in a VM under TCG icount and BASE did \
not: its rates are instruction path length, not hardware time (--allow-tcg compares them \
anyway)" "$TMP/refused.err"
check icount/compare-refused-no-output [ ! -s "$TMP/refused.out" ]
cmp tcg "$I" "$T"
check icount/compare-plain-tcg-exit-2 [ "$(cat "$TMP/tcg.status")" = 2 ]
check icount/compare-plain-tcg-names-base grep -qF "BASE ran in a VM under TCG icount" \
	"$TMP/tcg.err"
cmp allowed --allow-tcg "$H" "$I"
check icount/compare-allowed-exit-0 [ "$(cat "$TMP/allowed.status")" = 0 ]
check icount/compare-allowed-marked grep -qE "^new: .*\(TCG icount: instruction path length, \
not hardware time\)\$" "$TMP/allowed.out"
cmp both "$I" "$I"
check icount/compare-two-icount-exit-0 [ "$(cat "$TMP/both.status")" = 0 ]
check icount/compare-two-icount-not-refused not grep -q 'TCG' "$TMP/both.err"
