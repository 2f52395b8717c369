// SPDX-License-Identifier: GPL-2.0
/*
 * ns per run of a workload's BPF programs, from the kernel's run_cnt and
 * run_time_ns.  Each interval's ratio of increases, not the ratio of the
 * rates' means: an interval's ns per run is what the kernel measured over
 * it, and their spread says how steady the program's cost was.
 */
#include <errno.h>
#include <stdlib.h>

#include "progrun.h"
#include "result.h"

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

int prog_summarize(struct point_result *r)
{
	int runs_m, ns_m, n = 0;
	double *x;

	r->per_run = (struct summary){ NAN, NAN, NAN, NAN, NAN, NAN, 0 };
	if (!prog_metrics(r->pt->wp.wl, &runs_m, &ns_m))
		return 0;
	x = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (int i = 0; i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];
		double v;

		if (iv->warmup || !iv->elapsed_ns)
			continue;
		v = prog_ns_per_run(iv->value[runs_m], iv->value[ns_m]);
		if (!isnan(v))
			x[n++] = v;
	}
	if (n)
		stats_summarize(x, n, &r->per_run);
	free(x);
	return 0;
}
