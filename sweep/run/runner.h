/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Executes points: owns threads, CPU affinity, the sampler, signals and
 * progress output.  Knows workloads only through struct workload.
 */
#ifndef SWEEP_RUNNER_H
#define SWEEP_RUNNER_H

#include "matrix.h"
#include "plan.h"
#include "result.h"

/* Called after each point ends, before the next starts (write & flush it). */
typedef int (*point_done_fn)(const struct point_result *r, void *ctx);

/*
 * Run the points in order, or with decide each baseline's arms together
 * in interleaved rounds where its first point would run (rounds.h);
 * those plan's probe ruled out only get their row.  *results gets nr
 * entries in the order run, each .pt its point, of which the first
 * *nr_run were run (fewer when interrupted or when done() failed).
 * Returns 0, -EINTR when interrupted, or the first error of done().
 */
int runner_run(const struct sweep_cfg *cfg, const struct plan *plan, const struct point *pts,
	       int nr, point_done_fn done, void *ctx, struct point_result **results, int *nr_run);

struct gate;

/*
 * runner_run() whose points' units a sweep over kernels runs in rounds
 * (gate.h; NULL: none): each point on its own, in pts' order, announced
 * at the gate.
 */
int runner_run_gated(const struct sweep_cfg *cfg, const struct plan *plan,
		     const struct point *pts, int nr, struct gate *gate, point_done_fn done,
		     void *ctx, struct point_result **results, int *nr_run);

/* The signal that interrupted the last runner_run(), or 0. */
int runner_stop_signal(void);

void point_results_free(struct point_result *r, int nr);

#endif
