/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bisection over an ordered list of kernels (docs/kernel.md, "Bisect"):
 * kernel 0 is the good (old) end, kernel n - 1 the bad (new) one, and the
 * first bad kernel lies between.  The driver is pure: a step callback runs
 * and classifies a kernel (bisectstep.h says how, by a point's status or
 * by its metric), and the driver only chooses which kernel is next.
 *
 * A step is good, bad, undecided (its rounds ended without a word) or
 * skipped (it did not boot, its points could not run).  An undecided or
 * skipped kernel is never guessed: like git bisect's skip, the driver
 * tries the untested kernel nearest the middle instead, and when only
 * such kernels are left between the last good and the first bad, the
 * bisect ends undecided and names them all.
 */
#ifndef SWEEP_BISECT_H
#define SWEEP_BISECT_H

#include <stdbool.h>
#include <stddef.h>

enum bisect_verdict {
	BV_UNTESTED,
	BV_GOOD,
	BV_BAD,
	BV_UNDECIDED,
	BV_SKIP,
};

/* One step as run: which kernel, what it was, the figure it rests on, why it stopped. */
struct bisect_step {
	int kernel;			/* its index in the list */
	enum bisect_verdict verdict;
	double est_pct, lo_pct, hi_pct;	/* the step against the good end; NaN: by status */
	int units;			/* the units its figure rests on; 0: by status */
	int rounds;			/* runs of it (a round adds units) */
	char figure[96];		/* "-9.8 % [-11.0, -8.5]", or by status "ok" */
	char why[256];			/* "like good: no change beyond ±1.2 % (5 units)" */
};

/* How a bisect ended. */
enum bisect_outcome {
	BO_FOUND,	/* first_bad follows last_good */
	BO_UNDECIDED,	/* only undecided or skipped kernels lie between: the first bad is one of them or first_bad */
	BO_NO_STEP,	/* the ends are not good and bad: nothing to bisect (ends_why says why) */
	BO_ERROR,	/* a step's callback failed: err */
};

struct bisect_ops {
	/*
	 * Run both ends: 0 when they differ (a step is there to find; why
	 * says how they do), else -ENODATA with why (they do not differ, or
	 * an end did not run), or another -errno (the bisect stops).
	 */
	int (*ends)(void *arg, char *why, size_t len);
	/* Run and classify kernel k (0 < k < n - 1) into *st: 0, or -errno (the bisect stops). */
	int (*step)(void *arg, int k, struct bisect_step *st);
};

struct bisect {
	int n;				/* kernels, both ends included */
	enum bisect_verdict *state;	/* each kernel's, as far as known */
	struct bisect_step *steps;	/* in the order they ran (not the ends) */
	int nr_steps;
	int last_good, first_bad;	/* the bracket: the ends, narrowed by each step */
	enum bisect_outcome outcome;
	int err;			/* BO_ERROR's */
	char ends_why[256];		/* how the ends differ, or BO_NO_STEP's why not */
};

/* b for n kernels (n >= 2): 0 or -ENOMEM / -EINVAL. */
int bisect_init(struct bisect *b, int n);
void bisect_free(struct bisect *b);

/*
 * The kernel to run next, strictly between last_good and first_bad and
 * not yet tested: the one nearest the middle (the lower of two); -1: none
 * left.
 */
int bisect_next(const struct bisect *b);

/* Steps a bisect of n kernels takes with no skip: ceil(log2(n - 1)). */
int bisect_steps_needed(int n);

/* The whole bisect: the ends, then steps until the bracket closes or nothing is left to try. */
void bisect_run(struct bisect *b, const struct bisect_ops *ops, void *arg);

const char *bisect_verdict_name(enum bisect_verdict v);

#endif
