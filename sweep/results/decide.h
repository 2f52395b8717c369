/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decision on a difference (docs/statistics.md, "Decisions"): from
 * independent units of two arms, one of three words a cover letter can
 * quote, with the interval it rests on:
 *   different  the interval of NEW / BASE excludes 1 ("+12.0 % [+9.1, +15.0]")
 *   same       the interval lies within ±bound ("no change beyond ±1.3 %")
 *   undecided  neither: effects up to the interval's far end are not ruled out
 * Both errors are bounded by one rule: each word is said only of an
 * interval, and every interval the rule ever looks at covers the true
 * ratio with probability 1 - alpha jointly.  A fixed comparison looks once
 * (the whole alpha); a sequential one (rounds added until a word is said)
 * looks at a fixed schedule of round counts and spends a share of alpha at
 * each (a Bonferroni split over the looks, so the joint coverage holds
 * whatever the data make the rounds stop at).  Units that are
 * deterministic (TCG icount's instruction time) may be decided without
 * chance at all: rounds whose ratios agree within a stated tolerance give
 * the ratio, within it, at once (decide_rule.exact_pct).  Pure arithmetic:
 * no I/O.
 */
#ifndef SWEEP_DECIDE_H
#define SWEEP_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

enum decision {
	DECIDE_NO_TEST,		/* too few units for an interval */
	DECIDE_DIFFERENT,
	DECIDE_SAME,
	DECIDE_UNDECIDED,
};

/* The fewest units (rounds, or units a side) an interval is made from. */
#define DECIDE_MIN_UNITS	3

/*
 * What is asked.  bound_pct 0 asks for no "same": an interval that holds 1
 * is then undecided, its far end still what it rules out.
 */
struct decide_rule {
	double alpha;		/* the joint error rate, 0.05 */
	double bound_pct;	/* "same" within ±bound_pct percent */
	int min_rounds;		/* the first look (sequential) */
	int max_rounds;		/* the last look (sequential); 0: one fixed look */
	/*
	 * > 0: the units are deterministic to within this many percent (TCG
	 * icount): from DECIDE_EXACT_ROUNDS rounds on, rounds whose log
	 * ratios all lie within exact_pct of each other decide at once, with
	 * the interval [lowest - exact_pct, highest + exact_pct]; rounds that
	 * do not agree are left to the sequential rule.  0: none.
	 */
	double exact_pct;
};

/* The fewest rounds whose agreement decides deterministic units: one round shows none. */
#define DECIDE_EXACT_ROUNDS	2

/* The answer: NEW / BASE - 1 in percent, with its interval. */
struct decide_result {
	enum decision word;
	int n;			/* rounds (paired), or the smaller side's units */
	double est_pct;		/* NaN when not known */
	double lo_pct, hi_pct;	/* the interval; NaN with DECIDE_NO_TEST */
	double level;		/* the interval's own confidence, 1 - the alpha spent at it */
	double far_pct;		/* max(|lo_pct|, |hi_pct|): no change beyond it is ruled out */
	bool final;		/* the last look: no more rounds will come */
	bool paired;		/* of rounds (decide_paired()), not of two sides' units */
	double exact_pct;	/* the rule's exact_pct: > 0 when the units were to be deterministic */
	bool exact;		/* decided by the rounds' agreement within exact_pct (level 1) */
	bool deterministic;	/* of a deterministic metric (decide_deterministic()): no interval */
};

/*
 * Is n rounds a look of rule's schedule?  The looks start at min_rounds
 * and double up to max_rounds, which is always one (5, 10, 20): few looks
 * keep each one's share of alpha large, and a large effect still stops at
 * the first.  With exact_pct every round from DECIDE_EXACT_ROUNDS on is a
 * look too, for the rounds' agreement only: it spends no alpha.
 */
bool decide_is_look(const struct decide_rule *rule, int n);

/* The schedule's looks, "5, 10, 20", into buf. */
void decide_looks(const struct decide_rule *rule, char *buf, size_t len);

/*
 * The alpha spent at look n: rule->alpha times n over the sum of all
 * looks' round counts (later looks, with more rounds, get more, where
 * small effects are decided).  last: the budget ended at n (a look or
 * not): whatever the earlier looks left is spent here.  The whole alpha
 * for a fixed rule (max_rounds 0).
 */
double decide_look_alpha(const struct decide_rule *rule, int n, bool last);

/* d: no test of n units (too few, or a round without a ratio), NEW / BASE - 1 est_pct. */
void decide_no_test(struct decide_result *d, int n, double est_pct);

/*
 * A round's log(x / base) into *lr; false when it has none: a side
 * measured nothing (0), or a value is not known (NaN, infinite).
 */
bool decide_log_ratio(double x, double base, double *lr);

/* The mean of x[0..n) and Student's t half-width at 1 - alpha; the half-width NaN for n < 2. */
void decide_t_interval(const double *x, int n, double alpha, double *mean, double *half);

/*
 * Paired rounds: lr[0..n) each round's log(NEW / BASE).  The interval is
 * the mean log ratio's Student t interval at the look's level, as a
 * ratio.  last as for decide_look_alpha().  With rule->exact_pct, rounds
 * that agree are decided exactly (d->exact) at any look; at a look of
 * agreement only (not the schedule's) rounds that do not agree have no
 * test yet.  0 or -EINVAL (n not a look and not last).
 */
int decide_paired(const struct decide_rule *rule, const double *lr, int n, bool last,
		  struct decide_result *d);

/*
 * Two independent sides, each its units' mean, sample sd and count (one
 * fixed look): Welch's interval of new - base, in percent of base.
 */
void decide_welch(const struct decide_rule *rule, double base_mean, double base_sd, long base_n,
		  double new_mean, double new_sd, long new_n, struct decide_result *d);

/*
 * A deterministic metric's two values (metric_def.deterministic: the same
 * in every repetition by construction), decided at once from n units: any
 * difference is different, equality is same; the interval is the point
 * itself (level 1).  NaN on a side, or a base of 0 with a new that is
 * not: no test.
 */
void decide_deterministic(double base, double new, int n, struct decide_result *d);

/*
 * Welch's standard error of new - base and its Welch-Satterthwaite degrees
 * of freedom (NaN when both variances are 0), for decide_welch() and
 * compare's p-value alike.
 */
void decide_welch_se(double base_sd, long base_n, double new_sd, long new_n, double *se,
		     double *df);

/*
 * The decision as a cover letter quotes it, into buf, with word in place
 * of the decision's own name where not NULL ("faster", "slower"):
 *   "different: -31.1 % [-32.0, -30.2]"
 *   "same: no change beyond ±1.3 %"
 *   "undecided: changes up to ±7.0 % not ruled out"
 *   "undecided after 20 rounds: changes up to ±7.0 % not ruled out"  (paired, final)
 *   "no test (< 3 units)"
 *   "different: +12.5 % (exact)", "same: identical"  (decide_deterministic())
 * Numbers in percent of BASE, interval at d->level.  Of a rule with
 * exact_pct it says which way it was decided:
 *   "different: +40.5 % [+40.4, +40.7] (exact: rounds agree within 0.1 %)"
 *   "same: ... (rounds vary beyond 0.1 %: sequential rule)"
 */
int decide_text(const struct decide_result *d, const char *word, char *buf, size_t len);

const char *decision_name(enum decision w);

#endif
