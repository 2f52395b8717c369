// SPDX-License-Identifier: GPL-2.0
/*
 * The null workload: no BPF, no root, deterministic counts.  Its counters
 * grow at exactly `rate` per second of real time, so a sweep of it must
 * report hits_per_s == rate; tests use it to drive the whole path
 * (spec → runner → CSV → table → chart) and its failure modes.  Two knobs
 * make its intervals noisy on purpose, for the quality flags' tests:
 * zero_every = K counts nothing in every K-th interval of a repetition
 * (warmup included, 1-based), jitter_pct = P runs the odd intervals P%
 * fast and the even ones P% slow.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "workload.h"

static const char *const null_modes[] = { "fast", "slow", "pairs", NULL };
static const char *const null_fail_at[] = { "none", "probe", "setup", "sample", NULL };

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL, P_ZERO_EVERY,
       P_JITTER_PCT };

static const struct param_def null_params[] = {
	[P_PRODUCERS]	= { .name = "producers", .type = PT_INT, .def = "1", .min = 0, .max = 1024,
			    .help = "idle producer threads to start" },
	[P_RATE]	= { .name = "rate", .type = PT_INT, .def = "1000000", .min = 0,
			    .max = 1000000000000LL,
			    .help = "hits per second of real time" },
	[P_DROP_PCT]	= { .name = "drop_pct", .type = PT_INT, .def = "0", .min = 0, .max = 100,
			    .help = "drops, in percent of hits" },
	[P_VALUE_SIZE]	= { .name = "value_size", .type = PT_SIZE, .def = "64", .min = 1,
			    .max = 1 << 20,
			    .help = "a size with no effect (exercises K/M/G)" },
	[P_MODE]	= { .name = "mode", .type = PT_ENUM, .def = "fast", .choices = null_modes,
			    .help = "a choice with no effect; pairs needs an even producer count "
				    "(exercises enums, validation)" },
	[P_FLAG]	= { .name = "flag", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "a switch with no effect (exercises on/off)" },
	[P_FAIL]	= { .name = "fail", .type = PT_ENUM, .def = "none", .choices = null_fail_at,
			    .help = "fail on purpose: probe → unsupported, setup/sample → failed" },
	[P_ZERO_EVERY]	= { .name = "zero_every", .type = PT_INT, .def = "0", .min = 0,
			    .max = 1000000,
			    .help = "every K-th interval counts nothing (0: none)" },
	[P_JITTER_PCT]	= { .name = "jitter_pct", .type = PT_INT, .def = "0", .min = 0, .max = 100,
			    .help = "intervals alternate P% above and below `rate`" },
};

static const struct metric_def null_metrics[] = {
	{ .name = "hits", .kind = MK_COUNTER, .unit = "M/s", .better = MB_HIGHER },
	{ .name = "drops", .kind = MK_COUNTER, .unit = "M/s", .better = MB_LOWER },
};

struct null_state {
	long long rate;
	long long drop_pct;
	long long fail_at;
	long long zero_every;
	long long jitter_pct;
	struct timespec last;	/* of the previous sample() */
	long double hits;	/* counted so far */
	long long calls;	/* sample() calls so far */
	/* the idle producers sleep on idle_cond until stop() */
	pthread_mutex_t idle_lock;
	pthread_cond_t idle_cond;
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
	pthread_mutex_init(&st->idle_lock, NULL);
	pthread_cond_init(&st->idle_cond, NULL);
	st->rate = pt->v[P_RATE];
	st->drop_pct = pt->v[P_DROP_PCT];
	st->fail_at = pt->v[P_FAIL];
	st->zero_every = pt->v[P_ZERO_EVERY];
	st->jitter_pct = pt->v[P_JITTER_PCT];
	clock_gettime(CLOCK_MONOTONIC, &st->last);
	thr->nr_producers = pt->v[P_PRODUCERS];
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

/*
 * Producers idle, asleep until stop(): the counts come from the clock, not
 * from them.  They napped 1 ms at a time before, and each wake-up on a CPU
 * that others held waited for it: 0.3-27% of the measured time here beside
 * a spinner pinned to their CPU (at 10 ms naps, 15% beside it on a machine
 * at load 4.6), the interference flag's figure (quality.c).  Asleep
 * throughout, they wait 0.0%.
 */
static int null_produce(void *state, int idx, const atomic_bool *stop)
{
	struct null_state *st = state;

	pthread_mutex_lock(&st->idle_lock);
	while (!atomic_load(stop))
		pthread_cond_wait(&st->idle_cond, &st->idle_lock);
	pthread_mutex_unlock(&st->idle_lock);
	return 0;
}

/* *stop is set: wake the producers (under the lock, so none misses it). */
static void null_stop(void *state)
{
	struct null_state *st = state;

	pthread_mutex_lock(&st->idle_lock);
	pthread_cond_broadcast(&st->idle_cond);
	pthread_mutex_unlock(&st->idle_lock);
}

/*
 * How fast the interval that this sample() call ends ran, relative to
 * `rate`: call 0 ends the time since setup, call c the c-th interval.
 */
static long double speed_of(const struct null_state *st)
{
	long long c = st->calls;

	if (!c)
		return 1;
	if (st->zero_every && c % st->zero_every == 0)
		return 0;
	return 1 + (c % 2 ? st->jitter_pct : -st->jitter_pct) / 100.0L;
}

static int null_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct null_state *st = state;
	struct timespec now;
	long double secs;

	if (st->fail_at == 3)
		return -EIO;
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (now.tv_sec - st->last.tv_sec) + (now.tv_nsec - st->last.tv_nsec) / 1e9L;
	st->hits += secs * st->rate * speed_of(st);
	st->last = now;
	st->calls++;
	counts[0] = (uint64_t)st->hits;
	counts[1] = counts[0] * st->drop_pct / 100;
	return 0;
}

static void null_teardown(void *state)
{
	struct null_state *st = state;

	pthread_cond_destroy(&st->idle_cond);
	pthread_mutex_destroy(&st->idle_lock);
	free(st);
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
	.stop = null_stop,
	.teardown = null_teardown,
};
