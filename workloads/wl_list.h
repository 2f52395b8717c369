/* SPDX-License-Identifier: GPL-2.0 */
/* What `bpfsweep list [WORKLOAD]` prints: the workloads, their metrics and parameters. */
#ifndef SWEEP_WL_LIST_H
#define SWEEP_WL_LIST_H

/*
 * On stdout: workload name's metrics and parameters (exec's: where they
 * come from), or every workload's, the kernel's benchmarks first (name
 * NULL).  0, or -ENOENT for a name that is none (said, with the nearest).
 */
int wl_list(const char *name);

#endif
