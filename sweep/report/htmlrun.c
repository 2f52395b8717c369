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

int html_run_of(const struct loaded_run *lr, const struct result_view *v, struct html_run *r)
{
	*r = (struct html_run){ .dir = lr->dir, .lr = lr, .view = v,
				.facts = run_facts_of(lr->set) };
	r->rows = calloc(v->nr_rows + 1, sizeof(*r->rows));
	if (!r->rows)
		return -ENOMEM;
	for (int i = 0; i < v->nr_rows; i++)
		r->rows[r->nr_rows++] = &v->rows[i];
	qsort(r->rows, r->nr_rows, sizeof(*r->rows), by_id);
	return 0;
}

const char *html_run_cell(const struct html_run *run, const struct view_row *r, int m,
			  const char *stat)
{
	const struct result_set *set = run->lr->set;
	int col = result_stat_col(set, run->view->metrics[m].name, stat);

	if (col < 0 || r->line <= 0 || r->line >= set->summary.nr_rows)
		return "";
	return set->summary.rows[r->line][col];
}

void html_run_free(struct html_run *r)
{
	free(r->rows);
	*r = (struct html_run){ 0 };
}
