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

#include "bindsec.h"
#include "diag.h"
#include "kernellist.h"
#include "model.h"
#include "spec.h"

extern const char *const vm_accel_names[];	/* by enum vm_accel, NULL-terminated */

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
 * After every vm_* key: vm_accel = tcg-icount runs one vCPU, so vm_cpus
 * left at its default becomes 1 and one above 1 that was given is an error
 * at its value.  0, or -EINVAL (reported).
 */
int kernel_axis_check(struct kernel_axis *ka);

/* Its [sweep] keys and defaults, as a section binder (bindsec.h, binders.c). */
extern const struct section_binder kernel_section_binder;

#endif
