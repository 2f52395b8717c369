/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One repetition of one point: the runner's unit of measurement
 * (repetition.c); the runner (runner.c) repeats, retries and summarizes.
 */
#ifndef SWEEP_REPETITION_H
#define SWEEP_REPETITION_H

#include <stdbool.h>

#include "matrix.h"
#include "result.h"

/* How the runner follows a repetition. */
struct rep_watch {
	bool (*stop_requested)(void);	/* a signal asked to stop */
	/*
	 * NULL, or called by the sampler at the start and after each of its
	 * wake-ups but the last, saying whether the next interval is warmup:
	 * it runs while the producers do, so it must do no more than format a
	 * line (progress.h).  A workload's own run() never calls it.
	 */
	void (*woke)(void *ctx, bool warmup);
	void *ctx;
};

/*
 * Repetition rep (from 0) of point pt: its intervals appended to r, and
 * r's producers, consumers, CPUs and load window filled in; r->reason
 * says why when it fails.  w->stop_requested() turning true (a signal)
 * ends it early: before the next thread starts, at the sampler's next
 * wake-up, or in the workload's own run().  Returns 0, -EINTR when asked
 * to stop, -EPROTO when it has other producers than an earlier
 * repetition, or the workload's -errno.
 */
int rep_run(const struct sweep_cfg *cfg, const struct point *pt, int rep,
	    const struct rep_watch *w, struct point_result *r);

/*
 * r->reason for err, "what: strerror(-err)", unless the workload already
 * gave one; it replaces a memory note (a caveat of an ok point only).
 */
void rep_set_reason(struct point_result *r, const char *what, int err);

#endif
