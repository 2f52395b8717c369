/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scaling charts: a series' rates per producer (or per any parameter's
 * unit) and relative to its first point, so that machines of different
 * speed show how they scale, not how fast they are.
 */
#ifndef SWEEP_SCALING_H
#define SWEEP_SCALING_H

#include <stdbool.h>

/* One point of a chart series, in x order. */
struct series_pt {
	double per;		/* the point's value of the --per parameter (1 without) */
	double mean;
	double err;		/* its error bar's half-width */
};

/*
 * Divide each point by its `per` value when per, then, when relative, by
 * the first point's (normalised) mean.  Errors scale with their means; the
 * first point's own error is not carried into the others.  Returns 0, or
 * -EDOM (p unchanged) when a divisor is 0.
 */
int scaling_apply(struct series_pt *p, int nr, bool per, bool relative);

#endif
