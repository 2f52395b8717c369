// SPDX-License-Identifier: GPL-2.0
/*
 * The bisect driver (bisect.h).  Why skipped and undecided kernels are
 * stepped around and never guessed: a kernel whose step said neither good
 * nor bad carries no evidence, and calling it either way would move the
 * bracket on a coin toss (the .NET perf repo's worry about git bisect on
 * unstable tests); the bracket only moves on a verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"

int bisect_init(struct bisect *b, int n)
{
	*b = (struct bisect){ .n = n, .last_good = 0, .first_bad = n - 1 };
	if (n < 2)
		return -EINVAL;
	b->state = calloc(n, sizeof(*b->state));
	b->steps = calloc(n, sizeof(*b->steps));
	if (!b->state || !b->steps) {
		bisect_free(b);
		return -ENOMEM;
	}
	return 0;
}

void bisect_free(struct bisect *b)
{
	free(b->state);
	free(b->steps);
	b->state = NULL;
	b->steps = NULL;
}

int bisect_next(const struct bisect *b)
{
	int lo = b->last_good, hi = b->first_bad, mid = lo + (hi - lo) / 2;

	/* outwards from the middle: mid, mid + 1, mid - 1, mid + 2, ... */
	for (int d = 0; d < hi - lo; d++) {
		int below = mid - d, above = mid + d + 1;

		if (below > lo && b->state[below] == BV_UNTESTED)
			return below;
		if (above < hi && b->state[above] == BV_UNTESTED)
			return above;
	}
	return -1;
}

int bisect_steps_needed(int n)
{
	int steps = 0;

	for (int span = n - 1; span > 1; span = (span + 1) / 2)
		steps++;
	return steps;
}

/* Step k's verdict moves the bracket (good, bad) or only marks k (undecided, skip). */
static void take_step(struct bisect *b, const struct bisect_step *st)
{
	b->state[st->kernel] = st->verdict;
	if (st->verdict == BV_GOOD)
		b->last_good = st->kernel;
	else if (st->verdict == BV_BAD)
		b->first_bad = st->kernel;
}

void bisect_run(struct bisect *b, const struct bisect_ops *ops, void *arg)
{
	int k, err = ops->ends(arg, b->ends_why, sizeof(b->ends_why));

	if (err) {
		b->outcome = err == -ENODATA ? BO_NO_STEP : BO_ERROR;
		b->err = err;
		return;
	}
	b->state[0] = BV_GOOD;
	b->state[b->n - 1] = BV_BAD;
	while ((k = bisect_next(b)) >= 0) {
		struct bisect_step *st = &b->steps[b->nr_steps];

		*st = (struct bisect_step){ .kernel = k, .verdict = BV_SKIP, .est_pct = NAN,
					    .lo_pct = NAN, .hi_pct = NAN };
		err = ops->step(arg, k, st);
		if (err) {
			b->outcome = BO_ERROR;
			b->err = err;
			return;
		}
		b->nr_steps++;
		take_step(b, st);
	}
	b->outcome = b->first_bad - b->last_good == 1 ? BO_FOUND : BO_UNDECIDED;
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	static const char *const names[] = {
		[BV_UNTESTED] = "untested", [BV_GOOD] = "good", [BV_BAD] = "bad",
		[BV_UNDECIDED] = "undecided", [BV_SKIP] = "skip",
	};

	return names[v];
}
