/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "The same point", defined once.  A point is its experiment and the
 * values of its parameters, by name, as summary.csv writes them; two keys
 * are the same point when their experiments agree (where both name one)
 * and they have the same parameters with the same values.  compare's
 * join, its paired rounds, report's rows against a re-bound spec and the
 * [report] baseline all ask it here, each reading its own form of a point
 * through the key's callbacks.
 */
#ifndef SWEEP_POINTKEY_H
#define SWEEP_POINTKEY_H

#include <stdbool.h>
#include <stddef.h>

struct point_key {
	const char *experiment;		/* its title; NULL: not compared */
	int nr;				/* parameters */
	/* parameter p's name; NULL: keys of one workload, whose parameters line up by place */
	const char *(*name)(const struct point_key *k, int p);
	/* parameter p's value as text: into buf, or text the key's point holds */
	const char *(*value)(const struct point_key *k, int p, char *buf, size_t len);
	const void *of;			/* what they read: a summary row, a point */
	const void *with;		/* and by what: its header, its workload */
	const int *col;			/* of a summary row: parameter p's column */
};

/* The experiments differ (point_key_diff()). */
#define POINT_KEY_EXPERIMENT	(-2)
/* The same point. */
#define POINT_KEY_SAME		(-1)

/*
 * POINT_KEY_SAME when a and b are the same point, leaving out a's
 * parameter skip (-1: none; a point and its baseline differ in one);
 * POINT_KEY_EXPERIMENT when their experiments differ; else the parameter
 * of a whose value b does not share, or a->nr when b has a parameter a
 * lacks.
 */
int point_key_diff(const struct point_key *a, const struct point_key *b, int skip);

bool point_same(const struct point_key *a, const struct point_key *b, int skip);

/*
 * The key of summary row `row` (cells) under `header`: experiment, and
 * parameter p in column col[p] (nr of them).
 */
struct point_key point_key_of_row(const char *experiment, char *const *header, char *const *row,
				  const int *col, int nr);

/* The key of a point of a workload by its values v[0..nr) (experiment not compared). */
struct point_key point_key_of_values(const long long *v, int nr);

#endif
