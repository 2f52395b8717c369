// SPDX-License-Identifier: GPL-2.0
/* A result directory as the HTML page shows it: see htmlrun.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "htmlrun.h"

/*
 * The spec as run, titled as the run was: an untitled spec takes its file
 * name for a title, which DIR/spec is not (meta's title is the run's).
 */
static int bind_run_spec(struct html_run *r)
{
	const char *title = result_meta(r->set, "title");
	char name[4200], set[4200];
	int err;

	snprintf(name, sizeof(name), "%s/spec", r->dir);
	err = spec_parse_string(name, r->set->spec, &r->spec);
	if (!err && title) {
		snprintf(set, sizeof(set), "title=%s", title);
		err = spec_set(r->spec, set);
	}
	return err ?: bind_spec(r->spec, &r->cfg);
}

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
	char why[512] = "";
	int err;

	*r = (struct html_run){ .dir = dir };
	err = results_read(dir, &r->set, why, sizeof(why));
	if (err) {
		results_read_diag(dir, err, why);
		return err;
	}
	if (!r->set->has_summary) {
		diag_err("%s holds no summary.csv: not a result directory of bpfsweep run", dir);
		return -EINVAL;
	}
	err = r->set->spec ? bind_run_spec(r) : 0;
	if (err)
		return err;
	err = view_build(r->set, r->cfg, &r->view, why, sizeof(why));
	if (err) {
		results_read_diag(dir, err, why);
		return err;
	}
	r->facts = run_facts_of(r->set);
	return sort_rows(r);
}

const char *html_run_cell(const struct html_run *run, const struct view_row *r, int m,
			  const char *stat)
{
	int col = result_stat_col(run->set, run->view->metrics[m].name, stat);

	if (col < 0 || r->line <= 0 || r->line >= run->set->summary.nr_rows)
		return "";
	return run->set->summary.rows[r->line][col];
}

void html_run_free(struct html_run *r)
{
	view_free(r->view);
	sweep_cfg_free(r->cfg);
	spec_free(r->spec);
	result_set_free(r->set);
	free(r->rows);
	*r = (struct html_run){ 0 };
}
