// SPDX-License-Identifier: GPL-2.0
/*
 * units.c: the independent units a point's interval and compare's test
 * stand on.  Synthetic AR(1) series at rho 0.65 (what neighbouring
 * intervals of a ringbuf point correlate at on this project's test host:
 * docs/statistics.md) show why: the naive interval over the intervals
 * covers the true mean far less often than 95 %, the units' near it.
 * The RNG is seeded: every run draws the same series.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "check.h"
#include "compare.h"
#include "result.h"
#include "units.h"

extern const struct workload null_workload;

#define SERIES	2000
#define RHO	0.65

/* reps stationary AR(1) series of len values each, mean 0, into x with their rep. */
static void ar1(gsl_rng *g, double rho, int reps, int len, double *x, int *rep)
{
	for (int r = 0; r < reps; r++) {
		double v = gsl_ran_gaussian(g, 1) / sqrt(1 - rho * rho);

		for (int i = 0; i < len; i++) {
			x[r * len + i] = v;
			rep[r * len + i] = r;
			v = rho * v + gsl_ran_gaussian(g, 1);
		}
	}
}

struct coverage {
	double units;		/* share of the units' intervals that hold the true mean 0 */
	double naive;		/* the same of t * sd / sqrt(intervals) */
	double mean_units;	/* how many units, on average */
	int with_ci;		/* series with n >= 2 units (an interval at all) */
};

static int simulate(double rho, int reps, int len, struct coverage *c)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	int n = reps * len, *rep = malloc(n * sizeof(*rep)), hit = 0, naive = 0, err = 0;
	double *x = malloc(n * sizeof(*x)), units = 0;

	*c = (struct coverage){ 0 };
	if (!g || !x || !rep)
		err = -1;
	if (g)
		gsl_rng_set(g, 20261201);
	for (int s = 0; !err && s < SERIES; s++) {
		struct units u;
		double m, half;

		ar1(g, rho, reps, len, x, rep);
		err = units_of(x, rep, n, &u);
		m = gsl_stats_mean(x, 1, n);
		half = gsl_cdf_tdist_Pinv(0.975, n - 1) * gsl_stats_sd_m(x, 1, n, m) / sqrt(n);
		naive += fabs(m) <= half;
		if (u.n < 2)
			continue;
		c->with_ci++;
		hit += fabs(u.mean) <= u.ci95;
		units += u.n;
	}
	if (c->with_ci) {
		c->units = (double)hit / c->with_ci;
		c->mean_units = units / c->with_ci;
	}
	c->naive = (double)naive / SERIES;
	gsl_rng_free(g);
	free(x);
	free(rep);
	return err;
}

/*
 * One repetition of 300 intervals at rho 0.65 (a 30 s point sampled every
 * 100 ms): batch means keep the 95 % interval near 95 %; the intervals
 * taken as independent cover about 63 % (the interval is ~1.9x too narrow).
 */
TEST(ar1_batch_coverage_near_nominal)
{
	struct coverage c;

	CHECK_INT(simulate(RHO, 1, 300, &c), 0);
	printf("# rho %.2f, 1 x 300 intervals: batch means cover %.3f (%.1f units), naive %.3f\n",
	       RHO, c.units, c.mean_units, c.naive);
	CHECK_INT(c.with_ci, SERIES);
	CHECK(c.units >= 0.90 && c.units <= 0.98);
	CHECK(c.naive < 0.75);
	/* 300 intervals are worth ~64 independent ones; batches are several of those long */
	CHECK(c.mean_units > 8 && c.mean_units < 40);
}

/* Five repetitions of 10 intervals: their means are the units, and exactly so. */
TEST(ar1_rep_coverage_near_nominal)
{
	struct coverage c;

	CHECK_INT(simulate(RHO, 5, 10, &c), 0);
	printf("# rho %.2f, 5 x 10 intervals: repetitions cover %.3f, naive %.3f\n", RHO,
	       c.units, c.naive);
	CHECK_NEAR(c.mean_units, 5, 0);
	CHECK(c.units >= 0.93 && c.units <= 0.97);
	CHECK(c.naive < 0.80);
}

