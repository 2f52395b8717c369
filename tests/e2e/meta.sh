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
# the system check's facts (syscheck.h), once each, in meta's words
for key in runnable cpus_online isolated_cpus nohz_full bpf_jit_enable bpf_jit_harden \
	bpf_stats_enabled bpf_stats_active bpf_progs perf_event_max_sample_rate run_cpus \
	irqbalance irq_affinity rcu_nocbs; do
	check "meta/key-$key" once "$key" "$D/meta"
done
check meta/runnable-word grep -Eqx 'runnable: ([0-9]+ of [0-9]+ tasks|unknown)' "$D/meta"
check meta/cpus-online-word grep -Eqx "cpus_online: [0-9,-]+ \\($(nproc)\\)" "$D/meta"
check meta/jit-word grep -Eqx 'bpf_jit_enable: [0-2]' "$D/meta"
check meta/stats-active-word grep -Eqx 'bpf_stats_active: (yes|no|unknown)' "$D/meta"
if [ "$(id -u)" = 0 ]; then
	check meta/bpf-progs-count grep -Eqx 'bpf_progs: [0-9]+( \(.+\))?' "$D/meta"
	check meta/bpf-hooks once bpf_hooks "$D/meta"
else
	check meta/bpf-progs-refused grep -Eqx 'bpf_progs: unknown \(.+\)' "$D/meta"
fi

# a fake /proc and /sys (BPFSWEEP_SYSROOT): each warning printed once, before the
# first point, and in meta; `bpfsweep system` prints the same
R=$TMP/sysroot
mkdir -p "$R/proc/sys/net/core" "$R/proc/sys/kernel" "$R/sys/devices/system/cpu/cpu0/cpufreq" \
	"$R/sys/devices/system/cpu/cpufreq"
echo '9.00 8.00 7.00 12/345 999' >"$R/proc/loadavg"
printf 'processor\t: 0\nflags\t\t: fpu\n\n' >"$R/proc/cpuinfo"
echo 0-1 >"$R/sys/devices/system/cpu/online"
echo powersave >"$R/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
echo 1 >"$R/sys/devices/system/cpu/cpufreq/boost"
echo 2 >"$R/proc/sys/net/core/bpf_jit_harden"
echo 1 >"$R/proc/sys/net/core/bpf_jit_enable"
echo 0 >"$R/proc/sys/kernel/bpf_stats_enabled"
D=$TMP/fakeroot
BPFSWEEP_SYSROOT=$R $BPFSWEEP "$TMP/quick.spec" -o "$D" --no-plots >/dev/null 2>"$TMP/fake.err" \
	</dev/null
check meta/fakeroot-run [ $? = 0 ]
for w in 'load 9.0 on 2 CPUs: other work will distort the numbers; wait for it to end or stop it' \
	'CPU governor powersave: ' 'CPU boost on: ' 'bpf_jit_harden 2: '; do
	check "meta/fakeroot-warned-once-${w%%:*}" [ "$(grep -cF "bpfsweep: warning: $w" \
		"$TMP/fake.err")" = 1 ]
	check "meta/fakeroot-meta-${w%%:*}" grep -qF "system_warning: $w" "$D/meta"
	check "meta/fakeroot-system-${w%%:*}" grep -qF "WARNING  $w" \
		<(BPFSWEEP_SYSROOT=$R $BPFSWEEP system)
done
# each warning ends with the name that quiets it; quieted, meta still has it
check meta/fakeroot-warning-named grep -q 'bpfsweep: warning: CPU boost on: .* \[--quiet-warning=boost\]$' \
	"$TMP/fake.err"
BPFSWEEP_SYSROOT=$R $BPFSWEEP "$TMP/quick.spec" -o "$TMP/quieted" --no-plots \
	--quiet-warning boost --quiet-warning=load >/dev/null 2>"$TMP/quiet.err" </dev/null
check meta/quiet-warning-run [ $? = 0 ]
check meta/quiet-warning-quiet quiet not grep -E 'warning: (CPU boost|load)' "$TMP/quiet.err"
check meta/quiet-warning-others grep -qF 'warning: bpf_jit_harden 2: ' "$TMP/quiet.err"
check meta/quiet-warning-in-meta grep -qF 'system_warning: CPU boost on: ' "$TMP/quieted/meta"
# `bpfsweep system` leads with the verdicts, the facts after them
BPFSWEEP_SYSROOT=$R $BPFSWEEP system >"$TMP/system.out"
check meta/system-verdicts-first grep -q '^WARNING  ' <(head -n 1 "$TMP/system.out")
check meta/system-facts-after [ "$(grep -n '^facts:$' "$TMP/system.out" | cut -d: -f1)" -gt \
	"$(grep -n '^OK  ' "$TMP/system.out" | tail -n 1 | cut -d: -f1)" ]
check meta/fakeroot-warnings-before-points [ "$(grep -n . "$TMP/fake.err" |
	grep -m1 -v 'warning: ' | cut -d: -f1)" -gt 4 ]
# a hostile fake root: a FIFO and a device where facts are, a CPU list past
# any kernel's, a DMI vendor with escapes: `system` ends, says unknown, and
# prints the vendor's escapes as text
H=$TMP/hostile
mkdir -p "$H/proc" "$H/sys/devices/system/cpu" "$H/sys/class/dmi/id"
mkfifo "$H/proc/loadavg"
ln -s /dev/zero "$H/proc/cpuinfo"
echo 0-2147483647 >"$H/sys/devices/system/cpu/online"
printf 'Evil\033]52;c;aGVsbG8=\007\302\233H\n' >"$H/sys/class/dmi/id/sys_vendor"
BPFSWEEP_SYSROOT=$H timeout 20 $BPFSWEEP system >"$TMP/hostile.out" 2>&1 </dev/null
check meta/hostile-system-ends [ $? = 0 ]
check meta/hostile-load-unknown grep -q '^unknown  load unknown' "$TMP/hostile.out"
check meta/hostile-cpus-not-counted grep -qx 'cpus_online: 0-2147483647 (0)' "$TMP/hostile.out"
check meta/hostile-vendor-as-text grep -qxF 'dmi_vendor: Evil ]52;c;aGVsbG8= \xc2\x9bH' \
	"$TMP/hostile.out"
check meta/hostile-no-escape-out not grep -q $'[\x1b\x07]' "$TMP/hostile.out"
check meta/fakeroot-facts grep -qx 'runnable: 12 of 345 tasks' "$D/meta"
check meta/fakeroot-governor grep -qx 'cpu_governor: powersave' "$D/meta"
check meta/fakeroot-isolated-unknown grep -qx 'isolated_cpus: unknown' "$D/meta"
check meta/system-exit-0 quiet $BPFSWEEP system
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
