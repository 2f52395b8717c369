// SPDX-License-Identifier: GPL-2.0
/* A chart's numeric x axis, linear or log2, its range and tics: see plotaxis.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plotaxis.h"

/*
 * The room tic labels have on the 1024-pixel chart of plots/lines.gp
 * (sans 13): about 860 pixels of plot between the y axis and the right
 * edge, a digit about 8 pixels wide, and a gap so that labels read apart.
 */
#define PLOT_WIDTH_PX	860.0
#define DIGIT_PX	8.0
#define TIC_GAP_PX	10.0
/* a linear axis of its own steps gets about this many tics, as gnuplot's own */
#define LINEAR_TICS	10

static int digits(long long v)
{
	char buf[24];

	return snprintf(buf, sizeof(buf), "%lld", v);
}

/* Where v sits along the axis, in the axis's own unit: log2 of it on a log axis. */
static double axis_pos(const struct plot_xaxis *ax, double v)
{
	return ax->log ? log2(v) : v;
}

/* Do the labels of ticks (ascending) stand apart on the axis's range? */
static bool ticks_fit(const struct plot_xaxis *ax, const long long *ticks, int nr)
{
	double px_per_unit = PLOT_WIDTH_PX / (axis_pos(ax, ax->hi) - axis_pos(ax, ax->lo));

	for (int i = 1; i < nr; i++) {
		double room = (axis_pos(ax, ticks[i]) - axis_pos(ax, ticks[i - 1])) * px_per_unit;
		double need = (digits(ticks[i]) + digits(ticks[i - 1])) * DIGIT_PX / 2 +
			      TIC_GAP_PX;

		if (room < need)
			return false;
	}
	return true;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* vals sorted, each once, into out (at most max); the number kept. */
static int distinct(const long long *vals, int nr, long long *out, int max)
{
	long long *tmp = malloc((nr ? nr : 1) * sizeof(*tmp));
	int n = 0;

	if (!tmp)
		return 0;
	memcpy(tmp, vals, nr * sizeof(*tmp));
	qsort(tmp, nr, sizeof(*tmp), cmp_ll);
	for (int i = 0; i < nr && n < max; i++)
		if (!n || tmp[i] != out[n - 1])
			out[n++] = tmp[i];
	free(tmp);
	return n;
}

/*
 * Three or more values (sorted, distinct, above 0), each the smallest
 * times a power of two: what a..b*2 expands to.  Drawn linear, 1 2 4 8
 * crowds 1 and 2 into an eighth of the width, however small the span.
 */
static bool doubling(const long long *v, int n)
{
	for (int i = 1; i < n; i++) {
		long long q = v[i] / v[0];

		if (v[i] % v[0] || q & (q - 1))
			return false;
	}
	return n >= 3;
}

/*
 * Every step-th power of two from the first at or above lo up to hi, then
 * hi itself, which replaces the power before it when the two would crowd.
 */
static int power_ticks(const struct plot_xaxis *ax, long long lo, long long hi, int step,
		       long long *ticks)
{
	int e = 0, n = 0;

	while (e < 62 && (1LL << e) < lo)
		e++;
	for (; e < 63 && (1LL << e) <= hi && n < PLOT_AXIS_MAX_TICKS - 1; e += step)
		ticks[n++] = 1LL << e;
	if (n && ticks[n - 1] == hi)
		return n;
	ticks[n++] = hi;
	if (n > 2 && !ticks_fit(ax, ticks + n - 2, 2)) {
		n--;
		ticks[n - 1] = hi;
	}
	return n;
}

/* Every value if their labels fit; else powers of two, every one or thinned, and the last. */
static void log_ticks(const long long *vals, int nr, struct plot_xaxis *ax)
{
	long long lo = vals[0], hi = vals[nr - 1];

	for (int step = 1; step < 63; step++) {
		ax->nr_ticks = power_ticks(ax, lo, hi, step, ax->ticks);
		if (ax->nr_ticks <= 2 || ticks_fit(ax, ax->ticks, ax->nr_ticks))
			return;
	}
}

/*
 * The smallest of 1, 2, 5, 10, 20, ... that makes about LINEAR_TICS tics
 * or fewer across the values, each label clear of the next: whole steps,
 * since every x is a whole number.
 */
static long long linear_step(const long long *vals, int nr, const struct plot_xaxis *ax)
{
	static const int mult[] = { 1, 2, 5 };
	long long span = vals[nr - 1] - vals[0], widest = 0;
	double px_per_unit = PLOT_WIDTH_PX / (ax->hi - ax->lo);

	for (int i = 0; i < nr; i++)
		if (digits(vals[i]) > widest)
			widest = digits(vals[i]);
	for (long long p = 1; p < 1000000000000000000LL; p *= 10) {
		for (int i = 0; i < 3; i++) {
			long long step = p * mult[i];

			if (span / step <= LINEAR_TICS &&
			    step * px_per_unit >= widest * DIGIT_PX + TIC_GAP_PX)
				return step;
		}
	}
	return 1000000000000000000LL;
}

/* The values' range, PLOT_AXIS_PAD of their span further each side, or one each side of one. */
static void axis_range(const long long *v, int n, struct plot_xaxis *ax)
{
	double lo = v[0], hi = v[n - 1], pad;

	ax->has_range = true;
	if (n == 1) {
		ax->lo = lo - 1;
		ax->hi = hi + 1;
	} else if (ax->log) {
		pad = pow(hi / lo, PLOT_AXIS_PAD);
		ax->lo = lo / pad;
		ax->hi = hi * pad;
	} else {
		pad = (hi - lo) * PLOT_AXIS_PAD;
		ax->lo = lo - pad;
		ax->hi = hi + pad;
	}
}

static bool want_log(const long long *v, int n, enum plot_logx logx, struct plot_xaxis *ax)
{
	if (logx == LOGX_OFF || n < 2)
		return false;
	if (v[0] <= 0) {
		ax->cannot_log = logx == LOGX_ON;
		return false;
	}
	return logx == LOGX_ON || v[n - 1] > PLOT_AXIS_LOG_SPAN * v[0] || doubling(v, n);
}

void plot_axis_choose(const long long *vals, int nr, enum plot_logx logx, struct plot_xaxis *ax)
{
	long long *v = malloc((nr ? nr : 1) * sizeof(*v));
	int n = v ? distinct(vals, nr, v, nr) : 0;

	memset(ax, 0, sizeof(*ax));
	if (!n)
		goto out;
	ax->log = want_log(v, n, logx, ax);
	axis_range(v, n, ax);
	ax->every_value = n <= PLOT_AXIS_MAX_TICKS && ticks_fit(ax, v, n);
	if (ax->every_value) {
		memcpy(ax->ticks, v, n * sizeof(*v));
		ax->nr_ticks = n;
	} else if (ax->log) {
		log_ticks(v, n, ax);
	} else {
		ax->step = linear_step(v, n, ax);
	}
out:
	free(v);
}
