/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which accelerator runs a VM.  A /dev/kvm that opens does not say that
 * KVM can run a guest: on some hosts qemu aborts before the guest's first
 * instruction (qemu 7.2: "kvm_buf_set_msrs: Assertion ... failed").  So
 * KVM is proven by running a stub guest once per process: a 64 KiB
 * firmware whose one job is a write to qemu's isa-debug-exit port, booted
 * with the same machine, -accel and -cpu as the real boot; qemu's exit
 * status says the vCPU ran it (docs/kernel.md).
 */
#ifndef SWEEP_VM_PROBE_H
#define SWEEP_VM_PROBE_H

#include <stddef.h>

#include "kernels.h"

#define VM_PROBE_TIMEOUT_MS	10000
/*
 * A test hook: the probe runs this program in qemu's place and does not
 * open /dev/kvm first (tests/tools/fakeqemu.c aborts, hangs or works).
 */
#define VM_PROBE_ENV		"BPFSWEEP_KVM_PROBE"

struct vm_accel_pick {
	enum vm_accel accel;		/* kvm or tcg */
	char refused[600];		/* auto fell back to tcg: "kvm refused: WHY"; else "" */
};

/*
 * Resolve ka->accel: tcg when asked for; kvm when asked for or auto and
 * the probe (one per process, its verdict kept) ran the stub guest under
 * KVM.  Auto otherwise falls back to tcg, says why in pick->refused and
 * warns once.  kvm that cannot run: -ENODEV, why naming vm_accel=tcg.
 */
int vm_pick_accel(const struct kernel_axis *ka, struct vm_accel_pick *pick, char *why,
		  size_t len);

/* Forget the kept verdict: the next vm_pick_accel() probes again (tests). */
void vm_pick_accel_forget(void);

struct vm_probe {
	const char *qemu;		/* qemu-system-x86_64, absolute or found in PATH */
	const char *machine;		/* uname -m of the host */
	enum vm_accel accel;		/* kvm; tcg tests the stub with a real qemu */
	int cpus;
	unsigned int timeout_ms;
};

/*
 * Run the stub guest once, without the verdict kept: 0 when it ran, else
 * -errno and why (qemu's last line on stderr and how it ended, or
 * "no answer in N s").  -EOPNOTSUPP on arm64: no stub for it yet.
 */
int vm_probe_run(const struct vm_probe *p, char *why, size_t len);

#endif
