// SPDX-License-Identifier: GPL-2.0
/* A chart's numeric x axis, linear or log2, and its tics: see plotaxis.h. */
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

static int digits(long long v)
{
	char buf[24];

	return snprintf(buf, sizeof(buf), "%lld", v);
}

/* Do the labels of ticks (ascending), on a log axis from lo to hi, stand apart? */
static bool ticks_fit(const long long *ticks, int nr, long long lo, long long hi)
{
	double px_per_doubling = PLOT_WIDTH_PX / (log2((double)hi) - log2((double)lo));

	for (int i = 1; i < nr; i++) {
		double room = (log2((double)ticks[i]) - log2((double)ticks[i - 1])) *
			      px_per_doubling;
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
 * Every step-th power of two from the first at or above lo up to hi, then
 * hi itself, which replaces the power before it when the two would crowd.
 */
static int power_ticks(long long lo, long long hi, int step, long long *ticks)
{
	int e = 0, n = 0;

	while (e < 62 && (1LL << e) < lo)
		e++;
	for (; e < 63 && (1LL << e) <= hi && n < PLOT_AXIS_MAX_TICKS - 1; e += step)
		ticks[n++] = 1LL << e;
	if (n && ticks[n - 1] == hi)
		return n;
	ticks[n++] = hi;
	if (n > 2 && !ticks_fit(ticks + n - 2, 2, lo, hi)) {
		n--;
		ticks[n - 1] = hi;
	}
	return n;
}

/* Every value if their labels fit, else powers of two, every one or thinned, and the last. */
static void log_ticks(const long long *vals, int nr, struct plot_xaxis *ax)
{
	long long lo = vals[0], hi = vals[nr - 1];

	ax->every_value = nr <= PLOT_AXIS_MAX_TICKS && ticks_fit(vals, nr, lo, hi);
	if (ax->every_value) {
		memcpy(ax->ticks, vals, nr * sizeof(*vals));
		ax->nr_ticks = nr;
		return;
	}
	for (int step = 1; step < 63; step++) {
		ax->nr_ticks = power_ticks(lo, hi, step, ax->ticks);
		if (ax->nr_ticks <= 2 || ticks_fit(ax->ticks, ax->nr_ticks, lo, hi))
			return;
	}
}

void plot_axis_choose(const long long *vals, int nr, enum plot_logx logx, struct plot_xaxis *ax)
{
	long long *v = malloc((nr ? nr : 1) * sizeof(*v));
	int n = v ? distinct(vals, nr, v, nr) : 0;

	memset(ax, 0, sizeof(*ax));
	if (logx == LOGX_OFF || n < 2)
		goto out;
	if (v[0] <= 0) {
		ax->cannot_log = logx == LOGX_ON;
		goto out;
	}
	ax->log = logx == LOGX_ON || v[n - 1] > PLOT_AXIS_LOG_SPAN * v[0];
	if (ax->log)
		log_ticks(v, n, ax);
out:
	free(v);
}
