/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU time from /proc/stat, for telling how much of a point's CPUs
 * the hypervisor took while it was measured.
 */
#ifndef SWEEP_CPUSTAT_H
#define SWEEP_CPUSTAT_H

#include <stdint.h>

#define CPUSTAT_MAX_CPUS	1024	/* CPU_SETSIZE: the CPUs affinity can name */

/* One CPU's cumulative time, in USER_HZ ticks. */
struct cpu_ticks {
	uint64_t busy;		/* user+nice+system+irq+softirq (guest is inside user/nice) */
	uint64_t steal;
	uint64_t all;		/* busy + steal + idle + iowait */
};

/* A snapshot: cpu[c] for CPU number c, present[c] when /proc/stat listed it. */
struct cpustat {
	struct cpu_ticks cpu[CPUSTAT_MAX_CPUS];
	unsigned char present[CPUSTAT_MAX_CPUS];
};

/*
 * What the hypervisor took of a set of CPUs over the measured part of a
 * point: the sum over its repetitions of the deltas.  (Other processes'
 * share of them is not kept: the interference flag is the point's
 * threads' wait for a CPU, schedstat.h.)
 */
struct cpu_load {
	uint64_t steal_ticks;
	uint64_t all_ticks;	/* every state: the capacity of those CPUs */
	int windows;		/* repetitions that were measured this way */
};

/* Parse the text of /proc/stat (the "cpuN ..." lines); 0 or -EINVAL. */
int cpustat_parse(const char *text, struct cpustat *s);

/* Read and parse /proc/stat; 0 or -errno. */
int cpustat_read(struct cpustat *s);

/*
 * Add the deltas from a to b over cpus[0..nr) (distinct CPU numbers, those
 * present in both) to *load.
 */
void cpustat_add_window(struct cpu_load *load, const struct cpustat *a,
			const struct cpustat *b, const int *cpus, int nr);

#endif