/* Independent intervals: a batch is one interval, the interval the usual one. */
TEST(independent_intervals_stay_intervals)
{
	struct coverage c;

	CHECK_INT(simulate(0, 1, 100, &c), 0);
	CHECK(c.units >= 0.93 && c.units <= 0.97);
	CHECK(c.mean_units > 50);
}

/* Three repetitions or more: each one's mean is a unit, whatever its length. */
TEST(rep_units)
{
	const double x[] = { 1, 3, 10, 20, 30, 5 };
	const int rep[] = { 0, 0, 1, 1, 1, 4 };
	struct units u;

	CHECK_INT(units_of(x, rep, 6, &u), 0);
	CHECK_INT(u.kind, UK_REP);
	CHECK_INT(u.n, 3);
	CHECK_INT(u.batch, 0);
	CHECK_NEAR(u.mean, (2 + 20 + 5) / 3.0, 1e-12);
	CHECK_NEAR(u.sd, sqrt(((2 - 9) * (2 - 9) + 11 * 11 + 4 * 4) / 2.0), 1e-12);
	/* t(0.975, 2) = 4.302652730 */
	CHECK_NEAR(u.ci95, 4.302652730 * u.sd / sqrt(3), 1e-8);
	CHECK_STR(unit_kind_name(u.kind), "rep");
	CHECK_INT(unit_kind_parse("rep"), UK_REP);
	CHECK_INT(unit_kind_parse("batch"), UK_BATCH);
	CHECK_INT(unit_kind_parse(""), UK_NONE);
}

/*
 * A smooth trend within one repetition (rho near 1): batches as long as
 * the repetition allows; two of them, and no interval dropped.
 */
TEST(batch_means_of_a_correlated_run)
{
	double x[40];
	int rep[40] = { 0 };
	struct units u;

	for (int i = 0; i < 40; i++)
		x[i] = 100 + (i < 20 ? i : 40 - i);
	CHECK_INT(units_of(x, rep, 40, &u), 0);
	CHECK_INT(u.kind, UK_BATCH);
	CHECK(u.rho > 0.8);
	CHECK(u.batch >= 20);
	CHECK(u.n <= 2);
	CHECK_NEAR(u.mean, gsl_stats_mean(x, 1, 40), 1e-9);
}

/* Alternating values (rho < 0): every interval its own batch. */
TEST(batch_of_one_when_uncorrelated)
{
	double x[40];
	int rep[40] = { 0 };
	struct units u;

	for (int i = 0; i < 40; i++)
		x[i] = i % 2 ? 3 : 1;
	CHECK_INT(units_of(x, rep, 40, &u), 0);
	CHECK_INT(u.kind, UK_BATCH);
	CHECK(u.rho < 0);
	CHECK_INT(u.batch, 1);
	CHECK_INT(u.n, 40);
	CHECK_NEAR(u.mean, 2, 1e-12);
}

/*
 * Too few neighbours to tell the autocorrelation (fewer than
 * UNITS_MIN_PAIRS): each repetition is one unit, however the values look.
 */
TEST(short_runs_are_one_unit_each)
{
	const double x[] = { 1, 3, 1, 3, 1, 3, 1, 3, 5, 7, 5, 7 };
	const int rep[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 };
	struct units u;

	CHECK_INT(units_of(x, rep, 12, &u), 0);
	CHECK_INT(u.kind, UK_BATCH);
	CHECK_INT(u.n, 2);
	CHECK_NEAR(u.mean, (2 + 6) / 2.0, 1e-12);
	CHECK_INT(units_of(x, rep, 8, &u), 0);
	CHECK_INT(u.n, 1);
	CHECK(isnan(u.ci95));
}

/*
 * Batches never span repetitions: two repetitions of 20 alternating
 * intervals and a level of their own are 40 units; a smooth climb in each
 * is one batch each (its mean), never one across the two.
 */
