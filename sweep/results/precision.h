/* SPDX-License-Identifier: GPL-2.0 */
/*
 * [sweep] precision: repetitions added to a point until the 95 %
 * confidence half-width of its headline metric, over independent units
 * (units.h), is within a target share of its mean, or a budget runs out
 * (docs/spec.md, docs/statistics.md).
 */
#ifndef SWEEP_PRECISION_H
#define SWEEP_PRECISION_H

#include <stddef.h>
#include <stdint.h>

#include "bindval.h"
#include "decide.h"
#include "model.h"
#include "result.h"

/* The fewest repetitions, hence units, a precision run stops at. */
#define PRECISION_MIN_UNITS	5

/*
 * Its budget's default cap on the repetitions of a point is
 * PRECISION_MAX_REPEAT (model.h), and the target's text ("2%") is read by
 * precision_parse() (bindval.h): both belong to the spec, which the binder
 * reads without this file.
 */

/*
 * Repetitions a point runs at least: repeat, and with a precision or
 * decide (rounds: one repetition of each arm a round) at least
 * PRECISION_MIN_UNITS.
 */
int precision_min_reps(const struct sweep_cfg *cfg);

/* Repetitions a point runs at most: repeat, or with a precision or decide max_repeat. */
int precision_max_reps(const struct sweep_cfg *cfg);

/*
 * Would one more repetition (or round) like the done ones so far, in
 * elapsed_ns, pass max_time?  false without a max_time.  The one pace rule
 * of precision's repetitions and decide's rounds (rounds.c, conductor.c).
 */
bool precision_past_time(const struct sweep_cfg *cfg, int done, uint64_t elapsed_ns);

/* decide's error rate: of every interval its rounds look at, jointly (decide.h). */
#define DECIDE_ALPHA	0.05

/*
 * How closely TCG icount units repeat, in percent: decide's exact_pct when
 * every kernel of a sweep is a guest under tcg-icount, or the run is in
 * one (sweep_cfg.icount_guest).  Measured here
 * (docs/kernel.md, "Numbers that do not move"): repetitions and boots of
 * one kernel within 0.05 %, also beside a CPU hog on the host; twice that.
 */
#define DECIDE_ICOUNT_TOL_PCT	0.1

/*
 * [sweep] decide as decide.h's rule: its bound, and rounds from
 * precision_min_reps() to precision_max_reps(), and exact_pct
 * DECIDE_ICOUNT_TOL_PCT when the units are instruction time (TCG icount);
 * the rounds (rounds.c, conductor.c) and meta's line take it from here.
 */
void precision_decide_rule(const struct sweep_cfg *cfg, struct decide_rule *rule);

/* The 95 % half-width of r's headline metric in percent of its mean; NaN unknown. */
double precision_half_width_pct(const struct point_result *r);

/*
 * After reps repetitions of r (summarized, its quality assessed) that took
 * elapsed_ns: should the point stop?  If so, why, into r->stop: "target"
 * (within the precision and no trend, bimodal, interference or starved flag),
 * "budget" (max_repeat, or max_time with one more repetition), or
 * "vetoed: FLAGS" (the budget ran out with the target met but flagged).
 */
bool precision_stop(const struct sweep_cfg *cfg, struct point_result *r, int reps,
		    uint64_t elapsed_ns);

#endif
