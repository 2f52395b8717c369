/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gate a repetition's workers start behind (repetition.c): created
 * blocked, released together, and counted as they pass it, so that the
 * sampler's clock starts only once every one of them runs.  A thread
 * created is not yet a thread running: on the 2-CPU machine at load 12
 * a worker's first slice came up to 67 ms after its release; a point
 * whose warmup began at the release could measure producers that had not
 * yet run (twice seen stalled, at 0.0 ms of CPU, under load 11).
 */
#ifndef SWEEP_WORKGATE_H
#define SWEEP_WORKGATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct work_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;	/* the workers wait on it for the release */
	pthread_cond_t changed;	/* the sampler: a worker passed, or the last returned */
	bool open;
	int nr_running;		/* workers started and not yet returned */
	int nr_passed;		/* workers that ran past the gate */
};

int work_gate_init(struct work_gate *g);
void work_gate_destroy(struct work_gate *g);

/* The sampler, before creating a worker; work_gate_leave() if that failed. */
void work_gate_enter(struct work_gate *g);
/* A worker: blocks until the release, then counts itself as running. */
void work_gate_pass(struct work_gate *g);
/* Releases every worker, now and later. */
void work_gate_open(struct work_gate *g);
/* A worker returning; the last wakes the sampler once. */
void work_gate_leave(struct work_gate *g);

/*
 * Waits until nr workers have passed the gate: 0, -ETIMEDOUT after
 * timeout_ns (*passed says how many had), or -EINTR once stop_requested()
 * says so, which it asks every few ms.
 */
int work_gate_wait_passed(struct work_gate *g, int nr, uint64_t timeout_ns,
			  bool (*stop_requested)(void), int *passed);
/* Waits until every worker entered has returned. */
void work_gate_wait_done(struct work_gate *g);

#endif
