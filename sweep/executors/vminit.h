/* SPDX-License-Identifier: GPL-2.0 */
/* bpfsweep as PID 1 of a kernel under test (vminit.c, docs/kernel.md). */
#ifndef SWEEP_VMINIT_H
#define SWEEP_VMINIT_H

/* Mount, run the host's job, power off.  Never returns. */
int vminit_main(void) __attribute__((noreturn));

#endif
