/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chart's numeric x axis: linear or log2, its range and its tics.
 * Producers 1..52 drawn linear squeeze 1-4 into a corner; drawn on log2
 * every doubling gets the same room, as the scaling it shows.  The range
 * runs a little past the end values, so that their error bars are not
 * drawn on the frame; the tics are at x values (or whole steps), never at
 * 1.5 producers.  Pure (values in, decision out), so it is tested
 * without gnuplot.
 */
#ifndef SWEEP_PLOTAXIS_H
#define SWEEP_PLOTAXIS_H

#include <stdbool.h>

#include "bind.h"

/* auto draws log2 when the largest x is more than this many times the smallest. */
#define PLOT_AXIS_LOG_SPAN	8
#define PLOT_AXIS_MAX_TICKS	64
/* The range runs this fraction of the values' span (of its log, on log2) past each end. */
#define PLOT_AXIS_PAD		0.03

struct plot_xaxis {
	bool log;		/* log2 */
	bool cannot_log;	/* logx = on, but a value is 0 or less: linear */
	bool every_value;	/* the tics are every value, else powers of two and the last */
	int nr_ticks;		/* 0: a tic every `step` */
	long long ticks[PLOT_AXIS_MAX_TICKS];
	long long step;		/* linear, nr_ticks 0: 1, 2 or 5 times a power of 10 */
	bool has_range;		/* false only without values */
	double lo, hi;		/* the range drawn */
};

/*
 * The axis of the x values vals (nr of them, any order, repeats allowed):
 * logx off, linear; on, log2 where every value is above 0; auto, log2 when
 * they are above 0 and either span more than PLOT_AXIS_LOG_SPAN times or
 * are three or more of a doubling series (the smallest times powers of
 * two: 1 2 4 8, 3 6 12), else linear.
 *
 * A log axis's tics are every value when their labels fit side by side on
 * the chart, else the powers of two between the smallest and the largest
 * (every other one, or fewer, when even those crowd) and the largest
 * value.  A linear axis's are every value when they fit, else every step,
 * a whole number, of about ten across.  The range is the values' padded
 * by PLOT_AXIS_PAD of their span each side (multiplied on log2), or one
 * each side of a single value.
 */
void plot_axis_choose(const long long *vals, int nr, enum plot_logx logx, struct plot_xaxis *ax);

#endif
