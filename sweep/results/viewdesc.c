// SPDX-License-Identifier: GPL-2.0
/*
 * A spec-less result set described by itself: see viewdesc.h.  Names and
 * enum choices point into the set's header and cells, which is why the
 * set must outlive its view.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind_report.h"
#include "diag.h"
#include "metricdef.h"
#include "metricmeta.h"
#include "viewdesc.h"

static const char *cell(const struct result_set *set, int row, int col)
{
	return set->summary.rows[row][col];
}

static bool is_integer(const char *text)
{
	char *end;

	if (!*text)
		return false;
	strtoll(text, &end, 10);
	return !*end;
}

static int choice_index(const char *const *choices, const char *text)
{
	for (int i = 0; choices[i]; i++)
		if (!strcmp(choices[i], text))
			return i;
	return -1;
}

/* Parameter k: the integers of its column, or an enum of the values seen in row order. */
static int describe_param(struct result_view *v, const struct result_set *set, int k)
{
	int col = set->first_param + k, nr = 0;
	struct param_def *p = &v->params[k];
	bool ints = true;

	*p = (struct param_def){ .name = cell(set, 0, col), .type = PT_INT, .def = "0",
				 .min = -9223372036854775807LL, .max = 9223372036854775807LL };
	for (int r = 1; r < set->summary.nr_rows; r++)
		ints &= is_integer(cell(set, r, col));
	if (ints)
		return 0;
	v->choices[k] = calloc(set->summary.nr_rows + 1, sizeof(*v->choices[k]));
	if (!v->choices[k])
		return -ENOMEM;
	for (int r = 1; r < set->summary.nr_rows; r++)
		if (choice_index(v->choices[k], cell(set, r, col)) < 0)
			v->choices[k][nr++] = cell(set, r, col);
	p->type = PT_ENUM;
	p->choices = v->choices[k];
	p->def = v->choices[k][0] ? v->choices[k][0] : "";
	return 0;
}

/* Metrics: the summary's mean columns of counters and gauges, in order (results_read.h). */
static void describe_metrics(struct result_view *v, const struct result_set *set)
{
	struct workload *wl = &v->schema;

	for (int c = 0; c < set->summary.nr_cols && wl->nr_metrics < WL_MAX_METRICS; c++) {
		const struct result_col *rc = &set->cols[c];
		char *unit = v->units[wl->nr_metrics];
		bool gauge = rc->kind == CK_GAUGE;
		struct metric_info mi;

		if (strcmp(rc->stat, "mean") || (rc->kind != CK_COUNTER && !gauge))
			continue;
		/* the unit and direction its meta line gives, or its name's */
		metricmeta_of(set, rc->metric, gauge, &mi);
		snprintf(unit, sizeof(v->units[0]), "%s", mi.unit);
		v->metrics[wl->nr_metrics++] = (struct metric_def){
			.name = rc->metric, .kind = gauge ? MK_GAUGE : MK_COUNTER,
			/* one per workload, as workload.h says */
			.per_thread = !gauge && wl_thread_metric(wl) < 0 &&
				      result_stat_col(set, rc->metric, "worker_mean") >= 0,
			.source = gauge && prog_source_of_name(rc->metric) != MS_LOAD ?
				  MS_WORKLOAD : prog_source_of_name(rc->metric),
			.unit = *unit ? unit : NULL, .better = mi.better,
			.deterministic = mi.deterministic,
		};
	}
}

int viewdesc_schema(struct result_view *v, const struct result_set *set, char *why, size_t len)
{
	int err = 0;

	if (set->nr_params > WL_MAX_PARAMS) {
		return results_refuse(why, len, set, "summary.csv", 1, set->first_param + 1,
				      "%d parameters (at most %d)", set->nr_params,
				      WL_MAX_PARAMS);
	}
	v->schema = (struct workload){ .name = "imported", .params = v->params,
				       .nr_params = set->nr_params, .metrics = v->metrics };
	for (int k = 0; !err && k < set->nr_params; k++)
		err = describe_param(v, set, k);
	if (!err)
		describe_metrics(v, set);
	if (!err && !v->schema.nr_metrics) {
		/* the table and charts show rates and levels: times alone are neither */
		err = results_refuse(why, len, set, "summary.csv", 1, 1,
				     "no rate column (M_per_s_mean) or level column "
				     "(M_mean of a samples column M) to draw");
	}
	return err;
}

static int exp_titled(const struct result_view *v, const char *title)
{
	for (int x = 0; x < v->nr_exps; x++)
		if (!strcmp(v->exps[x].title, title))
			return x;
	return -1;
}

