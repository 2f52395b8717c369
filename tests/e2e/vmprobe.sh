#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The KVM probe through the binary, with the fake qemus of
# tests/fixtures/fakeqemu in qemu's place (BPFSWEEP_KVM_PROBE): one that
# aborts as qemu 7.2 does on a host whose KVM cannot run a guest, one that
# hangs, one that works.  No host here has that broken KVM (and this one
# has no /dev/kvm): the fakes stand in for it.  `vm --probe-accel` prints
# the verdict; vm_accel = auto falls back to TCG with one warning, kvm is
# an error naming vm_accel=tcg, in every row of a kernel sweep; one probe
# per run.  With root, qemu and virtiofsd: a sweep over two kernels that
# do not boot, under TCG after the fake refused KVM, records why in each
# run's meta.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAKES=tests/fixtures/fakeqemu
SPEC=tests/e2e/kernel.spec
ASSERTION="kvm_buf_set_msrs: Assertion \`ret == cpu->kvm_msr_buf->nmsrs' failed."
export FAKE_QEMU_CALLS=$TMP/calls

# probe NAME FAKE ARGS...: bpfsweep vm ARGS --probe-accel with qemu FAKE,
# into $TMP/NAME.{out,err,rc}; $TMP/NAME.calls counts the probes it ran
probe() {
	local name=$1 fake=$2
	shift 2
	rm -f "$FAKE_QEMU_CALLS"
	BPFSWEEP_KVM_PROBE=$FAKES/$fake $BPFSWEEP vm "$@" --probe-accel </dev/null \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
	touch "$FAKE_QEMU_CALLS"
	wc -l <"$FAKE_QEMU_CALLS" >"$TMP/$name.calls"
}
is() { [ "$(cat "$TMP/$1")" = "$2" ]; }
has() { grep -qF -- "$2" "$TMP/$1"; }

probe abort abort
check vmprobe/abort-exit-0 is abort.rc 0
check vmprobe/abort-is-tcg is abort.out \
	"tcg (kvm refused: qemu-system-x86_64: ../target/i386/kvm/kvm.c:3156: $ASSERTION \
(killed by signal 6, Aborted))"
check vmprobe/abort-warns-once [ "$(grep -c warning "$TMP/abort.err")" = 1 ]
check vmprobe/abort-warning has abort.err "bpfsweep: warning: vm_accel = auto: KVM cannot run \
a guest here (qemu-system-x86_64: ../target/i386/kvm/kvm.c:3156: $ASSERTION (killed by signal 6, \
Aborted)): the VM runs under TCG, emulated, for function, not performance (vm_accel = tcg skips \
this check)"
check vmprobe/abort-probed-once is abort.calls 1
# the probe's command line, as the fake got it: the stub under KVM as the boot takes it
want='^-nodefaults -no-user-config -display none -no-reboot -accel kvm -cpu host -smp 2 .* '
want+='-bios /tmp/bpfsweep-kvm\.[^ ]*/firmware -device isa-debug-exit,iobase=0xf4,iosize=0x04$'
check vmprobe/abort-command-line grep -qE "$want" "$FAKE_QEMU_CALLS"

probe hang hang
check vmprobe/hang-exit-0 is hang.rc 0
check vmprobe/hang-is-tcg is hang.out "tcg (kvm refused: no answer in 10 s)"
check vmprobe/hang-killed not pgrep -f "^sleep 1000$"

# A scratch directory (scratch.h) names its bpfsweep's pid: after a SIGKILL
# of bpfsweep the guardian removes it; a later bpfsweep removes one of a
# pid that is gone, and leaves alone one of another user's, a symlink and
# one of a live pid
scratch_of() { compgen -G "/tmp/bpfsweep-kvm.$1.??????" >/dev/null; }
BPFSWEEP_KVM_PROBE=$FAKES/hang $BPFSWEEP vm --probe-accel </dev/null >/dev/null 2>&1 &
kpid=$!
for _ in $(seq 50); do
	scratch_of $kpid && break
	sleep 0.1
