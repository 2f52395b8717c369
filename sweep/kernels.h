/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel axis: which kernels a sweep runs on ([sweep] kernel = host
 * IMAGE..., or --kernel), and how a VM boots those that are not the host's
 * (vm_accel, vm_cpus, vm_mem, vm_boot_timeout, vm_ssh_port).  Every point
 * runs once per kernel; each kernel other than `host` boots once per sweep
 * (docs/kernel.md).
 */
#ifndef SWEEP_KERNELS_H
#define SWEEP_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "spec.h"

#define MAX_KERNELS		16
#define KERNEL_HOST		"host"

enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };
extern const char *const vm_accel_names[];	/* by enum vm_accel, NULL-terminated */

struct kernel_axis {
	char *vals[MAX_KERNELS];	/* "host", or an image or build tree as written */
	struct loc locs[MAX_KERNELS];
	int nr;				/* 0: the key is absent, the host only */
	enum vm_accel accel;
	int cpus;			/* guest CPUs */
	long long mem;			/* guest memory, bytes */
	uint64_t boot_timeout_ns;	/* qemu start to the guest's first word */
	int ssh_port;			/* 127.0.0.1:ssh_port is the guest's port 22; 0: no NIC */
};

/* The defaults: no kernel key, accel auto, 2 CPUs, 2 GiB, 120 s to boot, no NIC. */
void kernel_axis_init(struct kernel_axis *ka);
void kernel_axis_free(struct kernel_axis *ka);

/* Does the sweep boot any VM (a kernel other than host)? */
bool kernel_axis_has_vm(const struct kernel_axis *ka);

/*
 * Bind one [sweep] entry if its key is kernel or vm_*: 1 when it was one
 * of ours (errors reported at the value), 0 when the key is another's.
 */
int kernel_axis_bind(struct kernel_axis *ka, enum sweep_key key, const struct spec_entry *e);

/*
 * The image to boot for value: a file as it is; a kernel build tree's
 * arch/x86/boot/bzImage.  0, or -errno with why filled.
 */
int kernel_image(const char *value, char *path, size_t len, char *why, size_t whylen);

#endif