int viewdesc_exps(struct result_view *v, const struct result_set *set)
{
	v->exps = calloc(set->nr_points + 1, sizeof(*v->exps));
	if (!v->exps)
		return -ENOMEM;
	for (int i = 0; i < set->nr_points; i++) {
		struct view_exp *x = &v->exps[v->nr_exps];

		if (exp_titled(v, set->points[i].experiment) >= 0)
			continue;
		*x = (struct view_exp){ .title = set->points[i].experiment, .group = -1 };
		for (int k = 0; k < set->nr_params; k++)
			x->order[x->nr_order++] = k;
		v->nr_exps++;
	}
	return 0;
}

/* Do the experiment's rows with the same other values always have the same value of k? */
static bool follows_others(const struct result_view *v, int exp, int k)
{
	int nr_params = v->schema.nr_params;

	for (int i = 0; i < v->nr_rows; i++) {
		const struct view_row *a = &v->rows[i];

		for (int j = i + 1; a->exp == exp && j < v->nr_rows; j++) {
			const struct view_row *b = &v->rows[j];
			bool same_others = b->exp == exp;

			for (int o = 0; same_others && o < nr_params; o++)
				same_others = o == k || a->v[o] == b->v[o];
			if (same_others && a->v[k] != b->v[k])
				return false;
		}
	}
	return nr_params > 1;
}

/*
 * Parameter k's values in experiment exp, first seen first.  A text column
 * that follows the others (the bench's row label beside the producers its
 * template captured) counts as one value: it says nothing the others do
 * not, so it splits no chart into series and names no row.
 */
static int add_values(struct result_view *v, int exp, int k)
{
	struct view_exp *x = &v->exps[exp];
	long long *vals = calloc(v->nr_rows + 1, sizeof(*vals));
	int nr = 0;

	if (!vals)
		return -ENOMEM;
	for (int i = 0; i < v->nr_rows; i++) {
		int j = 0;

		if (v->rows[i].exp != exp)
			continue;
		while (j < nr && vals[j] != v->rows[i].v[k])
			j++;
		if (j == nr)
			vals[nr++] = v->rows[i].v[k];
	}
	x->own_vals[k] = vals;
	x->vals[k] = vals;
	x->nr_vals[k] = nr;
	x->linked[k] = v->params[k].type == PT_ENUM && follows_others(v, exp, k);
	if (x->linked[k])
		x->nr_vals[k] = 1;
	return 0;
}

/* The default report: the label column as the label, the varying int parameter charted. */
static void default_report(struct result_view *v, struct view_exp *x)
{
	const struct workload *wl = &v->schema;

	for (int k = 0; k < wl->nr_params && !x->nr_plots && wl->nr_metrics; k++) {
		if (wl->params[k].type != PT_INT || x->nr_vals[k] < 2)
			continue;
		x->plots[x->nr_plots++] = (struct plot_req){ .x = k, .y = 0, .by = -1 };
	}
	if (param_index(wl->params, wl->nr_params, "label") >= 0)
		x->label = "{label}";
}

int viewdesc_axes(struct result_view *v)
{
	int err = 0;

	for (int x = 0; x < v->nr_exps; x++) {
		for (int k = 0; !err && k < v->schema.nr_params; k++)
			err = add_values(v, x, k);
		if (!err)
			default_report(v, &v->exps[x]);
	}
	return err;
}

static bool has_key(const struct spec_section *sec, const char *key)
{
	for (int i = 0; sec && i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			return true;
	return false;
}

/* What rep says, over experiment x's own settings: only the keys sec gives replace them. */
static void report_onto(struct view_exp *x, const struct spec_section *sec,
			const struct report_opts *rep)
{
	x->group = rep->group;
	if (rep->nr_plots) {
		x->nr_plots = rep->nr_plots;
		memcpy(x->plots, rep->plots, sizeof(x->plots));
	}
	x->worker_rows = rep->worker_rows;
	if (has_key(sec, "baseline"))
		x->baseline = rep->baseline;
	if (has_key(sec, "values"))
		x->values = rep->values;
	if (has_key(sec, "label"))
		x->label = rep->label;
	if (has_key(sec, "logx"))
		x->logx = rep->logx;
}

int viewdesc_report(struct result_view *v, const struct spec *s)
{
	const struct spec_section *sec = NULL;
	int errors = diag_error_count();

	for (int i = 0; i < s->nr_sections; i++)
		if (!strcmp(s->sections[i].name, "report"))
			sec = &s->sections[i];
	for (int x = 0; x < v->nr_exps; x++) {
		struct report_opts rep = { .group = v->exps[x].group,
					   .worker_rows = v->exps[x].worker_rows };

		bind_report_entries(&v->schema, sec, &rep);
		if (diag_error_count() != errors)
			return -EINVAL;
		report_onto(&v->exps[x], sec, &rep);
	}
	return 0;
}