done
check vmprobe/scratch-named-for-its-pid scratch_of $kpid
{ kill -KILL $kpid && wait $kpid; } 2>/dev/null
for _ in $(seq 30); do
	scratch_of $kpid || break
	sleep 0.1
done
check vmprobe/scratch-gone-after-sigkill not scratch_of $kpid
sh -c 'exit 0' &
gone=$!
wait $gone
mkdir "/tmp/bpfsweep-vm.$gone.aaaaaa" "/tmp/bpfsweep-vm.$$.bbbbbb"
touch "/tmp/bpfsweep-vm.$gone.aaaaaa/console.log" "$TMP/target"
ln -s "$TMP" "/tmp/bpfsweep-ssh.$gone.cccccc"
# another user's: a uid no account has, not nobody, whose bpfsweep runs
# in other tests at the same time would rightly remove it
others=
if [ "$(id -u)" = 0 ]; then
	others=/tmp/bpfsweep-vm.$gone.dddddd
	mkdir "$others" && chown 3999999 "$others"
fi
$BPFSWEEP vm --set vm_accel=tcg --probe-accel </dev/null >/dev/null 2>&1
check vmprobe/scratch-of-a-gone-pid-removed [ ! -e "/tmp/bpfsweep-vm.$gone.aaaaaa" ]
check vmprobe/scratch-of-a-live-pid-kept [ -d "/tmp/bpfsweep-vm.$$.bbbbbb" ]
check vmprobe/scratch-symlink-kept-target-too [ -L "/tmp/bpfsweep-ssh.$gone.cccccc" -a \
	-e "$TMP/target" ]
[ -n "$others" ] && check vmprobe/scratch-of-another-user-kept [ -d "$others" ]
rm -rf "/tmp/bpfsweep-vm.$$.bbbbbb" "/tmp/bpfsweep-ssh.$gone.cccccc" ${others:+"$others"}

probe work work
check vmprobe/work-exit-0 is work.rc 0
check vmprobe/work-is-kvm is work.out kvm
check vmprobe/work-says-nothing [ ! -s "$TMP/work.err" ]

probe kvm abort --set vm_accel=kvm
check vmprobe/kvm-refused-exit-2 is kvm.rc 2
check vmprobe/kvm-refused-no-verdict [ ! -s "$TMP/kvm.out" ]
check vmprobe/kvm-refused-names-tcg has kvm.err "bpfsweep: error: vm: vm_accel = kvm: KVM \
cannot run a guest here (qemu-system-x86_64: ../target/i386/kvm/kvm.c:3156: $ASSERTION (killed \
by signal 6, Aborted)); vm_accel=tcg runs it emulated, slowly"
check vmprobe/kvm-refused-no-warning not grep -q warning "$TMP/kvm.err"

probe kvm_works work --set vm_accel=kvm
check vmprobe/kvm-works is kvm_works.out kvm
probe tcg abort --set vm_accel=tcg
check vmprobe/tcg-asked is tcg.out tcg
check vmprobe/tcg-asks-no-probe is tcg.calls 0
check vmprobe/tcg-says-nothing [ ! -s "$TMP/tcg.err" ]

# vm_accel = kvm that cannot run, over two kernels: every row fails saying
# so, one probe, one error; nothing boots (so no root, qemu or image needed
# beyond the bzImage header the kernel axis checks)
FAKE=$TMP/k1
head -c 4096 /dev/zero >"$FAKE"
printf 'HdrS' | dd of="$FAKE" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
cp "$FAKE" "$TMP/k2"
rm -f "$FAKE_QEMU_CALLS"
BPFSWEEP_KVM_PROBE=$FAKES/abort $BPFSWEEP run $SPEC --kernel "$FAKE" --kernel "$TMP/k2" \
	--set vm_accel=kvm -o "$TMP/kvm_sweep" --no-plots </dev/null >/dev/null 2>"$TMP/kvm_sweep.err"
check vmprobe/kvm-sweep-exit-1 [ $? = 1 ]
check vmprobe/kvm-sweep-probed-once [ "$(wc -l <"$FAKE_QEMU_CALLS")" = 1 ]
check vmprobe/kvm-sweep-one-error [ "$(grep -c '^bpfsweep: error: vm_accel = kvm: ' \
	"$TMP/kvm_sweep.err")" = 1 ]
