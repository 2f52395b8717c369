/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A comparison built from two result sets, as `compare` prints it and its
 * gate counts it: points joined by parameter values, each side's state,
 * per metric both sides' independent units, Welch's test and the decision
 * (decide.h) with its interval.  Diagnostics through diag; no output else.
 */
#ifndef SWEEP_COMPARE_BUILD_H
#define SWEEP_COMPARE_BUILD_H

#include "compare_print.h"
#include "progread.h"
#include "view.h"

/*
 * One result directory compare reads (compare_load.c): its files and their
 * result view (view.h, the set described by its own columns: the model
 * report and the pages read, and what compare's numbers come from).
 */
struct compare_set {
	const char *dir;
	struct result_set *set;
	struct result_view *view;
	struct prog_table progs;	/* programs.csv; progs.present false without it */
};

/* What a comparison is asked. */
struct compare_rule {
	double alpha;			/* of the test and the decision's interval */
	double bound_pct;		/* "same": no change beyond ±bound_pct */
	const char *const *ignore;	/* parameters left out of the match */
	int nr_ignore;
	bool allow_tcg;			/* a TCG (or icount) set against one that is not */
	const char *const *pick;	/* -e: comma-separated metric names to print */
	int nr_pick;
	bool all_programs;		/* text and markdown list every program, not the changed */
};

/*
 * c->base, c->new and their directories set: everything else of c.  A TCG
 * set against one that is not, a TCG icount set against one that is not
 * (both without allow_tcg), sets that cannot be
 * joined or share nothing are -EINVAL, said on stderr; -ENOMEM.
 */
int comparison_build(struct comparison *c, const struct compare_rule *rule);

/* c, zeroed, as base against new: their directories, sets and views. */
void comparison_pair(struct comparison *c, const struct compare_set *base,
		     const struct compare_set *new);

void comparison_free(struct comparison *c);

/*
 * A point's moments of metric in v (row: its summary row, 1-based, as
 * view rows follow summary.csv): of the independent units its measured
 * intervals make (the view's), or, where the set holds none of its
 * intervals, from its summary row; a value a side did not record has mean
 * NaN.
 */
void compare_point_moments(const struct result_view *v, int row, const char *metric,
			   enum cmp_kind kind, struct cmp_moments *m);

/* The row of v that is summary row row (1-based); NULL for row -1, a side without it. */
const struct view_row *compare_row(const struct result_view *v, int row);

/* The index of metric name in v's schema, or -1. */
int compare_view_metric(const struct result_view *v, const char *name);

/*
 * Read dir into *s: a result directory with summary.csv rows whose view
 * builds, else said on stderr: -ENOENT, -ENOTDIR, -EINVAL or -ENOMEM.
 * compare_set_free() it either way.
 */
int compare_set_load(const char *dir, struct compare_set *s);
void compare_set_free(struct compare_set *s);

#endif
