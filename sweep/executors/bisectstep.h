/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bisect step's verdict from its points (docs/kernel.md, "Bisect"), pure
 * arithmetic over what each run measured.  The two ends say, point by
 * point, how a step is judged:
 *   by status  the point is ok on one end and not on the other (a
 *              functional bisect: when did overwrite mode appear); a step
 *              whose point has the good end's status is good, the bad
 *              end's bad, any other skip;
 *   by metric  ok on both, and the headline metric of the bad end differs
 *              from the good end's beyond the bound (decide.h's Welch
 *              interval lies wholly outside ±bound); a step is like good
 *              when its interval against the good end lies within half the
 *              ends' gap, like bad when against the bad end it does, else
 *              undecided: another round adds units, and one
 *              still undecided after the budget is reported as such;
 *   neither    the ends agree: the point says nothing of where a change is.
 * A step is good (bad) when every judging point says so, undecided when
 * one cannot tell or they disagree, skip when one could not run.
 */
#ifndef SWEEP_BISECTSTEP_H
#define SWEEP_BISECTSTEP_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect.h"
#include "decide.h"

/* One point of one run: its status and its headline metric's independent units. */
struct bisect_obs {
	char status[16];		/* summary.csv's ("ok", "unsupported", ...); "" no row */
	double mean, sd;		/* the units' mean and sample sd */
	long n;				/* units; 0: none */
	char reason[160];		/* why it is not ok, as its row says */
};

enum bisect_by { BB_NONE, BB_STATUS, BB_METRIC };

/* One point and what its ends said. */
struct bisect_point {
	char name[160];			/* for messages: "ringbuf overwrite, producers 1" */
	enum bisect_by by;
	struct bisect_obs good, bad;
	struct decide_result ends;	/* BB_METRIC: bad against good */
};

/*
 * What is asked: alpha (split over a step's looks and its two tests) and
 * the bound the ends must differ beyond; a step's budget in rounds, each
 * adding the units one run gives.
 */
struct bisect_rule {
	double alpha;
	double bound_pct;
	int max_rounds;
	const char *good, *bad;		/* what the ends are called: "good" (NULL), "old" */
};

/* Pools b's units into a (two runs of one kernel): means and variances combined. */
void bisect_obs_pool(struct bisect_obs *a, const struct bisect_obs *b);

/* How point p is judged, from its ends p->good and p->bad (p->by, p->ends). */
void bisect_point_ends(const struct bisect_rule *rule, struct bisect_point *p);

/*
 * The step whose points (in the order of pts) measured obs[0..nr), its
 * units pooled over round rounds (round == rule->max_rounds: the last):
 * its verdict, figure and why into *st.  st->verdict BV_UNDECIDED with
 * !last asks for another round only when a point's metric could not yet
 * tell; a status that is neither end's, or points that disagree, is final.
 * Returns true when another round may help.
 */
bool bisect_classify(const struct bisect_rule *rule, const struct bisect_point *pts,
		     const struct bisect_obs *obs, int nr, int round, struct bisect_step *st);

/* Do any of the points judge (not all BB_NONE)?  by_status: one judges by status. */
bool bisect_points_judge(const struct bisect_point *pts, int nr, bool *by_status,
			 bool *by_metric);

#endif
