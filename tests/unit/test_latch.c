// SPDX-License-Identifier: GPL-2.0
/*
 * The latch and the count (latch.c): waiters block until the latch opens,
 * every one of them leaves it, and a count's waiter sees it reach 0 or
 * its deadline pass.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "check.h"
#include "latch.h"

#define NR_THREADS	64

struct shared {
	struct latch gate;
	struct count waiting;	/* threads not yet past the gate */
	struct count running;	/* threads not yet returned */
	atomic_int past;	/* threads past the gate */
};

static void *waiter(void *arg)
{
	struct shared *sh = arg;

	latch_wait(&sh->gate);
	atomic_fetch_add(&sh->past, 1);
	count_done(&sh->waiting);
	count_done(&sh->running);
	return NULL;
}

static struct timespec after_ms(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

/* Nobody passes a closed latch; once open, every waiter does, and late comers at once. */
TEST(every_waiter_leaves_once_open)
{
	struct shared sh = { 0 };
	pthread_t tid[NR_THREADS];
	struct timespec soon = after_ms(100);

	for (int i = 0; i < NR_THREADS; i++) {
		count_add(&sh.waiting);
		count_add(&sh.running);
		CHECK_INT(pthread_create(&tid[i], NULL, waiter, &sh), 0);
	}
	/* closed: the count does not reach 0 before its deadline */
	CHECK_INT(count_wait_zero_until(&sh.waiting, &soon), -ETIMEDOUT);
	CHECK_INT(atomic_load(&sh.past), 0);
	latch_open(&sh.gate);
	soon = after_ms(10000);
	CHECK_INT(count_wait_zero_until(&sh.waiting, &soon), 0);
	count_wait_zero(&sh.running);
	CHECK_INT(atomic_load(&sh.past), NR_THREADS);
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(tid[i], NULL);
	/* an open latch lets the next one through at once */
	latch_wait(&sh.gate);
}

/* A count at 0 returns at once, whatever the deadline. */
TEST(zero_count_returns_at_once)
{
	struct count c = { 0 };
	struct timespec past = after_ms(0);

	CHECK_INT(count_wait_zero_until(&c, &past), 0);
	count_wait_zero(&c);
	count_add(&c);
	CHECK_INT(count_wait_zero_until(&c, &past), -ETIMEDOUT);
	count_done(&c);
	CHECK_INT(count_wait_zero_until(&c, &past), 0);
}

RUN_TESTS(every_waiter_leaves_once_open, zero_count_returns_at_once)
