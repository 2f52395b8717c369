// SPDX-License-Identifier: GPL-2.0
/* stats.c and point_result_summarize() against values worked out by hand. */
#include <math.h>

#include "check.h"
#include "result.h"
#include "stats.h"

extern const struct workload null_workload;

TEST(summary_of_five)
{
	const double x[] = { 5, 1, 4, 2, 3 };
	struct summary s;

	stats_summarize(x, 5, &s);
	CHECK_INT(s.n, 5);
	CHECK_NEAR(s.mean, 3.0, 1e-12);
	CHECK_NEAR(s.stddev, sqrt(2.5), 1e-12);	/* sample stddev, n - 1 */
	CHECK_NEAR(s.median, 3.0, 1e-12);
	CHECK_NEAR(s.min, 1.0, 1e-12);
	CHECK_NEAR(s.max, 5.0, 1e-12);
	/* t(0.975, 4) = 2.776445105 */
	CHECK_NEAR(s.ci95, 2.776445105 * sqrt(2.5) / sqrt(5), 1e-8);
	CHECK_NEAR(x[0], 5.0, 0);		/* input untouched */
}

TEST(median_of_even_count)
{
	const double x[] = { 10, 40, 20, 30 };
	struct summary s;

	stats_summarize(x, 4, &s);
	CHECK_NEAR(s.median, 25.0, 1e-12);
}

TEST(one_and_none)
{
	const double one = 7;
	struct summary s;

	stats_summarize(&one, 1, &s);
	CHECK_INT(s.n, 1);
	CHECK_NEAR(s.mean, 7.0, 0);
	CHECK_NEAR(s.stddev, 0.0, 0);
	CHECK_NEAR(s.ci95, 0.0, 0);
	stats_summarize(NULL, 0, &s);
	CHECK_INT(s.n, 0);
	CHECK_NEAR(s.mean, 0.0, 0);
}

/* Rates divide by each interval's own length, and skip warmup. */
TEST(rates_use_real_elapsed_time)
{
	struct point pt = { .wp = { .wl = &null_workload } };
	struct interval iv[] = {
		{ .warmup = true, .elapsed_ns = 1000000000, .value = { 999999, 0 } },
		{ .elapsed_ns = 1000000000, .value = { 1000, 10 } },
		{ .elapsed_ns = 500000000, .value = { 1000, 10 } },	/* 2000/s */
		{ .elapsed_ns = 2000000000, .value = { 1000, 10 } },	/* 500/s */
	};
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 4 };

	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(r.stat[0].n, 3);
	CHECK_NEAR(r.stat[0].mean, (1000 + 2000 + 500) / 3.0, 1e-9);
	CHECK_NEAR(r.stat[0].min, 500, 1e-9);
	CHECK_NEAR(r.stat[0].max, 2000, 1e-9);
	CHECK_NEAR(r.stat[1].median, 10, 1e-9);
}

RUN_TESTS(summary_of_five, median_of_even_count, one_and_none, rates_use_real_elapsed_time)
