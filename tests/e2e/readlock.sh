#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Readers and a running sweep: report, merge and compare of a directory a
# run is writing are refused ("a run is writing DIR", exit 2) and the run
# ends well with its whole table.txt; report -f json|csv|markdown only
# prints, writing nothing, on a read-only directory too; a sweep over kernels
# (a kernel that does not boot, and the host) holds its OUT the same way.
# About 9 s.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
RUN_PID=
trap '[ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
D=$TMP/run

# --- readers while a run writes ------------------------------------------------
$BPFSWEEP tests/e2e/twopoints.spec -o "$D" </dev/null >"$TMP/run.out" 2>"$TMP/run.err" &
RUN_PID=$!
# meta is written after the run has locked its directory
for _ in $(seq 100); do [ -s "$D/meta" ] && break; sleep 0.05; done
check lock/run-started [ -s "$D/meta" ]
$BPFSWEEP report "$D" --no-plots </dev/null >/dev/null 2>"$TMP/report.err"
check lock/report-exit-2 [ $? = 2 ]
check lock/report-says grep -q "a run is writing $D" "$TMP/report.err"
check lock/report-json-exit-2 quiet_status 2 $BPFSWEEP report "$D" -f json
check lock/compare-exit-2 quiet_status 2 $BPFSWEEP compare "$D" "$D"
check lock/merge-exit-2 quiet_status 2 $BPFSWEEP merge "$D" "$D" -o "$TMP/m" --no-plots
check lock/merge-nothing-made [ ! -e "$TMP/m" ]
check lock/no-table-yet [ ! -e "$D/table.txt" ]
wait "$RUN_PID"
check lock/run-exit-0 [ $? = 0 ]
RUN_PID=
check lock/run-no-error not grep -q 'cannot write' "$TMP/run.err"
# the table the run printed is the one it wrote, whole
check lock/table-whole cmp "$TMP/run.out" "$D/table.txt"
check lock/compare-after-run quiet_status 0 $BPFSWEEP compare "$D" "$D"

# --- report -f json|csv|markdown prints, and writes nothing ---------------------
check lock/charts-drawn [ -n "$(ls "$D/plots")" ]
before=$(stat -c '%i %Y' "$D/table.txt" "$D/plots" "$D/plots"/*)
touch "$TMP/mark"
sleep 0.01
for fmt in json csv markdown; do
	$BPFSWEEP report "$D" -f $fmt </dev/null >"$TMP/out.$fmt" 2>/dev/null
	check lock/print-$fmt-exit-0 [ $? = 0 ]
	check lock/print-$fmt-printed [ -s "$TMP/out.$fmt" ]
done
check lock/print-json-valid quiet python3 -m json.tool "$TMP/out.json"
check lock/print-table-untouched [ "$(stat -c '%i %Y' "$D/table.txt" "$D/plots" "$D/plots"/*)" = "$before" ]
check lock/print-nothing-new [ -z "$(find "$D" -newer "$TMP/mark")" ]
$BPFSWEEP report "$D" -f csv </dev/null >/dev/null 2>"$TMP/print.err"
check lock/print-no-report-line not grep -q '^report:' "$TMP/print.err"

# a read-only directory: a read-only bind mount (root), else one without write permission
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" &&
		exec "$2" report "$1" -f json' sh "$D" "$BPFSWEEP" </dev/null >"$TMP/ro.json" 2>"$TMP/ro.err"
	status=$?
else
	chmod -R a-w "$D"
	$BPFSWEEP report "$D" -f json </dev/null >"$TMP/ro.json" 2>"$TMP/ro.err"
	status=$?
	chmod -R u+w "$D"
fi
check lock/read-only-json-exit-0 [ $status = 0 ]
check lock/read-only-json-same cmp "$TMP/out.json" "$TMP/ro.json"

# --- a sweep over kernels holds OUT as a run holds its directory ---------------
# A kernel that does not boot (a bzImage header and nothing else; qemu gives up
# after vm_boot_timeout) and the host: no guest boots, OUT is written a few seconds.
if [ "$(id -u)" != 0 ] || ! command -v qemu-system-x86_64 >/dev/null; then
	skip lock/kernel-sweep "needs root and qemu-system-x86_64 (a sweep over kernels)"
	exit 0
fi
FAKE=$TMP/fake-bzImage
head -c 4096 /dev/zero >"$FAKE"
printf 'HdrS' | dd of="$FAKE" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
K=$TMP/kernels
$BPFSWEEP run tests/e2e/kernel.spec --kernel "$FAKE" --kernel host --set vm_boot_timeout=2s \
	-o "$K" </dev/null >/dev/null 2>"$TMP/kernels.err" &
RUN_PID=$!
for _ in $(seq 100); do [ -s "$K/meta" ] && break; sleep 0.05; done
check lock/kernel-sweep-started [ -s "$K/meta" ]
$BPFSWEEP report "$K" --no-plots </dev/null >/dev/null 2>"$TMP/kreport.err"
check lock/kernel-sweep-report-exit-2 [ $? = 2 ]
check lock/kernel-sweep-report-says grep -q "a run is writing $K" "$TMP/kreport.err"
$BPFSWEEP run tests/e2e/kernel.spec --kernel "$FAKE" --kernel host --resume "$K" --no-plots \
	</dev/null >/dev/null 2>"$TMP/kresume.err"
check lock/kernel-sweep-resume-exit-2 [ $? = 2 ]
check lock/kernel-sweep-resume-says grep -q "cannot resume $K: another bpfsweep is running there" \
	"$TMP/kresume.err"
wait "$RUN_PID"
check lock/kernel-sweep-exit-1 [ $? = 1 ]
RUN_PID=
check lock/kernel-sweep-report-after-run quiet_status 0 $BPFSWEEP report "$K" --no-plots
# OUT's page, as a run writes its own: a section per kernel's run, the one
# that did not boot with its reason (docs/html.md)
check lock/kernel-sweep-page-two-runs \
	[ "$(grep -c '^<section class="run" id="r[12]-all">$' "$K/report.html")" = 2 ]
check lock/kernel-sweep-page-run-not-booted \
	grep -q 'failed: the kernel did not boot within 2 s' "$K/report.html"
