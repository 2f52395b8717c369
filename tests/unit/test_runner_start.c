// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c's clock starts only once every worker runs: a thread created
 * is not yet a thread running, and on a loaded machine its first slice
 * came up to 67 ms after the gate opened (a stalled point once measured
 * producers that had not run at all).  Here 32 spinning producers on the
 * machine's CPUs: the sampler's first sample, which begins the warmup,
 * must find every one of them inside produce().  Wall time about 0.1 s.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "check.h"
#include "plan.h"
#include "runner.h"

#define NR_PRODUCERS	32

enum { M_OPS, NR_METRICS };

static const struct metric_def late_metrics[] = {
	[M_OPS] = { .name = "ops", .kind = MK_COUNTER, .unit = "/s" },
};

struct late {
	atomic_bool entered[NR_PRODUCERS];
	atomic_ullong ops;
	bool sampled;
};

/* Of the first sample of the last repetition: producers inside produce() then. */
static int entered_at_first_sample;

static int late_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
		      char *why, size_t len)
{
	*state = calloc(1, sizeof(struct late));
	*thr = (struct wl_threads){ .nr_producers = NR_PRODUCERS };
	return *state ? 0 : -ENOMEM;
}

/* Marks its entry, then spins: the other producers' first slices come late. */
static int late_produce(void *state, int idx, const atomic_bool *stop)
{
	struct late *l = state;

	atomic_store(&l->entered[idx], true);
	while (!atomic_load_explicit(stop, memory_order_relaxed))
		atomic_fetch_add_explicit(&l->ops, 1, memory_order_relaxed);
	return 0;
}

static int late_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct late *l = state;

	if (!l->sampled) {
		l->sampled = true;
		entered_at_first_sample = 0;
		for (int i = 0; i < NR_PRODUCERS; i++)
			entered_at_first_sample += atomic_load(&l->entered[i]);
	}
	counts[M_OPS] = atomic_load(&l->ops);
	return 0;
}

static void late_teardown(void *state)
{
	free(state);
}

static const struct workload late_wl = {
	.name = "late", .metrics = late_metrics, .nr_metrics = NR_METRICS,
	.setup = late_setup, .produce = late_produce, .sample = late_sample,
	.teardown = late_teardown,
};

static struct experiment exp0 = { .title = "Late", .group = -1 };
static struct sweep_cfg cfg = {
	.title = "Late", .wl = &late_wl, .warmup_ns = 10000000, .duration_ns = 20000000,
	.interval_ns = 10000000, .repeat = 3, .affinity = true, .exps = &exp0, .nr_exps = 1,
};

TEST(warmup_begins_once_every_worker_runs)
{
	struct point pt = { .wp = { .wl = &late_wl } };
	struct plan plan = { .pts = &pt, .nr_pts = 1, .nr_runnable = 1 };
	struct point_result *res;
	int nr_run;

	CHECK_INT(runner_run(&cfg, &plan, &pt, 1, NULL, NULL, &res, &nr_run), 0);
	CHECK_INT(res[0].status, PS_OK);
	CHECK_INT(entered_at_first_sample, NR_PRODUCERS);
	point_results_free(res, 1);
}

RUN_TESTS(warmup_begins_once_every_worker_runs)
