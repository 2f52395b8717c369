// SPDX-License-Identifier: GPL-2.0
/* The CPUs a point may run on: see allowcpu.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include "allowcpu.h"

int rep_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}
