#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The load's figures on a kernel without verified_insns (5.16's): Debian's
# 5.10 (scripts/vm-kernel.sh 5.10, bullseye-security; its virtio drivers
# are modules, so it boots through the initramfs vm-kernel.sh packs).  Two
# boots under TCG, 31-34 s here in all:
# - test_loadstats in the guest: the sizes are bpftool's, total_insns is
#   known though the kernel has no verified_insns (the test says so), the
#   counts repeat;
# - a csum_diff spec through the tool: size 64 measured with every load
#   figure, total_insns from the verifier's log; size 1024 unsupported with
#   the kernel's reason (5.10's helper takes at most 512 bytes).
# Not in make check (its guest lane has no room for two more boots); run
# by hand.  Skipped with the reason without root, qemu or the archive.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT
T=oldkern-vm
BUILD=${BUILD:-build}

why=
if [ "$(id -u)" != 0 ]; then
	why="not root (virtiofsd and the guest's BPF need it)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="qemu-system-x86_64 not installed (make deps installs qemu-system-x86)"
elif [ ! -x "$BUILD/tests/integ/test_loadstats" ]; then
	why="$BUILD/tests/integ/test_loadstats not built (make test-bins)"
elif ! K=$(scripts/vm-kernel.sh 5.10 2>"$TMP/k.err"); then
	why="no 5.10 kernel (archive not reachable?): $(tail -n1 "$TMP/k.err")"
fi
if [ -n "$why" ]; then
	skip $T "$why"
	exit 0
fi

# --- the integration test in the guest
$BPFSWEEP vm "$K" -- "$BUILD/tests/integ/test_loadstats" </dev/null 2>&1 |
	tr -d '\r' >"$TMP/loadstats.out"
check $T/loadstats-exit-0 [ "${PIPESTATUS[0]}" = 0 ]
for t in ringbuf_as_bpftool_shows csum_diff_as_bpftool_shows repetitions_identical \
	 log_processed_is_verified_insns; do
	# (a line may begin with the progress line's erase: not -x)
	check "$T/loadstats-$t" grep -q "PASS $t\$" "$TMP/loadstats.out"
done
# the kernel has no verified_insns: total_insns came from the log
check $T/loadstats-no-verified-insns \
	grep -q "^NOTE csum_run: this kernel has no verified_insns" "$TMP/loadstats.out"

# --- a spec through the tool
cat >"$TMP/csum.spec" <<'SPEC'
[sweep]
workload = csum_diff
warmup   = 1s
duration = 2s
repeat   = 2

[params "size"]
size        = 64 1024
batch       = 16
test_repeat = 1
producers   = 1
SPEC
$BPFSWEEP run "$TMP/csum.spec" --set bpf_stats=off --kernel "$K" -o "$TMP/run" --no-plots \
	</dev/null >"$TMP/run.out" 2>"$TMP/run.err"
check $T/run-exit-0 [ $? = 0 ]
# field NAME of the row whose size is SIZE
field() {
	awk -F, -v want="$1" -v size="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["size"] == size { print $c[want] }' "$TMP/run/summary.csv"
}
check $T/release-5.10 [ "$(field kernel_release 64)" = "$(basename "$(dirname "$K")")" ]
check $T/size64-ok [ "$(field status 64)" = ok ]
for f in total_insns total_states peak_states stack_depth xlated_size jited_size verify_time \
	 load_time; do
	check "$T/size64-$f-given" [ -n "$(field "${f}_mean" 64)" ]
done
check $T/size64-insns-positive awk "BEGIN { exit !($(field total_insns_mean 64) > 0) }"
check $T/size1024-unsupported [ "$(field status 1024)" = unsupported ]
check $T/size1024-reason grep -q "before 6.13 the helper takes at most 512" "$TMP/run/summary.csv"
