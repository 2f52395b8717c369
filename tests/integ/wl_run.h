/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One point of a workload run as the runner runs it, without the engine:
 * setup, consumers then producers on threads, a sleep, one sample, stop,
 * join, teardown.  For the root integration tests of the BPF workloads,
 * which call a workload's callbacks directly.  Include once per binary.
 */
#ifndef TESTS_INTEG_WL_RUN_H
#define TESTS_INTEG_WL_RUN_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "integ_util.h"
#include "workload.h"

#define WL_RUN_MAX_THREADS	8

struct wl_worker {
	pthread_t tid;
	const struct workload *wl;
	void *state;
	int idx;
	bool consumer;
	atomic_bool *stop;
	int err;
};

struct wl_run_result {
	uint64_t counts[WL_MAX_METRICS];	/* the one sample, cumulative since setup */
	/* sampled again after the join: every producer's last trigger has completed */
	uint64_t joined[WL_MAX_METRICS];
	uint64_t joined_threads[WL_RUN_MAX_THREADS];
	/* the per-thread metric's count per producer, if the workload has one */
	uint64_t thread_counts[WL_RUN_MAX_THREADS];
	int nr_producers;
	int nr_consumers;
	int thread_err;				/* sample's, a thread's, or -EAGAIN: one did not start */
};

static void *wl_worker_main(void *arg)
{
	struct wl_worker *w = arg;

	if (w->consumer)
		w->err = w->wl->consume(w->state, w->idx, w->stop);
	else
		w->err = w->wl->produce(w->state, w->idx, w->stop);
	return NULL;
}

/* Does sample() fill per-producer counts, as the runner asks of it then? */
static bool wl_has_thread_metric(const struct workload *wl)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].per_thread)
			return true;
	return false;
}

/* Consumers first, then producers, as the runner starts them; how many started. */
static int wl_start_workers(const struct workload *wl, void *state, const struct wl_threads *thr,
			    struct wl_worker *w, atomic_bool *stop)
{
	int n = 0;

	for (int i = 0; i < thr->nr_consumers + thr->nr_producers && i < WL_RUN_MAX_THREADS;
	     i++) {
		w[i] = (struct wl_worker){ .wl = wl, .state = state, .stop = stop,
					   .consumer = i < thr->nr_consumers,
					   .idx = i < thr->nr_consumers ? i : i - thr->nr_consumers };
		if (pthread_create(&w[i].tid, NULL, wl_worker_main, &w[i]))
			break;
		n++;
	}
	return n;
}

/* Set up pt, run it for ms, sample, stop, join and tear down.  0 or setup's error. */
static int wl_run_point(const struct workload *wl, const struct wl_point *pt, int ms,
			struct wl_run_result *res, char *why, size_t len)
{
	struct wl_worker w[WL_RUN_MAX_THREADS];
	struct wl_threads thr = { 0 };
	uint64_t *per_thread = NULL;
	atomic_bool stop = false;
	void *state;
	int err, n;

	memset(res, 0, sizeof(*res));
	err = wl->setup(pt, &state, &thr, why, len);
	if (err)
		return err;
	res->nr_producers = thr.nr_producers;
	res->nr_consumers = thr.nr_consumers;
	n = wl_start_workers(wl, state, &thr, w, &stop);
	sleep_ms(ms);
	/* past WL_RUN_MAX_THREADS producers, no room: the point fails with -EAGAIN below */
	if (wl_has_thread_metric(wl) && thr.nr_producers <= WL_RUN_MAX_THREADS)
		per_thread = res->thread_counts;
	res->thread_err = wl->sample(state, res->counts, per_thread);
	atomic_store(&stop, true);
	if (wl->stop)
		wl->stop(state);
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err && !res->thread_err)
			res->thread_err = w[i].err;
	}
	if (n != thr.nr_consumers + thr.nr_producers && !res->thread_err)
		res->thread_err = -EAGAIN;
	if (!res->thread_err)
		res->thread_err = wl->sample(state, res->joined,
					     per_thread ? res->joined_threads : NULL);
	wl->teardown(state);
	return 0;
}

#endif