TEST(batches_stay_in_their_repetition)
{
	double x[40];
	int rep[40];
	struct units u;

	for (int i = 0; i < 40; i++) {
		rep[i] = i / 20;
		x[i] = (i < 20 ? 0 : 100) + (i % 2 ? 1 : -1);
	}
	CHECK_INT(units_of(x, rep, 40, &u), 0);
	CHECK_INT(u.n, 40);
	for (int i = 0; i < 40; i++)
		x[i] = (i < 20 ? 0 : 100) + i % 20;
	CHECK_INT(units_of(x, rep, 40, &u), 0);
	CHECK_INT(u.kind, UK_BATCH);
	CHECK_INT(u.n, 2);
	CHECK_NEAR(u.mean, (9.5 + 109.5) / 2, 1e-12);
}

/* One unit: no interval (NaN, shown n/a), not a zero-width one; none at all: unknown. */
TEST(one_unit_has_no_interval)
{
	const double x[] = { 5 };
	const int rep[] = { 0 };
	struct units u;

	CHECK_INT(units_of(x, rep, 1, &u), 0);
	CHECK_INT(u.n, 1);
	CHECK_NEAR(u.mean, 5, 0);
	CHECK(isnan(u.sd) && isnan(u.ci95));
	CHECK_INT(units_of(NULL, NULL, 0, &u), 0);
	CHECK_INT(u.kind, UK_NONE);
	CHECK_INT(u.n, 0);
	CHECK(isnan(u.mean));
	CHECK(isnan(units_ci95(1, 1)));
}

/* compare's test of units: fewer than CMP_MIN_UNITS a side is no test. */
TEST(compare_needs_three_units)
{
	struct cmp_moments two = { .mean = 1, .sd = 0.1, .n = 2 };
	struct cmp_moments three = { .mean = 2, .sd = 0.1, .n = 3 };
	struct cmp_test t;

	cmp_welch(&two, &three, &t);
	CHECK(!t.done);
	CHECK_INT(cmp_verdict_of(&two, &three, &t, 0.05, CMP_HIGHER_BETTER), CMP_UNTESTED);
	two.n = 3;
	cmp_welch(&two, &three, &t);
	CHECK(t.done && t.p < 0.05);
}

/* A point's summary: the intervals' spread as it is, the interval of its units. */
TEST(point_ci_is_the_units)
{
	struct point pt = { .wp = { .wl = &null_workload } };
	struct interval iv[7] = {
		{ .rep = 0, .warmup = true, .elapsed_ns = 1000000000, .value = { 9 } },
	};
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 7 };
	const uint64_t v[] = { 100, 102, 110, 112, 90, 92 };

	for (int i = 1; i < 7; i++)
		iv[i] = (struct interval){ .rep = (i - 1) / 2, .idx = 1 + (i - 1) % 2,
					   .elapsed_ns = 1000000000, .value = { v[i - 1] } };
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(r.stat[0].n, 6);
	CHECK_NEAR(r.stat[0].stddev, gsl_stats_sd((const double[]){ 100, 102, 110, 112, 90, 92 },
						  1, 6), 1e-9);
	CHECK_INT(r.unit[0].kind, UK_REP);
	CHECK_INT(r.unit[0].n, 3);
	CHECK_NEAR(r.unit[0].sd, 10, 1e-9);	/* of 101, 111, 91 */
	CHECK_NEAR(r.stat[0].ci95, 4.302652730 * 10 / sqrt(3), 1e-6);
	CHECK_INT(point_unit_kind(&r), UK_REP);
}

RUN_TESTS(ar1_batch_coverage_near_nominal, ar1_rep_coverage_near_nominal,
	  independent_intervals_stay_intervals, rep_units, batch_means_of_a_correlated_run,
	  batch_of_one_when_uncorrelated, short_runs_are_one_unit_each,
	  batches_stay_in_their_repetition,
	  one_unit_has_no_interval, compare_needs_three_units, point_ci_is_the_units)
