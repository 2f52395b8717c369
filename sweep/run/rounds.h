/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interleaved rounds ([sweep] decide, docs/statistics.md "Decisions"):
 * the points of an experiment with a baseline that differ only in the
 * baseline's parameter are the arms of one set.  A round runs one
 * repetition of every arm, in an order shuffled anew each round, so that
 * what drifts on the machine (its load, a ringbuf point's 9 and 18 M/s
 * states) falls on every arm alike; each arm's evidence is its headline
 * metric's log ratio to the baseline's, round by round, and rounds are
 * added until decide.h's sequential rule decides every arm, or the
 * budget (max_repeat rounds, max_time) ends.
 */
#ifndef SWEEP_ROUNDS_H
#define SWEEP_ROUNDS_H

#include <stdbool.h>

#include "matrix.h"
#include "plan.h"
#include "progress.h"
#include "result.h"

/*
 * A run of the points, in the order they run: single points, and sets of
 * arms that run together (positions first .. first + nr - 1 of the order).
 */
struct arm_set {
	int first;
	int nr;			/* 1: a point on its own */
	int base;		/* the baseline's position in the order; -1 on its own */
};

/*
 * The order the points pts[0..nr) run in, into order[0..nr) (indexes of
 * pts), and the sets over it into sets[0..*nr_sets).  Without decide each
 * point is its own set, in pts' order.  With it, each baseline's set runs
 * where its first point would have: its arms are the runnable points
 * (plan's probe) equal to the baseline in every parameter but the
 * baseline's; a point without a runnable baseline runs on its own.
 */
void rounds_order(const struct sweep_cfg *cfg, const struct plan *plan, const struct point *pts,
		  int nr, int *order, struct arm_set *sets, int *nr_sets);

/* What rounds_run() needs of the runner around it. */
struct rounds_io {
	bool (*stop_requested)(void);
	struct progress *prog;
};

/*
 * Run set's rounds: res[set->first .. + set->nr) are its arms' results,
 * each .pt set.  Every arm's repetitions go into its result with the
 * round as rep and its place in the round as slot; every arm but the
 * baseline gets its decision (has_decision), every arm its stop reason.
 * err[i] gets each arm's error (0, or the -errno of the repetition that
 * failed, -EINTR when asked to stop); the rounds end at the first.
 * Returns 0 or -ENOMEM.
 */
int rounds_run(const struct sweep_cfg *cfg, const struct arm_set *set,
	       const struct rounds_io *io, struct point_result *res, int *err);

#endif
