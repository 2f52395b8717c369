// SPDX-License-Identifier: GPL-2.0
/*
 * The per_thread metric's counts of every producer at the sampler's last
 * two samples, and each interval's increases (threadcounts.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "metricdef.h"
#include "threadcounts.h"

void thread_counts_free(struct thread_counts *tc)
{
	free(tc->prev);
	free(tc->cur);
	tc->prev = tc->cur = NULL;
}

/* Zeroed: sample() adds to what a producer counted since setup. */
int thread_counts_init(struct thread_counts *tc, const struct workload *wl, int nr)
{
	*tc = (struct thread_counts){ .nr = nr };
	if (wl_thread_metric(wl) < 0)
		return 0;
	tc->prev = calloc(nr ? nr : 1, sizeof(*tc->prev));
	tc->cur = calloc(nr ? nr : 1, sizeof(*tc->cur));
	if (tc->prev && tc->cur)
		return 0;
	thread_counts_free(tc);
	return -ENOMEM;
}

/* iv's per-producer increases, malloc'd (by the sampler: workers never allocate). */
int thread_counts_delta(struct thread_counts *tc, struct interval *iv)
{
	uint64_t *older = tc->prev;

	if (!tc->cur)
		return 0;
	iv->thread_delta = malloc((tc->nr ? tc->nr : 1) * sizeof(*iv->thread_delta));
	if (!iv->thread_delta)
		return -ENOMEM;
	for (int i = 0; i < tc->nr; i++)
		iv->thread_delta[i] = tc->cur[i] - tc->prev[i];
	tc->prev = tc->cur;
	tc->cur = older;
	return 0;
}
