// SPDX-License-Identifier: GPL-2.0
/* A row of one result view on another's experiments: see viewmap.h. */
#include <string.h>

#include "viewmap.h"
#include "view.h"

bool view_same_params(const struct workload *a, const struct workload *b)
{
	if (strcmp(a->name, b->name) || a->nr_params != b->nr_params)
		return false;
	for (int k = 0; k < a->nr_params; k++)
		if (strcmp(a->params[k].name, b->params[k].name) ||
		    a->params[k].type != b->params[k].type)
			return false;
	return true;
}

bool view_same_schema(const struct result_view *from, const struct result_view *to)
{
	const struct workload *a = &from->schema, *b = &to->schema;

	if (!view_same_params(a, b) || a->nr_metrics != b->nr_metrics)
		return false;
	for (int m = 0; m < a->nr_metrics; m++)
		if (strcmp(a->metrics[m].name, b->metrics[m].name) ||
		    a->metrics[m].kind != b->metrics[m].kind)
			return false;
	return true;
}

/*
 * The experiment of `to` that is experiment x of `from`: the same title,
 * or both untitled (a [params] without a title takes the run's, which
 * --set title changes); -1 if none.
 */
static int exp_onto(const struct result_view *from, int x, const struct result_view *to)
{
	const struct view_exp *e = &from->exps[x];
	const char *title = view_exp_title(from, e);
	bool untitled = !e->title || (from->title && !strcmp(e->title, from->title));

	for (int y = 0; y < to->nr_exps; y++) {
		const struct view_exp *f = &to->exps[y];

		if (!strcmp(view_exp_title(to, f), title) ||
		    (untitled && (!f->title || (to->title && !strcmp(f->title, to->title)))))
			return y;
	}
	return -1;
}

/* from's value v of enum parameter k as to's, or -1. */
static long long choice_onto(const struct param_def *from, long long v, const struct param_def *to)
{
	for (int i = 0; to->choices && to->choices[i]; i++)
		if (!strcmp(to->choices[i], from->choices[v]))
			return i;
	return -1;
}

bool view_row_onto(const struct result_view *from, const struct view_row *r,
		   const struct result_view *to, struct view_row *out)
{
	*out = *r;
	out->exp = r->exp < 0 ? -1 : exp_onto(from, r->exp, to);
	if (out->exp < 0)
		return false;
	for (int k = 0; from != to && k < from->schema.nr_params; k++) {
		if (from->params[k].type != PT_ENUM)
			continue;
		out->v[k] = choice_onto(&from->params[k], r->v[k], &to->params[k]);
		if (out->v[k] < 0)
			return false;
	}
	return true;
}
