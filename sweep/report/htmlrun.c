// SPDX-License-Identifier: GPL-2.0
/* A result directory as the HTML page shows it: see htmlrun.h. */
#include <errno.h>
#include <stdlib.h>

#include "htmlrun.h"

static int by_id(const void *a, const void *b)
{
	const struct view_row *x = *(const struct view_row *const *)a;
	const struct view_row *y = *(const struct view_row *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

static int sort_rows(struct html_run *r)
{
	r->rows = calloc(r->view->nr_rows + 1, sizeof(*r->rows));
	if (!r->rows)
		return -ENOMEM;
	for (int i = 0; i < r->view->nr_rows; i++)
		r->rows[r->nr_rows++] = &r->view->rows[i];
	qsort(r->rows, r->nr_rows, sizeof(*r->rows), by_id);
	return 0;
}

int html_run_load(const char *dir, struct html_run *r)
{
	/* the spec as run, its rows checked and placed as report's (resultload.h) */
	int err;

	*r = (struct html_run){ .dir = dir };
	err = resultload_open(dir, NULL, NULL, 0, &r->lr) ?: resultload_view(&r->lr, &r->view);
	if (err)
		return err;
	r->facts = run_facts_of(r->lr.set);
	return sort_rows(r);
}

const char *html_run_cell(const struct html_run *run, const struct view_row *r, int m,
			  const char *stat)
{
	int col = result_stat_col(run->lr.set, run->view->metrics[m].name, stat);

	if (col < 0 || r->line <= 0 || r->line >= run->lr.set->summary.nr_rows)
		return "";
	return run->lr.set->summary.rows[r->line][col];
}

void html_run_free(struct html_run *r)
{
	view_free(r->view);
	resultload_free(&r->lr);
	free(r->rows);
	*r = (struct html_run){ 0 };
}
