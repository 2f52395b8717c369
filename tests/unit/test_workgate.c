// SPDX-License-Identifier: GPL-2.0
/*
 * workgate.c: the sampler's wait for the released workers ends when all
 * have passed, fails with how many had when they take too long, and
 * gives way to a stop request.  Wall time about 0.1 s.
 */
#include <errno.h>
#include <stdbool.h>
#include <time.h>

#include "check.h"
#include "workgate.h"

static bool never(void)
{
	return false;
}

static bool always(void)
{
	return true;
}

static void *worker(void *arg)
{
	const struct timespec nap = { 0, 20000000 };
	struct work_gate *g = arg;

	nanosleep(&nap, NULL);
	work_gate_pass(g);
	work_gate_leave(g);
	return NULL;
}

/* Two workers, one of them (the second) never created when `one`. */
static int run(bool one, uint64_t timeout_ns, bool (*stop)(void), int *passed)
{
	struct work_gate g;
	pthread_t t, t2;
	int err;

	if (work_gate_init(&g))
		return -EIO;
	work_gate_enter(&g);
	work_gate_enter(&g);
	pthread_create(&t, NULL, worker, &g);
	if (!one)
		pthread_create(&t2, NULL, worker, &g);
	work_gate_open(&g);
	err = work_gate_wait_passed(&g, 2, timeout_ns, stop, passed);
	if (one)
		work_gate_leave(&g);
	work_gate_wait_done(&g);
	pthread_join(t, NULL);
	if (!one)
		pthread_join(t2, NULL);
	work_gate_destroy(&g);
	return err;
}

TEST(waits_for_every_worker)
{
	int passed = -1;

	CHECK_INT(run(false, 2000000000ULL, never, &passed), 0);
	CHECK_INT(passed, 2);
}

TEST(a_worker_that_never_runs_times_out)
{
	int passed = -1;

	CHECK_INT(run(true, 50000000ULL, never, &passed), -ETIMEDOUT);
	CHECK_INT(passed, 1);
}

TEST(a_stop_request_ends_the_wait)
{
	int passed = -1;

	CHECK_INT(run(true, 2000000000ULL, always, &passed), -EINTR);
}

RUN_TESTS(waits_for_every_worker, a_worker_that_never_runs_times_out, a_stop_request_ends_the_wait)
