/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of `bpfsweep compare`, apart from files and output: points
 * of two result sets joined by their parameter values, and per metric a
 * Welch t-test of the two sides' independent units and a verdict.
 * See docs/compare.md for the rules.
 */
#ifndef SWEEP_COMPARE_H
#define SWEEP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "csvfile.h"
#include "decide.h"

/* One pair of summary rows (1-based, as in csv_table); -1 on the side that lacks it. */
struct cmp_match {
	int base_row;
	int new_row;
};

struct cmp_join {
	struct cmp_match *m;	/* base's rows in file order, then rows only in new */
	int nr;
	bool by_title;		/* the experiment title is part of the key */
	char **params;		/* names of the parameters both sets have, in base's order */
	int nr_params;
	int *base_col, *new_col;	/* their columns in each summary */
};

/*
 * Join two summary tables (header in row 0; parameters are the columns between
 * `experiment` and `status`) by the values of the parameters both have, and
 * by experiment title when both sets hold the same titles.  A parameter only
 * one set has must hold one value throughout that set; a key found twice in
 * one set cannot be matched.  Either is -EINVAL with why saying which.
 * The parameters named in ignore are left out of the key altogether.
 */
int cmp_join(const struct csv_table *base, const struct csv_table *new,
	     const char *const *ignore, int nr_ignore, struct cmp_join *j,
	     char *why, size_t whylen);
void cmp_join_free(struct cmp_join *j);

/*
 * What a side of a comparison is: its independent units' (units.h) mean,
 * sample stddev, and count.
 */
struct cmp_moments {
	double mean;
	double sd;
	long n;		/* -1: not known (numbers imported from bench output) */
};

/*
 * Units a side needs for a test: with two, t has one degree of freedom and
 * the sd of two numbers decides everything (docs/statistics.md).
 */
#define CMP_MIN_UNITS	3

/* Moments of x[0..n-1] (sd 0 for n < 2). */
void cmp_moments_of(const double *x, long n, struct cmp_moments *m);

/* Welch's unequal-variances t-test, two-sided. */
struct cmp_test {
	bool done;		/* false when a side has n < CMP_MIN_UNITS: no test */
	double t, df, p;	/* df is NaN when both sides have zero variance */
};

void cmp_welch(const struct cmp_moments *base, const struct cmp_moments *new,
	       struct cmp_test *t);

/*
 * Which way a metric gets better, as its result set says (metricmeta.h):
 * neither way for counters that grow with the work (prog_ns), not known
 * for a rate an imported page does not name.
 */
enum cmp_better { CMP_HIGHER_BETTER, CMP_LOWER_BETTER, CMP_NEITHER_BETTER, CMP_BETTER_UNKNOWN };

enum cmp_verdict {
	CMP_UNTESTED,		/* no test possible (n < CMP_MIN_UNITS) */
	CMP_NO_N,		/* no test possible: a side's n is not known */
	CMP_UNKNOWN,		/* n/a: a side did not record the value */
	CMP_SAME,		/* no change beyond the decision's bound (decide.h) */
	CMP_IMPROVED,
	CMP_REGRESSED,
	CMP_CHANGED,		/* significant, of a metric with no better direction */
	CMP_INCONCLUSIVE,	/* would be a change, but a flag breaks the test's assumptions */
	CMP_UNDECIDED,		/* no change found, nor changes beyond the bound ruled out */
};

/* The test's verdict: CMP_SAME is "no significant change" until cmp_settle() says which. */
enum cmp_verdict cmp_verdict_of(const struct cmp_moments *base, const struct cmp_moments *new,
				const struct cmp_test *t, double alpha, enum cmp_better dir);

/*
 * A deterministic metric's verdict (metric_def.deterministic): no test, a
 * change of its mean is a change, in the direction's words; n/a where a
 * side did not record it.
 */
enum cmp_verdict cmp_exact_verdict(const struct cmp_moments *base, const struct cmp_moments *new,
				   enum cmp_better dir);

/*
 * No significant change is "same" only where the decision's interval
 * (decide.h) rules out every change beyond its bound, else "undecided":
 * three units a side at 5 % noise leave changes of 10 % unseen.
 */
enum cmp_verdict cmp_settle(enum cmp_verdict v, const struct decide_result *d);

/*
 * A change (faster, slower, changed) of a point that either side flagged
 * with a flag that breaks the test's assumptions (cmp_vetoing_flags()) is
 * inconclusive: the test assumes samples the flags say these are not.
 * Any other verdict stands.
 */
enum cmp_verdict cmp_veto(enum cmp_verdict v, bool flagged);

/*
 * Does a quality cell (quality.h's text) hold a flag that vetoes a change:
 * trend (the mean still moving), bimodal (two regimes: a mean of neither),
 * starved (a worker did nothing) or zero?  Noise alone (cv, interference,
 * steal) does not: it widens the units' spread, and so the interval.
 */
bool cmp_vetoing_flags(const char *quality);

/*
 * "faster", "slower" (or "better", "worse" for lower-is-better metrics),
 * "changed", "same", "undecided", "inconclusive", "n/a (not recorded)", ...
 */
const char *cmp_verdict_text(enum cmp_verdict v, enum cmp_better dir);

/*
 * compare --paired: NEW / BASE over rounds run interleaved, the
 * geometric mean of the rounds' ratios.
 */
struct cmp_ratio {
	int n;			/* rounds with a ratio (both means above 0) */
	double ratio;		/* NaN when n is 0 */
	double lo, hi;		/* its 1 - alpha confidence interval; NaN when n < 2 */
	double min, max;	/* of the rounds' ratios */
	struct decide_result decision;	/* over them, one look: "same" within bound_pct */
};

/* base[i] and new[i]: round i's mean on each side.  0 or -ENOMEM. */
int cmp_paired_ratio(const double *base, const double *new, int n, double alpha,
		     double bound_pct, struct cmp_ratio *r);

/* (new - base) / base in percent; NaN when base is 0. */
double cmp_delta_pct(double base, double new);

#endif
