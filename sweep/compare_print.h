/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A finished comparison of BASE with one NEW result set, as cmd_compare.c
 * builds it, and its output in the four formats of --format.
 */
#ifndef SWEEP_COMPARE_PRINT_H
#define SWEEP_COMPARE_PRINT_H

#include <stdio.h>

#include "compare.h"
#include "outfmt.h"
#include "results_read.h"

/* One metric of one point both sets ran. */
struct metric_cmp {
	const char *metric;
	bool gauge;			/* a level in bytes, not a rate */
	enum cmp_better dir;
	struct cmp_moments base, new;	/* of the per-second rates, or a gauge's levels */
	struct cmp_test test;
	enum cmp_verdict verdict;
	double delta_pct;		/* NaN when base's mean is 0 */
};

enum point_state { PS_COMPARED, PS_BASE_ONLY, PS_NEW_ONLY, PS_NOT_COMPARED };

struct point_cmp {
	int base_row, new_row;		/* summary rows; -1 on the side without it */
	const char *experiment;
	char label[256];		/* the parameters that vary in the experiment */
	enum point_state state;
	char reason[512];		/* PS_NOT_COMPARED: "new: unsupported: ..." */
	struct metric_cmp *m;		/* PS_COMPARED: one per metric both sets have */
};

struct comparison {
	const char *base_dir, *new_dir;
	const struct result_set *base, *new;
	struct cmp_join join;
	char **metrics;			/* both sets have them, in base's order; [0] the headline */
	bool *gauge;			/* per metric: a gauge (level), else a counter (rate) */
	int nr_metrics;
	struct point_cmp *pts;		/* one per join match, in its order */
	int nr_pts;
	char notes[4][512];		/* BASE-only and NEW-only parameters, --ignore, titles */
	int nr_notes;
};

/* The value of a common parameter of p (base's row, else new's). */
const char *point_param(const struct comparison *c, const struct point_cmp *p, int param);

/*
 * Every point's label (compare_label.c): the stored spec's label template
 * of its experiment, where it tells the experiment's points apart, else
 * the parameters that vary among them.  Returns 0 or -errno.
 */
int compare_labels(struct comparison *c);

/* " (6.18.0, x86_64, kernel=patched)": the meta facts that tell sets apart. */
void compare_describe_set(const struct result_set *rs, char *buf, size_t len);

/*
 * compare --paired (compare_paired.c): cs[r] is round r's BASE against its
 * NEW; per point and metric, NEW / BASE over the rounds, as text or CSV.
 * 0 or -errno.
 */
int compare_paired_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
			 double alpha);

/* Print every comparison in fmt; returns 0 or -errno. */
int compare_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
		  double alpha);

#endif
