// SPDX-License-Identifier: GPL-2.0
/* stats.c and point_result_summarize() against values worked out by hand. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fake_wl.h"
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
	CHECK(isnan(s.ci95));		/* one value: its mean's interval is not known */
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

/*
 * Three producers over measured intervals of 1 s, 0.5 s and 2.5 s (4 s in
 * all): each one's rate is its increases over the 4 s, not the mean of its
 * interval rates (producer 0: 600 / 4 = 150/s, not (100 + 200 + 160) / 3).
 */
static uint64_t warm_delta[] = { 1000, 1000, 1000 };
static uint64_t delta1[] = { 100, 300, 50 };
static uint64_t delta2[] = { 100, 100, 200 };
static uint64_t delta3[] = { 400, 500, 250 };

static void fake_intervals(struct interval *iv)
{
	iv[0] = (struct interval){ .warmup = true, .elapsed_ns = 1000000000,
				   .value = { 3000, 99999, 7, 0 }, .thread_delta = warm_delta };
	iv[1] = (struct interval){ .idx = 1, .elapsed_ns = 1000000000,
				   .value = { 450, 1000, 4096, 10 }, .thread_delta = delta1 };
	iv[2] = (struct interval){ .idx = 2, .elapsed_ns = 500000000,
				   .value = { 400, 3000, METRIC_UNKNOWN, 10 },
				   .thread_delta = delta2 };
	iv[3] = (struct interval){ .idx = 3, .elapsed_ns = 2500000000ULL,
				   .value = { 1150, 2000, 4096, 10 }, .thread_delta = delta3 };
}

TEST(worker_rates_over_summed_time)
{
	struct point pt = { .wp = { .wl = &fake_wl } };
	struct interval iv[4];
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 4, .nr_producers = 3 };

	fake_intervals(iv);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK(r.thread_rate);
	CHECK_NEAR(r.thread_rate[0], 150, 1e-9);
	CHECK_NEAR(r.thread_rate[1], 225, 1e-9);
	CHECK_NEAR(r.thread_rate[2], 125, 1e-9);
	CHECK_INT(r.worker_rate.n, 3);
	CHECK_NEAR(r.worker_rate.min, 125, 1e-9);
	CHECK_NEAR(r.worker_rate.median, 150, 1e-9);
	CHECK_NEAR(r.worker_rate.max, 225, 1e-9);
	CHECK_NEAR(r.worker_rate.mean, 500 / 3.0, 1e-9);
	/* the total is a counter like any: 450/s, 800/s, 460/s */
	CHECK_NEAR(r.stat[FAKE_OPS].mean, 570, 1e-9);
	CHECK_NEAR(r.stat[FAKE_OPS].median, 460, 1e-9);
	CHECK_NEAR(r.stat[FAKE_DROPS].mean, (10 + 20 + 4) / 3.0, 1e-9);
	free(r.thread_rate);
}

/* A gauge is summarized as levels, the warmup's left out, not divided by time. */
TEST(gauge_levels)
{
	struct point pt = { .wp = { .wl = &fake_wl } };
	struct interval iv[4];
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 4, .nr_producers = 3 };

	fake_intervals(iv);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(r.stat[FAKE_MEM].n, 3);
	CHECK_NEAR(r.stat[FAKE_MEM].mean, 2000, 1e-9);
	CHECK_NEAR(r.stat[FAKE_MEM].stddev, 1000, 1e-9);
	CHECK_NEAR(r.stat[FAKE_MEM].median, 2000, 1e-9);
	CHECK_NEAR(r.stat[FAKE_MEM].min, 1000, 1e-9);
	CHECK_NEAR(r.stat[FAKE_MEM].max, 3000, 1e-9);
	free(r.thread_rate);
}

/* One level that could not be read: no summary rather than one of fewer intervals. */
TEST(unknown_gauge_is_nan)
{
	struct point pt = { .wp = { .wl = &fake_wl } };
	struct interval iv[4];
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 4, .nr_producers = 3 };
	const struct summary *s = &r.stat[FAKE_MEMLOCK];

	fake_intervals(iv);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(s->n, 0);
	CHECK(isnan(s->mean) && isnan(s->stddev) && isnan(s->median));
	CHECK(isnan(s->min) && isnan(s->max) && isnan(s->ci95));
	/* an unknown level in the warmup only does not count */
	iv[2].value[FAKE_MEMLOCK] = 4096;
	iv[0].value[FAKE_MEMLOCK] = METRIC_UNKNOWN;
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(s->n, 3);
	CHECK_NEAR(s->max, 4096, 0);
	free(r.thread_rate);
}

/* Intervals without their per-producer increases: the spread is not known. */
TEST(workers_unknown_without_thread_counts)
{
	struct point pt = { .wp = { .wl = &fake_wl } };
	struct interval iv[4];
	struct point_result r = { .pt = &pt, .iv = iv, .nr_iv = 4, .nr_producers = 3 };

	fake_intervals(iv);
	iv[3].thread_delta = NULL;
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK(!r.thread_rate);
	CHECK(isnan(r.worker_rate.mean) && isnan(r.worker_rate.max));
	CHECK_NEAR(r.stat[FAKE_OPS].mean, 570, 1e-9);
}

RUN_TESTS(summary_of_five, median_of_even_count, one_and_none, rates_use_real_elapsed_time,
	  worker_rates_over_summed_time, gauge_levels, unknown_gauge_is_nan,
	  workers_unknown_without_thread_counts)
