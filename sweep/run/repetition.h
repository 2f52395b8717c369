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

/*
 * Repetition rep (from 0) of point pt: its intervals appended to r, and
 * r's producers, consumers, CPUs and load window filled in; r->reason
 * says why when it fails.  stop_requested() turning true (a signal) ends
 * it early: before the next thread starts, at the sampler's next wake-up,
 * or in the workload's own run().  Returns 0, -EINTR when asked to stop,
 * -EPROTO when it has other producers than an earlier repetition, or the
 * workload's -errno.
 */
int rep_run(const struct sweep_cfg *cfg, const struct point *pt, int rep,
	    bool (*stop_requested)(void), struct point_result *r);

/*
 * r->reason for err, "what: strerror(-err)", unless the workload already
 * gave one; it replaces a memory note (a caveat of an ok point only).
 */
void rep_set_reason(struct point_result *r, const char *what, int err);

#endif
