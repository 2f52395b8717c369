/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result directory as the HTML page shows it: the set read back, the
 * spec as run bound for its [report] settings (labels, values, groups),
 * the result view of its rows (view.h), its facts, and its rows in point
 * order.  Read only: nothing of the directory is written.
 */
#ifndef SWEEP_HTMLRUN_H
#define SWEEP_HTMLRUN_H

#include "resultload.h"
#include "runfacts.h"
#include "view.h"

struct html_run {
	const char *dir;
	struct loaded_run lr;		/* the set, the spec as run bound (cfg NULL: imported) */
	struct result_view *view;
	struct run_facts facts;
	const struct view_row **rows;	/* every row, by point id */
	int nr_rows;
	char idp[16];			/* its elements' ids start so: "", "r2-" (merged) */
};

/* Read dir into *r; errors reported; 0 or -errno.  html_run_free() either way. */
int html_run_load(const char *dir, struct html_run *r);

/*
 * The summary.csv cell of metric m's statistic stat ("mean", "stddev",
 * "ci95") of row r as written, "" when it has none: the page's data-v.
 */
const char *html_run_cell(const struct html_run *run, const struct view_row *r, int m,
			  const char *stat);

void html_run_free(struct html_run *r);

#endif
