#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A functional bisect that boots real kernels, bounded for make check's
# guests lane (tests/e2e/bisect_vm.sh, by hand, bisects Debian's 6.12 to
# 7.3 in seven boots): when did ring buffer overwrite mode appear, over
# three kernels given as images, oldest first: the host's own (no boot;
# it lacks the mode), Debian's newest 6.19 (the first release with it,
# which Debian keeps image-only: vmlinuz alone) and the test kernel.  The
# ends run first (unsupported on the host, ok on the test kernel: a
# bisect by status), then one step boots 6.19 and finds it new.  Two
# boots, about 16 s on an idle machine.  Then --resume of the finished OUT
# reuses every step and boots nothing.  (git bisect run over Debian's
# images, which boots more, is tests/e2e/bisect_git_vm.sh, by hand.)
# Skipped, with the reason, without root or qemu, where the host's kernel
# has the mode (no change to find), or where 6.19 cannot be fetched.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

T=bisect-images-vm
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -z "${KEEP-}" ] || trap - EXIT

older_than_6_19() {
	[ "$(printf '%s\n6.19\n' "${1%%[-+]*}" | sort -V | head -n1)" != 6.19 ]
}
why=
if [ "$(id -u)" != 0 ]; then
	why="not root (virtiofsd and the guest's BPF need it)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="qemu-system-x86_64 not installed (make deps installs qemu-system-x86)"
elif ! older_than_6_19 "$(uname -r)"; then
	why="the host's kernel $(uname -r) has overwrite mode: no change between it and 6.19"
elif ! NEW=$(scripts/vm-kernel.sh 2>"$TMP/new.err"); then
	why="no test kernel: $(tail -n1 "$TMP/new.err")"
elif ! MID=$(scripts/vm-kernel.sh 6.19 2>"$TMP/mid.err"); then
	why="no 6.19 kernel (archive not reachable?): $(tail -n1 "$TMP/mid.err")"
fi
if [ -n "$why" ]; then
	skip $T "$why"
	exit 0
fi
MID_REL=$(basename "$(dirname "$MID")")

OUT=$TMP/bisect
ONLY="Ringbuf, multi-producer contention, overwrite mode, producer only"
# a status is all a functional bisect reads: one short repetition a point
args=(specs/ringbuf_overwrite.spec --only "$ONLY" --set producers=1 --set decide=off
	--set warmup=100ms --set duration=100ms --set interval=50ms --set bpf_stats=off)
$BPFSWEEP bisect "${args[@]}" --old host --new "$NEW" \
	--kernel host --kernel "$MID" --kernel "$NEW" -o "$OUT" >"$TMP/out" 2>"$TMP/err"
rc=$?
if ! check $T/exit-0 [ $rc = 0 ]; then
	tail -n 8 "$TMP/err" | sed 's/^/  | /'
fi
sed 's/^/  /' "$TMP/out"
check $T/by-status grep -q "by status, 1 point: .*unsupported on the old end, ok on the new end" \
	"$TMP/out"
# one step, 6.19's, booted: its run names the guest's release
check $T/one-step [ "$(grep -cE '^[0-9]+  ' "$TMP/out")" = 1 ]
check $T/step-is-6.19-new [ "$(awk -v k="$MID" '$1 == 1 && $2 == k { print $3, $4 }' \
	"$TMP/out")" = "new ok" ]
check $T/step-booted [ "$(csv_col "$OUT/steps/001-vmlinuz/1/summary.csv" kernel_release)" = \
	"$MID_REL" ]
check $T/step-ok [ "$(csv_col "$OUT/steps/001-vmlinuz/1/summary.csv" status)" = ok ]
check $T/first-new grep -qxF "first new: $MID" "$TMP/out"
check $T/last-old grep -qxF "last old: host" "$TMP/out"
check $T/meta-first grep -qxF "bisect_first: $MID new" "$OUT/meta"
check $T/steps-csv [ "$(($(wc -l <"$OUT/steps.csv") - 1))" = 1 ]
check $T/page-of-the-step [ "$(grep -c '<tr id="step-' "$OUT/bisect.html")" = 1 ]
# --resume: every step reused (no log grows, no boot), the same table
cat "$OUT"/steps/*/log >"$TMP/logs"
$BPFSWEEP bisect "${args[@]}" --resume "$OUT" >"$TMP/out2" 2>"$TMP/err2"
check $T/resume-exit-0 [ $? = 0 ]
check $T/resume-same-table cmp -s "$TMP/out" "$TMP/out2"
check $T/resume-ran-nothing cmp -s "$TMP/logs" <(cat "$OUT"/steps/*/log)
