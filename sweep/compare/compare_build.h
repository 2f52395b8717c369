/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A comparison built from two result sets, as `compare` prints it and its
 * gate counts it: points joined by parameter values, each side's state,
 * per metric both sides' independent units, Welch's test and the decision
 * (decide.h) with its interval.  Diagnostics through diag; no output else.
 */
#ifndef SWEEP_COMPARE_BUILD_H
#define SWEEP_COMPARE_BUILD_H

#include "compare_print.h"

/* What a comparison is asked. */
struct compare_rule {
	double alpha;			/* of the test and the decision's interval */
	double bound_pct;		/* "same": no change beyond ±bound_pct */
	const char *const *ignore;	/* parameters left out of the match */
	int nr_ignore;
	bool allow_tcg;			/* a TCG (or icount) set against one that is not */
	const char *const *pick;	/* -e: comma-separated metric names to print */
	int nr_pick;
};

/*
 * c->base, c->new and their directories set: everything else of c.  A TCG
 * set against one that is not, a TCG icount set against one that is not
 * (both without allow_tcg), sets that cannot be
 * joined or share nothing are -EINVAL, said on stderr; -ENOMEM.
 */
int comparison_build(struct comparison *c, const struct compare_rule *rule);

void comparison_free(struct comparison *c);

/*
 * A point's moments of metric in rs (row: its summary row, 1-based): of
 * the independent units its measured intervals in samples.csv make, or,
 * where samples.csv holds none, from its summary row; a value a side did
 * not record has mean NaN.  0 or -ENOMEM.
 */
int compare_point_moments(const struct result_set *rs, int row, const char *metric,
			  enum cmp_kind kind, struct cmp_moments *m);

#endif