check vmprobe/kvm-sweep-rows-failed [ "$(csv_col "$TMP/kvm_sweep/summary.csv" status | sort | \
	uniq -c | awk '{ print $1, $2 }')" = "6 failed" ]
check vmprobe/kvm-sweep-rows-name-tcg [ "$(csv_col "$TMP/kvm_sweep/summary.csv" reason | \
	grep -c 'vm_accel = kvm: KVM cannot run a guest here (.*vm_accel=tcg runs it')" = 6 ]
check vmprobe/kvm-sweep-nothing-booted [ ! -e "$TMP/kvm_sweep/vm" ]

# vm as another user than root: refused before anything starts, saying why
# (virtiofsd, which shares /, exited before it listened: "No child processes")
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 755 "$TMP"
	BIN=$(realpath "$BPFSWEEP")
	(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN" vm --set vm_accel=tcg "$FAKE" -- true) </dev/null >/dev/null \
		2>"$TMP/nonroot.err"
	check vmprobe/vm-not-root-exit-2 [ $? = 2 ]
	check vmprobe/vm-not-root-says has nonroot.err "a VM needs root: virtiofsd shares"
	check vmprobe/vm-not-root-no-echild not has nonroot.err "No child processes"
fi

# --- auto under TCG, really booting -------------------------------------------
why=$(qemu_missing)
if [ -n "$why" ]; then
	skip vmprobe/auto-sweep "$why"
	exit 0
fi
# two kernels that do not boot (a bzImage header and nothing else), 2 s each
# (qemu runs the image's zeros under TCG, a CPU busy until the timeout)
rm -f "$FAKE_QEMU_CALLS"
BPFSWEEP_KVM_PROBE=$FAKES/abort $BPFSWEEP run $SPEC --kernel "$FAKE" --kernel "$TMP/k2" \
	--set vm_boot_timeout=2s -o "$TMP/auto" --no-plots </dev/null >"$TMP/auto.out" \
	2>"$TMP/auto.err"
check vmprobe/auto-sweep-exit-1 [ $? = 1 ]
check vmprobe/auto-sweep-probed-once [ "$(wc -l <"$FAKE_QEMU_CALLS")" = 1 ]
check vmprobe/auto-sweep-warns-once [ "$(grep -c '^bpfsweep: warning: vm_accel = auto: KVM cannot' \
	"$TMP/auto.err")" = 1 ]
check vmprobe/auto-sweep-boots-under-tcg [ "$(grep -c ': booting it in a VM (tcg), console in' \
	"$TMP/auto.err")" = 2 ]
check vmprobe/auto-sweep-did-not-boot [ "$(csv_col "$TMP/auto/summary.csv" reason | \
	grep -c 'did not boot')" = 6 ]
for r in 1 2; do
	check "vmprobe/auto-sweep-run-$r-meta-accel" grep -qx "vm_accel: tcg" "$TMP/auto/runs/$r/meta"
	check "vmprobe/auto-sweep-run-$r-meta-reason" grep -qxF "vm_accel_reason: kvm refused: \
qemu-system-x86_64: ../target/i386/kvm/kvm.c:3156: $ASSERTION (killed by signal 6, Aborted)" \
		"$TMP/auto/runs/$r/meta"
done
check vmprobe/auto-sweep-accel-column [ "$(csv_col "$TMP/auto/summary.csv" accel | sort -u)" = tcg ]

# vm without -o: its share is a scratch directory under $TMPDIR, gone at the
# end with all the guest, qemu and virtiofsd left in it, even when the kernel
# did not boot
mkdir "$TMP/vmtmp"
TMPDIR=$TMP/vmtmp $BPFSWEEP vm --set vm_accel=tcg --set vm_boot_timeout=2s "$FAKE" -- true \
	</dev/null >/dev/null 2>"$TMP/noshare.err"
check vmprobe/vm-no-boot-exit-2 [ $? = 2 ]
check vmprobe/vm-no-boot-says has noshare.err "did not boot"
check vmprobe/vm-share-removed [ -z "$(ls -A "$TMP/vmtmp")" ]
