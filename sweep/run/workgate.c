// SPDX-License-Identifier: GPL-2.0
/*
 * The workers' gate (workgate.h).  One lock guards all of it; the
 * sampler's waits are on CLOCK_MONOTONIC, as its intervals are.
 */
#include <errno.h>
#include <time.h>

#include "workgate.h"

/* How often the sampler, waiting for the workers, asks whether to stop. */
#define STOP_POLL_NS	20000000ULL

int work_gate_init(struct work_gate *g)
{
	pthread_condattr_t attr;
	int err;

	*g = (struct work_gate){ 0 };
	err = pthread_mutex_init(&g->lock, NULL) ?: pthread_cond_init(&g->opened, NULL);
	if (err)
		return -err;
	err = pthread_condattr_init(&attr);
	if (err)
		return -err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) ?:
	      pthread_cond_init(&g->changed, &attr);
	pthread_condattr_destroy(&attr);
	return -err;
}

void work_gate_destroy(struct work_gate *g)
{
	pthread_cond_destroy(&g->changed);
	pthread_cond_destroy(&g->opened);
	pthread_mutex_destroy(&g->lock);
}

void work_gate_enter(struct work_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->nr_running++;
	pthread_mutex_unlock(&g->lock);
}

void work_gate_pass(struct work_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->opened, &g->lock);
	g->nr_passed++;
	pthread_cond_signal(&g->changed);
	pthread_mutex_unlock(&g->lock);
}

void work_gate_open(struct work_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Joining a thousand threads one by one would wake the sampler a
 * thousand times, each time queued behind the producers that still spin.
 */
void work_gate_leave(struct work_gate *g)
{
	pthread_mutex_lock(&g->lock);
	if (!--g->nr_running)
		pthread_cond_signal(&g->changed);
	pthread_mutex_unlock(&g->lock);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int work_gate_wait_passed(struct work_gate *g, int nr, uint64_t timeout_ns,
			  bool (*stop_requested)(void), int *passed)
{
	uint64_t deadline = mono_ns() + timeout_ns;
	int err = 0;

	pthread_mutex_lock(&g->lock);
	while (g->nr_passed < nr && !err) {
		uint64_t now = mono_ns(), until = now + STOP_POLL_NS;
		struct timespec ts;

		if (stop_requested())
			err = -EINTR;
		else if (now >= deadline)
			err = -ETIMEDOUT;
		until = until < deadline ? until : deadline;
		ts = (struct timespec){ until / 1000000000ULL, until % 1000000000ULL };
		if (!err)
			pthread_cond_timedwait(&g->changed, &g->lock, &ts);
	}
	*passed = g->nr_passed;
	pthread_mutex_unlock(&g->lock);
	return err;
}

void work_gate_wait_done(struct work_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->nr_running)
		pthread_cond_wait(&g->changed, &g->lock);
	pthread_mutex_unlock(&g->lock);
}
