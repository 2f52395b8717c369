/* SPDX-License-Identifier: GPL-2.0 */
/* The CPUs a point may run on: the repetition's threads' and the profiler's. */
#ifndef SWEEP_ALLOWCPU_H
#define SWEEP_ALLOWCPU_H

/* The CPUs this process may run on, in order, as the bench's -a uses them: how many, or -errno. */
int rep_allowed_cpus(int *cpus, int max);

#endif
