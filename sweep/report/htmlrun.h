/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result directory as the HTML page shows it: the run as draw read it
 * (draw.h: the set, the spec as run bound for its [report] settings, the
 * result view of its rows), its facts, its rows in point order, and its
 * flame graphs where the run's end drew them.  Read only: nothing of the
 * directory is written, and nothing here is read again.
 */
#ifndef SWEEP_HTMLRUN_H
#define SWEEP_HTMLRUN_H

#include "flamefile.h"
#include "resultload.h"
#include "runfacts.h"
#include "view.h"

struct html_run {
	const char *dir;
	const struct loaded_run *lr;	/* the set, the spec as run bound (cfg NULL: imported) */
	const struct result_view *view;	/* lr's (resultload_view()) */
	/* its points' flame graphs as drawn at the run's end, or NULL: drawn from profiles/ */
	const struct flame_graphs *flames;
	struct run_facts facts;
	const struct view_row **rows;	/* every row, by point id */
	int nr_rows;
	char idp[16];			/* its elements' ids start so: "", "r2-" (merged) */
};

/* *r of lr and its view v (both the caller's, to outlive r); 0 or -ENOMEM.  html_run_free(). */
int html_run_of(const struct loaded_run *lr, const struct result_view *v, struct html_run *r);

/*
 * The summary.csv cell of metric m's statistic stat ("mean", "stddev",
 * "ci95") of row r as written, "" when it has none: the page's data-v.
 */
const char *html_run_cell(const struct html_run *run, const struct view_row *r, int m,
			  const char *stat);

void html_run_free(struct html_run *r);

#endif
