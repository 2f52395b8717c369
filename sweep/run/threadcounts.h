/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the sampler (repetition.c) keeps of the per_thread metric: each
 * producer's cumulative count at the last two samples, from which every
 * interval's per-producer increases are taken.
 */
#ifndef SWEEP_THREADCOUNTS_H
#define SWEEP_THREADCOUNTS_H

#include "result.h"
#include "workload.h"

/*
 * The per_thread metric's cumulative count of every producer at the last
 * two samples; both NULL when the workload has no such metric.
 */
struct thread_counts {
	uint64_t *prev, *cur;
	int nr;
};

void thread_counts_free(struct thread_counts *tc);

/* Zeroed, for nr producers: sample() adds to what a producer counted since setup. */
int thread_counts_init(struct thread_counts *tc, const struct workload *wl, int nr);

/* iv's per-producer increases, malloc'd (by the sampler: workers never allocate). */
int thread_counts_delta(struct thread_counts *tc, struct interval *iv);

#endif
