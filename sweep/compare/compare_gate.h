/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare --fail-above PCT: the gate a CI job runs on a comparison.  It
 * fails closed: what it could not decide is counted and named, never
 * passed in silence (docs/compare.md, "Gates").
 */
#ifndef SWEEP_COMPARE_GATE_H
#define SWEEP_COMPARE_GATE_H

#include "compare_print.h"

struct gate_tally {
	int regressions;	/* the headline metric worse beyond PCT, or a point that broke */
	int inconclusive;	/* a change vetoed by a quality flag */
	int untested;		/* too few units, or n not known: nothing was tested */
	int undecided;		/* tested, but changes beyond PCT are not ruled out */
};

/*
 * Add c's headline verdicts under PCT to *t, naming each regression (as an
 * error), and each point inconclusive, untested or undecided (as a warning)
 * on stderr.
 */
void compare_gate(const struct comparison *c, double pct, struct gate_tally *t);

/*
 * --fail-above PCT over every comparison of cs[0..nr): each one's verdicts
 * (compare_gate()), then one warning line of the tally; EXIT_POINTS_FAILED
 * (1) for a regression, EXIT_UNDECIDED (3) for a point it could not pass,
 * else EXIT_OK.
 */
int compare_gate_all(const struct comparison *cs, int nr, double pct);

/*
 * One line of advice where units were too few for a test (a warning on
 * stderr): the user can act on it, and a gate cannot pass what was not
 * tested.
 */
void compare_advise_units(const struct comparison *cs, int nr);

#endif
