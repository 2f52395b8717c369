// SPDX-License-Identifier: GPL-2.0
/*
 * The null workload: no BPF, no root, deterministic counts.  Its counters
 * grow at exactly `rate` per second of real time, so a sweep of it must
 * report hits_per_s == rate; tests use it to drive the whole path
 * (spec → runner → CSV → table → chart) and its failure modes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "workload.h"

static const char *const null_modes[] = { "fast", "slow", "pairs", NULL };
static const char *const null_fail_at[] = { "none", "probe", "setup", "sample", NULL };

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL };

static const struct param_def null_params[] = {
	[P_PRODUCERS]	= { "producers", PT_INT, "1", 0, 1024, NULL,
			    "idle producer threads to start" },
	[P_RATE]	= { "rate", PT_INT, "1000000", 0, 1000000000000LL, NULL,
			    "hits per second of real time" },
	[P_DROP_PCT]	= { "drop_pct", PT_INT, "0", 0, 100, NULL,
			    "drops, in percent of hits" },
	[P_VALUE_SIZE]	= { "value_size", PT_SIZE, "64", 1, 1 << 20, NULL,
			    "a size with no effect (exercises K/M/G)" },
	[P_MODE]	= { "mode", PT_ENUM, "fast", 0, 0, null_modes,
			    "a choice with no effect; pairs needs an even producer count "
			    "(exercises enums, validation)" },
	[P_FLAG]	= { "flag", PT_BOOL, "off", 0, 1, NULL,
			    "a switch with no effect (exercises on/off)" },
	[P_FAIL]	= { "fail", PT_ENUM, "none", 0, 0, null_fail_at,
			    "fail on purpose: probe → unsupported, setup/sample → failed" },
};

static const char *const null_metrics[] = { "hits", "drops" };

struct null_state {
	long long rate;
	long long drop_pct;
	long long fail_at;
	struct timespec t0;
};

enum { MODE_PAIRS = 2 };

/* A rule like those of workloads that pair their threads, for the engine's tests. */
static int null_validate(const struct wl_point *pt, int *param, char *why, size_t len)
{
	if (pt->v[P_MODE] == MODE_PAIRS && pt->v[P_PRODUCERS] % 2) {
		*param = P_PRODUCERS;
		snprintf(why, len, "mode=pairs needs an even number of producers");
		return -EINVAL;
	}
	return 0;
}

static int null_probe(const struct wl_point *pt, char *why, size_t len)
{
	if (pt->v[P_FAIL] == 1) {
		snprintf(why, len, "null: unsupported on request (fail=probe)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int null_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
		      char *why, size_t len)
{
	struct null_state *st;
	int param;

	if (null_validate(pt, &param, why, len))
		return -EINVAL;
	if (pt->v[P_FAIL] == 2) {
		snprintf(why, len, "null: setup failed on request (fail=setup)");
		return -EIO;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->rate = pt->v[P_RATE];
	st->drop_pct = pt->v[P_DROP_PCT];
	st->fail_at = pt->v[P_FAIL];
	clock_gettime(CLOCK_MONOTONIC, &st->t0);
	thr->nr_producers = pt->v[P_PRODUCERS];
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

/* Producers idle: the counts come from the clock, not from them. */
static int null_produce(void *state, int idx, const atomic_bool *stop)
{
	const struct timespec nap = { 0, 1000000 };

	while (!atomic_load_explicit(stop, memory_order_relaxed))
		nanosleep(&nap, NULL);
	return 0;
}

static int null_sample(void *state, uint64_t *counts)
{
	struct null_state *st = state;
	struct timespec now;
	long double secs;

	if (st->fail_at == 3)
		return -EIO;
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (now.tv_sec - st->t0.tv_sec) + (now.tv_nsec - st->t0.tv_nsec) / 1e9L;
	counts[0] = (uint64_t)(secs * st->rate);
	counts[1] = counts[0] * st->drop_pct / 100;
	return 0;
}

static void null_teardown(void *state)
{
	free(state);
}

const struct workload null_workload = {
	.name = "null",
	.help = "no BPF: counters grow at `rate` per second (tests the engine)",
	.params = null_params,
	.nr_params = sizeof(null_params) / sizeof(null_params[0]),
	.metrics = null_metrics,
	.nr_metrics = 2,
	.validate = null_validate,
	.probe = null_probe,
	.setup = null_setup,
	.produce = null_produce,
	.sample = null_sample,
	.teardown = null_teardown,
};
