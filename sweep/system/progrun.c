// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's run count and run time of a workload's BPF programs, read
 * at every sample, and an interval's ns per run of them (result.c sums
 * those up per point: prog_summarize()).
 */
#include <math.h>

#include "progrun.h"

void prog_fill(const struct workload *wl, void *state, uint64_t *counts)
{
	uint64_t cnt = METRIC_UNKNOWN, ns = METRIC_UNKNOWN;
	int runs_m, ns_m;

	if (!prog_metrics(wl, &runs_m, &ns_m))
		return;
	/* a workload declaring the counters without the callback has none to give */
	if (!wl->prog_stats || wl->prog_stats(state, &cnt, &ns))
		cnt = ns = METRIC_UNKNOWN;
	counts[runs_m] = cnt;
	counts[ns_m] = ns;
}

double prog_ns_per_run(uint64_t d_runs, uint64_t d_ns)
{
	if (d_runs == METRIC_UNKNOWN || d_ns == METRIC_UNKNOWN || !d_runs)
		return NAN;
	return (double)d_ns / d_runs;
}
