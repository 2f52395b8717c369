/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chart's numeric x axis: linear, or log2 with the values themselves as
 * its tics.  Producers 1..52 drawn linear squeeze 1-4 into a corner; drawn
 * on log2 every doubling gets the same room, as the scaling it shows.
 * Pure (values in, decision out), so it is tested without gnuplot.
 */
#ifndef SWEEP_PLOTAXIS_H
#define SWEEP_PLOTAXIS_H

#include <stdbool.h>

#include "bind.h"

/* auto draws log2 when the largest x is more than this many times the smallest. */
#define PLOT_AXIS_LOG_SPAN	8
#define PLOT_AXIS_MAX_TICKS	64

struct plot_xaxis {
	bool log;		/* log2 */
	bool cannot_log;	/* logx = on, but a value is 0 or less: linear */
	bool every_value;	/* the tics are every value, else powers of two and the last */
	int nr_ticks;		/* 0 on a linear axis: gnuplot's own tics */
	long long ticks[PLOT_AXIS_MAX_TICKS];
};

/*
 * The axis of the x values vals (nr of them, any order, repeats allowed):
 * logx off, linear; on, log2 where every value is above 0; auto, log2 when
 * they are above 0 and span more than PLOT_AXIS_LOG_SPAN times, else
 * linear.  A log axis's tics are every value when their labels fit side by
 * side on the chart, else the powers of two between the smallest and the
 * largest (every other one, or fewer, when even those crowd) and the
 * largest value.
 */
void plot_axis_choose(const long long *vals, int nr, enum plot_logx logx, struct plot_xaxis *ax);

#endif
