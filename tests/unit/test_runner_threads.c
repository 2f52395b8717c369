// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c with a workload that counts per producer and reports a gauge
 * of its own: every interval gets each producer's increase (summing to the
 * interval's total, read at the same sample) and the gauge's level, not
 * its change; and a workload whose producers change between repetitions
 * is refused rather than summarized across different producers.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "plan.h"
#include "runner.h"

#define NR_PRODUCERS	3
#define LEVEL_STEP	4096

enum { M_OPS, M_LEVEL, NR_METRICS };

static const struct param_def counting_params[] = {
	{ .name = "vary", .type = PT_BOOL, .def = "off", .max = 1,
	  .help = "another producer count in every repetition" },
};

static const struct metric_def counting_metrics[] = {
	[M_OPS] = { .name = "ops", .kind = MK_COUNTER, .unit = "/s", .per_thread = true },
	[M_LEVEL] = { .name = "level", .kind = MK_GAUGE, .unit = "B" },
};

struct counting {
	int nr;
	atomic_ullong count[NR_PRODUCERS + 1];
	uint64_t samples;	/* sample() calls: the gauge is LEVEL_STEP * this */
};

static int setups;		/* of this process: "vary" changes the count every time */

static int counting_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			  char *why, size_t len)
{
	struct counting *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->nr = pt->v[0] && setups++ % 2 ? NR_PRODUCERS + 1 : NR_PRODUCERS;
	*thr = (struct wl_threads){ .nr_producers = c->nr };
	*state = c;
	return 0;
}

/* Producer idx counts idx + 1 every 100 us: each its own rate. */
static int counting_produce(void *state, int idx, const atomic_bool *stop)
{
	const struct timespec nap = { 0, 100000 };
	struct counting *c = state;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&c->count[idx], idx + 1, memory_order_relaxed);
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* The total is the sum of the counts read for the producers, so the two agree exactly. */
static int counting_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct counting *c = state;

	if (!thread_counts)
		return -EINVAL;
	counts[M_OPS] = 0;
	for (int i = 0; i < c->nr; i++) {
		thread_counts[i] = atomic_load_explicit(&c->count[i], memory_order_relaxed);
		counts[M_OPS] += thread_counts[i];
	}
	counts[M_LEVEL] = LEVEL_STEP * ++c->samples;
	return 0;
}

static void counting_teardown(void *state)
{
	free(state);
}

static const struct workload counting_wl = {
	.name = "counting", .params = counting_params, .nr_params = 1,
	.metrics = counting_metrics, .nr_metrics = NR_METRICS,
	.setup = counting_setup, .produce = counting_produce, .sample = counting_sample,
	.teardown = counting_teardown,
};

static struct experiment exp0 = { .title = "Counting", .group = -1 };
static struct sweep_cfg cfg = {
	.title = "Counting", .wl = &counting_wl, .warmup_ns = 20000000, .duration_ns = 60000000,
	.interval_ns = 20000000, .repeat = 2, .affinity = false, .exps = &exp0, .nr_exps = 1,
};

static int run_one(long long vary, struct point_result **res)
{
	struct point pt = { .wp = { .wl = &counting_wl, .v = { vary } } };
	struct plan plan = { .pts = &pt, .nr_pts = 1, .nr_runnable = 1 };
	int nr_run;

	return runner_run(&cfg, &plan, &pt, 1, NULL, NULL, res, &nr_run);
}

TEST(per_thread_increases_and_gauge_levels)
{
	struct point_result *res, *r;
	uint64_t sum_ns = 0, sum_ops = 0;
	double rates = 0;

	CHECK_INT(run_one(0, &res), 0);
	r = &res[0];
	CHECK_INT(r->status, PS_OK);
	CHECK_INT(r->nr_producers, NR_PRODUCERS);
	/* 2 repetitions of 1 warmup + 3 measured intervals */
	CHECK_INT(r->nr_iv, 8);
	for (int i = 0; i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];
		uint64_t sum = 0;

		CHECK(iv->thread_delta);
		for (int t = 0; t < NR_PRODUCERS; t++)
			sum += iv->thread_delta[t];
		CHECK_INT(sum, iv->value[M_OPS]);
		/* a level at the interval's end: sample() once before the loop, then once each */
		CHECK_INT(iv->value[M_LEVEL], LEVEL_STEP * (iv->idx + 2));
		if (!iv->warmup) {
			sum_ns += iv->elapsed_ns;
			sum_ops += iv->value[M_OPS];
		}
	}
	CHECK(r->thread_rate);
	for (int t = 0; t < NR_PRODUCERS; t++) {
		CHECK(r->thread_rate[t] > 0);
		rates += r->thread_rate[t];
	}
	/* the producers' rates add up to the measured total over the measured time */
	CHECK_NEAR(rates, sum_ops * 1e9 / sum_ns, 1e-6);
	CHECK_INT(r->worker_rate.n, NR_PRODUCERS);
	CHECK_NEAR(r->stat[M_LEVEL].min, LEVEL_STEP * 3, 0);
	CHECK_NEAR(r->stat[M_LEVEL].max, LEVEL_STEP * 5, 0);
	point_results_free(res, 1);
}

TEST(producers_must_not_change_between_repetitions)
{
	struct point_result *res;

	setups = 0;
	CHECK_INT(run_one(1, &res), 0);
	CHECK_INT(res[0].status, PS_FAILED);
	CHECK_STR(res[0].reason, "rep 2/2: setup: 4 producers, 3 before");
	point_results_free(res, 1);
}

RUN_TESTS(per_thread_increases_and_gauge_levels, producers_must_not_change_between_repetitions)
