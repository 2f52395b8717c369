#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# meta: the system facts are there, the file is written once at the start
# and its end appended, and a run killed while writing it leaves no
# temporary file and no meta that claims more than it holds.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cat >"$TMP/quick.spec" <<'EOF'
[sweep]
workload = null
warmup   = 0ms
duration = 20ms
interval = 10ms

[params]
producers = 1 2
EOF

# once KEY FILE: exactly one "KEY: value" line
once() { [ "$(grep -c "^$1: ." "$2")" = 1 ]; }

no_tmp_files() { [ -z "$(find "$1" -name '*.tmp')" ]; }

D=$TMP/run
$BPFSWEEP "$TMP/quick.spec" -o "$D" --no-plots >/dev/null 2>&1 </dev/null
check meta/run [ $? = 0 ]
for key in cpu_governor cpu_boost smt smt_control virtualised hypervisor_type dmi_vendor \
	dmi_product loadavg cmdline lockdown kernel_config kernel executor start end; do
	check "meta/key-$key" once "$key" "$D/meta"
done
check meta/virtualised-word grep -Eqx 'virtualised: (yes( \(.+\))?|no|unknown)' "$D/meta"
check meta/lockdown-word grep -Eqx 'lockdown: (none|integrity|confidentiality|unavailable)' \
	"$D/meta"
check meta/kernel-host grep -qx 'kernel: host' "$D/meta"
check meta/executor-host grep -qx 'executor: host' "$D/meta"
check meta/no-vm-accel-on-host quiet not grep -q '^vm_accel:' "$D/meta"
# one config line per option of the list, or one saying there is no config to read
config_lines_ok() {
	local n
	n=$(grep -c '^config: ' "$D/meta")
	if grep -qx 'kernel_config: unknown' "$D/meta"; then
		[ "$n" = 1 ] && grep -q '^config: unavailable (' "$D/meta"
	else
		[ "$n" -ge 16 ] && ! grep '^config: ' "$D/meta" |
			grep -Evq '^config: CONFIG_[A-Z0-9_]+(=.+| is not set)$' &&
			grep -Eq '^config: CONFIG_BPF_SYSCALL(=| is not set)' "$D/meta"
	fi
}
check meta/config-lines config_lines_ok
check meta/end-is-last [ "$(tail -n1 "$D/meta" | cut -d: -f1)" = end ]
check meta/only-key-value-lines quiet not grep -qv '^[a-z_0-9]*: ' "$D/meta"
check meta/no-temporary-file no_tmp_files "$D"

if ! command -v strace >/dev/null; then
	skip meta/killed-while-written "strace is not installed"
	exit 0
fi
# kill_at_meta_write N DIR: run, SIGKILLed on entry to the Nth write to meta (or meta.tmp)
kill_at_meta_write() {
	strace -f -o /dev/null -P "$2/meta" -P "$2/meta.tmp" -e trace=write \
		-e inject=write:signal=KILL:when="$1" \
		$BPFSWEEP "$TMP/quick.spec" -o "$2" --no-plots >/dev/null 2>&1 </dev/null
}
D=$TMP/killed-start
kill_at_meta_write 1 "$D" 2>/dev/null	# no "Killed" from bash
check meta/killed-at-start [ $? = 137 ]
check meta/killed-at-start-no-temporary-file no_tmp_files "$D"
check meta/killed-at-start-claims-no-end quiet not grep -q '^end:' "$D/meta"
D=$TMP/killed-end
kill_at_meta_write 2 "$D" 2>/dev/null
check meta/killed-at-end [ $? = 137 ]
check meta/killed-at-end-no-temporary-file no_tmp_files "$D"
check meta/killed-at-end-has-start once start "$D/meta"
check meta/killed-at-end-claims-no-end quiet not grep -q '^end:' "$D/meta"
