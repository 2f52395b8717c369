/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two ways for threads to wait on one number, with futex(2) alone.
 *
 * A latch: a gate many threads wait at until it is opened, once.  A
 * condition variable would do the same with a mutex, which every
 * waiter must take again to leave: 1024 woken producers then leave one
 * at a time, each hand-over waiting for the next one's turn on a CPU that
 * the ones already through spin on.  On 2 CPUs, 961 of 1024 had not left
 * 3 s after the release.  A latch's waiters need no lock to leave.
 *
 * A count: threads that have yet to do something (run, return), and one
 * thread that waits for the last of them (no lock on their way either).
 */
#ifndef SWEEP_LATCH_H
#define SWEEP_LATCH_H

#include <stdatomic.h>
#include <time.h>

struct latch {
	atomic_uint open;	/* 0 until latch_open() */
};

/* Block until the latch is open (at once if it is). */
void latch_wait(struct latch *l);

/* Open the latch for every waiter, now and later. */
void latch_open(struct latch *l);

struct count {
	atomic_uint left;
};

void count_add(struct count *c);

/* One fewer; the last one wakes count_wait_zero(). */
void count_done(struct count *c);

/* Block until the count is 0. */
void count_wait_zero(struct count *c);

/*
 * ... or until the CLOCK_MONOTONIC deadline (NULL: none): 0 once it is 0,
 * -ETIMEDOUT past the deadline, -EINTR when a signal came first.
 */
int count_wait_zero_until(struct count *c, const struct timespec *deadline);

#endif
