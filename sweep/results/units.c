// SPDX-License-Identifier: GPL-2.0
/*
 * Independent units of a metric's measured intervals (units.h): the
 * repetitions' means, or batch means within each repetition.  Why these
 * and not the intervals: docs/statistics.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "units.h"

/* Where repetition runs start: first[k] the index of run k's first value; returns runs. */
static int rep_runs(const int *rep, int n, int *first)
{
	int runs = 0;

	for (int i = 0; i < n; i++)
		if (!i || rep[i] != rep[i - 1])
			first[runs++] = i;
	first[runs] = n;
	return runs;
}

/*
 * Lag-1 autocorrelation pooled over the repetitions, each about its own
 * mean (a repetition's level is its setup's, not a correlation in time):
 * sum (x_i - m)(x_i+1 - m) / sum (x_i - m)².  The estimate is biased low
 * by about (1 + 3 rho) / n on a series of n (Marriott and Pope, 1954):
 * added back, since a short series would otherwise look independent.
 * *pairs: how many neighbouring pairs it is over.
 */
static double lag1(const double *x, const int *first, int runs, int *pairs)
{
	double num = 0, den = 0, rho;

	for (int k = 0; k < runs; k++) {
		const double *v = x + first[k];
		int len = first[k + 1] - first[k];
		double m = gsl_stats_mean(v, 1, len);

		for (int i = 0; i < len; i++) {
			den += (v[i] - m) * (v[i] - m);
			if (i + 1 < len) {
				num += (v[i] - m) * (v[i + 1] - m);
				(*pairs)++;
			}
		}
	}
	if (!*pairs)
		return NAN;
	if (den == 0)
		return 0;
	rho = num / den;
	rho += (1 + 3 * rho) * runs / (*pairs + runs);
	return fmin(rho, 0.99);
}

/*
 * Intervals per batch for lag-1 autocorrelation rho over pairs neighbours:
 * 1 when the intervals look independent; a whole repetition when there
 * are too few pairs to tell (n, longer than any).
 */
static int batch_len(double rho, int pairs, int n)
{
	if (pairs < UNITS_MIN_PAIRS)
		return n;
	if (!(rho > 0))
		return 1;
	return (int)ceil(UNITS_BATCH_FACTOR * (1 + rho) / (1 - rho));
}

/*
 * Each run of len values cut into max(1, len / b) consecutive batches of
 * near-equal size (no value is dropped): their means into unit[].
 */
static int batch_means(const double *x, const int *first, int runs, int b, double *unit)
{
	int nu = 0;

	for (int k = 0; k < runs; k++) {
		int len = first[k + 1] - first[k], nb = len / b > 1 ? len / b : 1;

		for (int j = 0; j < nb; j++) {
			int lo = first[k] + (int)((long)len * j / nb);
			int hi = first[k] + (int)((long)len * (j + 1) / nb);

			unit[nu++] = gsl_stats_mean(x + lo, 1, hi - lo);
		}
	}
	return nu;
}

double units_ci95(double sd, long n)
{
	if (n < 2 || isnan(sd))
		return NAN;
	return gsl_cdf_tdist_Pinv(0.975, n - 1) * sd / sqrt(n);
}

static void units_fill(const double *unit, int nu, struct units *u)
{
	u->n = nu;
	u->mean = gsl_stats_mean(unit, 1, nu);
	u->sd = nu > 1 ? gsl_stats_sd_m(unit, 1, nu, u->mean) : NAN;
	u->ci95 = units_ci95(u->sd, nu);
}

void units_unknown(struct units *u)
{
	*u = (struct units){ .kind = UK_NONE, .rho = NAN, .mean = NAN, .sd = NAN, .ci95 = NAN };
}

int units_of(const double *x, const int *rep, int n, struct units *u)
{
	int *first, runs, pairs = 0;
	double *unit;

	units_unknown(u);
	if (n <= 0)
		return 0;
	first = malloc((n + 1) * sizeof(*first));
	unit = malloc(n * sizeof(*unit));
	if (!first || !unit) {
		free(first);
		free(unit);
		return -ENOMEM;
	}
	runs = rep_runs(rep, n, first);
	u->rho = lag1(x, first, runs, &pairs);
	if (runs >= UNITS_MIN_REPS) {
		u->kind = UK_REP;
		units_fill(unit, batch_means(x, first, runs, n + 1, unit), u);
	} else {
		u->kind = UK_BATCH;
		u->batch = batch_len(u->rho, pairs, n);
		units_fill(unit, batch_means(x, first, runs, u->batch, unit), u);
	}
	free(first);
	free(unit);
	return 0;
}

const char *unit_kind_name(enum unit_kind k)
{
	return k == UK_REP ? "rep" : k == UK_BATCH ? "batch" : "";
}

enum unit_kind unit_kind_parse(const char *s)
{
	if (!strcmp(s, "rep"))
		return UK_REP;
	if (!strcmp(s, "batch"))
		return UK_BATCH;
	return UK_NONE;
}
