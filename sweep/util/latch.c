// SPDX-License-Identifier: GPL-2.0
/* A latch and a count on futex(2) (latch.h): glibc has no wrapper for it. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "latch.h"

/* Sleep while *word is still val; a wake-up, a signal or a changed word returns. */
static void futex_wait(atomic_uint *word, unsigned int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_all(atomic_uint *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void latch_wait(struct latch *l)
{
	while (!atomic_load(&l->open))
		futex_wait(&l->open, 0);
}

void latch_open(struct latch *l)
{
	atomic_store(&l->open, 1);
	futex_wake_all(&l->open);
}

void count_add(struct count *c)
{
	atomic_fetch_add(&c->left, 1);
}

void count_done(struct count *c)
{
	if (atomic_fetch_sub(&c->left, 1) == 1)
		futex_wake_all(&c->left);
}

int count_wait_zero_until(struct count *c, const struct timespec *deadline)
{
	unsigned int left;

	while ((left = atomic_load(&c->left))) {
		/* FUTEX_WAIT_BITSET's timeout is absolute, on CLOCK_MONOTONIC; none: NULL */
		if (syscall(SYS_futex, &c->left, FUTEX_WAIT_BITSET_PRIVATE, left, deadline, NULL,
			    FUTEX_BITSET_MATCH_ANY) && (errno == ETIMEDOUT || errno == EINTR))
			return -errno;
	}
	return 0;
}

/* Without a deadline, only a signal returns early: wait on. */
void count_wait_zero(struct count *c)
{
	while (count_wait_zero_until(c, NULL))
		;
}
