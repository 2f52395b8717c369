/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --shard I/N: one run's share of a spec's points, so that N identical
 * machines run the N shares at once and `merge` puts them back together
 * (docs/fleet.md).  A point's shard follows from its place among the
 * points the run selects (all, or --only's), nothing else: every shard
 * of one command line, run anywhere, computes the same split, and the N
 * of them hold every point exactly once.
 *
 * Round-robin, not contiguous blocks: the k-th selected point in plan
 * order is in shard k mod N + 1.  Both give shares within one point of
 * each other, but what a point costs follows its parameters, and plan
 * order varies the first key slowest: blocks hand one machine whole
 * experiments or whole values of an outer axis.  With
 * specs/ringbuf_overwrite.spec on a kernel without overwrite mode, 32 of
 * its 48 points are unsupported (they take no time), ids 16..47; halves
 * in blocks would give one host all 16 measured points and the other
 * none, round-robin gives each 8.  What round-robin cannot spread is an
 * innermost axis whose count is a multiple of N: each shard then gets the
 * same values of it (N = 2 and "overwrite = off on" innermost: one host
 * every "off").
 */
#ifndef SWEEP_SHARD_H
#define SWEEP_SHARD_H

#include <stdbool.h>
#include <stddef.h>

struct point;
struct sweep_cfg;

/* bind.c allows at most 1000000 points: more shards than that hold nothing */
#define SHARD_MAX	1000000

struct shard {
	int index;		/* 1..count */
	int count;		/* 0: no --shard, the whole spec */
};

/*
 * "I/N", decimal, 1 <= I <= N <= SHARD_MAX, nothing else (no sign, no
 * space).  0, or -EINVAL with why filled.
 */
int shard_parse(const char *arg, struct shard *sh, char *why, size_t len);

/* Whether the k-th (from 0) point of the run's selection is in sh; any k without --shard. */
static inline bool shard_has(const struct shard *sh, int k)
{
	return !sh->count || k % sh->count == sh->index - 1;
}

/*
 * Whether a run selects pt, given the points in plan order: those of
 * experiment only (NULL: all), and of them shard sh's share.  *nr_sel
 * counts the points --only selects: start it at 0.
 */
bool shard_selects(const struct sweep_cfg *cfg, const char *only, const struct shard *sh,
		   const struct point *pt, int *nr_sel);

/* How many of nr selected points shard sh holds. */
static inline int shard_size(const struct shard *sh, int nr)
{
	if (!sh->count)
		return nr;
	return nr / sh->count + (nr % sh->count >= sh->index);
}

#endif
