// SPDX-License-Identifier: GPL-2.0
/*
 * A spec-less result set described by itself: see resultcfg.h.  Names
 * and enum choices point into the set's summary header and cells, which
 * is why the set must outlive the description.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindval.h"
#include "diag.h"
#include "metric.h"
#include "metricmeta.h"
#include "progrun.h"
#include "resultcfg.h"

struct result_cfg {
	struct workload wl;
	struct param_def params[WL_MAX_PARAMS];
	const char **choices[WL_MAX_PARAMS];	/* PT_ENUM: values seen, NULL-terminated */
	char *metric_names[WL_MAX_METRICS];
	struct metric_info infos[WL_MAX_METRICS];	/* what meta says of each (units) */
	struct metric_def metrics[WL_MAX_METRICS];
};

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

/* Parameter k: the integers of its column, or an enum of the values seen in row order. */
static int describe_param(struct result_cfg *rc, const struct result_set *set, int k)
{
	int col = set->first_param + k, nr = 0;
	struct param_def *p = &rc->params[k];
	bool ints = true;

	*p = (struct param_def){ .name = cell(set, 0, col), .type = PT_INT, .def = "0",
				 .min = -9223372036854775807LL, .max = 9223372036854775807LL };
	for (int r = 1; r < set->summary.nr_rows; r++)
		ints &= is_integer(cell(set, r, col));
	if (ints)
		return 0;
	rc->choices[k] = calloc(set->summary.nr_rows + 1, sizeof(*rc->choices[k]));
	if (!rc->choices[k])
		return -ENOMEM;
	for (int r = 1; r < set->summary.nr_rows; r++)
		if (bind_list_index(rc->choices[k], cell(set, r, col)) < 0)
			rc->choices[k][nr++] = cell(set, r, col);
	p->type = PT_ENUM;
	p->choices = rc->choices[k];
	p->def = rc->choices[k][0] ? rc->choices[k][0] : "";
	return 0;
}

/* Has the summary the columns of a per-thread metric's workers (docs/results.md)? */
static bool has_workers(const struct result_set *set, const char *metric)
{
	return result_stat_col(set, metric, "worker_mean") >= 0;
}

/* Metrics: the summary's mean columns of counters and gauges, in order (results_read.h). */
static int describe_metrics(struct result_cfg *rc, const struct result_set *set)
{
	char name[256];
	bool gauge;

	for (int c = 0; c < set->summary.nr_cols && rc->wl.nr_metrics < WL_MAX_METRICS; c++) {
		char **m = &rc->metric_names[rc->wl.nr_metrics];
		struct metric_info *mi = &rc->infos[rc->wl.nr_metrics];
		bool per_thread;

		if (!result_mean_column(set, cell(set, 0, c), name, sizeof(name), &gauge))
			continue;
		/* one per workload, as workload.h says */
		per_thread = !gauge && wl_thread_metric(&rc->wl) < 0 && has_workers(set, name);
		*m = strdup(name);
		if (!*m)
			return -ENOMEM;
		/* the unit and direction its meta line gives, or its name's */
		metricmeta_of(set, name, gauge, mi);
		rc->metrics[rc->wl.nr_metrics++] = (struct metric_def){
			.name = *m, .kind = gauge ? MK_GAUGE : MK_COUNTER, .per_thread = per_thread,
			/* so that ns_per_run is computed again from the samples */
			.source = gauge ? MS_WORKLOAD : prog_source_of_name(name),
			.unit = *mi->unit ? mi->unit : NULL, .better = mi->better,
		};
	}
	return 0;
}

static int describe(struct result_cfg *rc, const struct result_set *set, const char *dir)
{
	int err = 0;

	if (set->nr_params > WL_MAX_PARAMS) {
		diag_err("%s: summary.csv has %d parameters (at most %d)", dir, set->nr_params,
			 WL_MAX_PARAMS);
		return -EINVAL;
	}
	rc->wl = (struct workload){ .name = "imported", .params = rc->params,
				    .nr_params = set->nr_params, .metrics = rc->metrics };
	for (int k = 0; !err && k < set->nr_params; k++)
		err = describe_param(rc, set, k);
	if (!err)
		err = describe_metrics(rc, set);
	if (!err && !rc->wl.nr_metrics) {
		/* the table and charts show rates and levels: times alone are neither */
		diag_err("%s: summary.csv has no rate column (M_per_s_mean) or level column "
			 "(M_mean of a samples column M) to draw", dir);
		err = -EINVAL;
	}
	return err;
}

/* Summary row r's value of parameter k, as the descriptor holds it. */
static long long value_of(const struct result_cfg *rc, const struct result_set *set, int r, int k)
{
	const char *text = cell(set, r, set->first_param + k);

	if (rc->params[k].type == PT_ENUM)
		return bind_list_index(rc->choices[k], text);
	return strtoll(text, NULL, 10);
}

static int experiment_of(const struct sweep_cfg *cfg, const char *title)
{
	for (int x = 0; x < cfg->nr_exps; x++)
		if (!strcmp(cfg->exps[x].title, title))
			return x;
	return -1;
}

/* One experiment per title, in the order of their first rows. */
static int add_experiments(struct sweep_cfg *cfg, const struct result_set *set)
{
	cfg->exps = calloc(set->nr_points + 1, sizeof(*cfg->exps));
	if (!cfg->exps)
		return -ENOMEM;
	for (int i = 0; i < set->nr_points; i++) {
		struct experiment *x = &cfg->exps[cfg->nr_exps];

		if (experiment_of(cfg, set->points[i].experiment) >= 0)
			continue;
		*x = (struct experiment){ .group = -1 };
		x->title = strdup(set->points[i].experiment);
		cfg->nr_exps++;
		if (!x->title)
			return -ENOMEM;
	}
	return 0;
}

static void push_value(struct axis *ax, long long v)
{
	for (int i = 0; i < ax->nr_vals; i++)
		if (ax->vals[i] == v)
			return;
	ax->vals[ax->nr_vals++] = v;
}

/* Do the experiment's rows with the same other values always have the same value of k? */
static bool follows_others(const struct plan *plan, int exp, int k, int nr_params)
{
	for (int i = 0; i < plan->nr_pts; i++) {
		const struct point *a = &plan->pts[i];

		for (int j = i + 1; a->exp == exp && j < plan->nr_pts; j++) {
			const struct point *b = &plan->pts[j];
			bool same_others = b->exp == exp;

			for (int o = 0; same_others && o < nr_params; o++)
				same_others = o == k || a->wp.v[o] == b->wp.v[o];
			if (same_others && a->wp.v[k] != b->wp.v[k])
				return false;
		}
	}
	return nr_params > 1;
}

/*
 * Axes: per parameter, the values of the experiment's rows, first seen
 * first.  A text column that follows the others (the bench's row label
 * beside the producers its template captured) is linked, one value: it
 * says nothing the others do not, so it splits no chart into series.  The
 * points are never expanded from these axes: they are the rows.
 */
static int add_axes(struct experiment *x, int exp, const struct plan *plan,
		    const struct workload *wl)
{
	for (int k = 0; k < wl->nr_params; k++) {
		struct axis *ax = &x->axes[x->nr_axes++];

		*ax = (struct axis){ .param = k };
		ax->vals = calloc(plan->nr_pts + 1, sizeof(*ax->vals));
		if (!ax->vals)
			return -ENOMEM;
		for (int i = 0; i < plan->nr_pts; i++)
			if (plan->pts[i].exp == exp)
				push_value(ax, plan->pts[i].wp.v[k]);
		if (wl->params[k].type == PT_ENUM && follows_others(plan, exp, k, wl->nr_params)) {
			ax->linked = true;
			ax->link = k ? 0 : 1;
			ax->nr_vals = 1;
		}
	}
	return 0;
}

/* The default report: the label column as the label, the varying int parameter charted. */
static int default_report(struct experiment *x, const struct workload *wl)
{
	int label = param_index(wl->params, wl->nr_params, "label");

	for (int k = 0; k < x->nr_axes && !x->nr_plots && wl->nr_metrics; k++) {
		if (wl->params[k].type != PT_INT || x->axes[k].nr_vals < 2)
			continue;
		x->plots[x->nr_plots++] = (struct plot_req){ .x = k, .y = 0, .by = -1 };
	}
	if (label < 0)
		return 0;
	x->label = strdup("{label}");
	return x->label ? 0 : -ENOMEM;
}

static int build_points(const struct result_cfg *rc, const struct result_set *set,
			const struct sweep_cfg *cfg, struct plan *plan)
{
	plan->pts = calloc(set->nr_points + 1, sizeof(*plan->pts));
	if (!plan->pts)
		return -ENOMEM;
	for (int i = 0; i < set->nr_points; i++) {
		struct point *pt = &plan->pts[i];

		*pt = (struct point){ .id = i, .exp = experiment_of(cfg, set->points[i].experiment),
				      .wp.wl = &rc->wl };
		for (int k = 0; k < rc->wl.nr_params; k++)
			pt->wp.v[k] = value_of(rc, set, set->points[i].row, k);
	}
	plan->nr_pts = plan->nr_runnable = set->nr_points;
	return 0;
}

static struct sweep_cfg *cfg_of(const struct result_set *set)
{
	const char *title = result_meta(set, "title");
	struct sweep_cfg *cfg = calloc(1, sizeof(*cfg));

	if (!cfg)
		return NULL;
	cfg->name = strdup("imported");
	cfg->title = strdup(title ? title : set->nr_points ? set->points[0].experiment : "");
	if (cfg->name && cfg->title)
		return cfg;
	sweep_cfg_free(cfg);
	return NULL;
}

int resultcfg_build(const char *dir, const struct result_set *set, const struct spec *spec,
		    struct result_cfg **rcp, struct sweep_cfg **cfgp, struct plan *plan)
{
	struct result_cfg *rc = calloc(1, sizeof(*rc));
	struct sweep_cfg *cfg = cfg_of(set);
	int err = rc && cfg ? describe(rc, set, dir) : -ENOMEM;

	memset(plan, 0, sizeof(*plan));
	*rcp = rc;
	*cfgp = cfg;
	if (err)
		return err;
	cfg->wl = &rc->wl;
	err = add_experiments(cfg, set);
	if (!err)
		err = build_points(rc, set, cfg, plan);
	for (int x = 0; !err && x < cfg->nr_exps; x++) {
		err = add_axes(&cfg->exps[x], x, plan, &rc->wl);
		if (!err)
			err = default_report(&cfg->exps[x], &rc->wl);
		if (!err && spec)
			err = bind_report_section(spec, &rc->wl, &cfg->exps[x]);
	}
	return err;
}

void resultcfg_rates(const struct result_set *set, const struct result_point *p,
		     const struct workload *wl, struct point_result *r)
{
	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct metric_def *d = &wl->metrics[m];
		struct summary *s = &r->stat[m];

		/*
		 * n stays 0: the bench output does not say over how many runs.
		 * A statistic it did not print, an empty cell, is unknown (NaN:
		 * n/a, JSON null, no point in a chart), never 0.
		 */
		*s = (struct summary){
			.mean = result_summary_stat(set, p->row, d->name, "mean"),
			.stddev = result_summary_stat(set, p->row, d->name, "stddev"),
			.median = result_summary_stat(set, p->row, d->name, "median"),
			.min = result_summary_stat(set, p->row, d->name, "min"),
			.max = result_summary_stat(set, p->row, d->name, "max"),
			.ci95 = result_summary_stat(set, p->row, d->name, "ci95") };
		if (!d->per_thread)
			continue;
		r->worker_rate = (struct summary){
			.mean = result_summary_stat(set, p->row, d->name, "worker_mean"),
			.min = result_summary_stat(set, p->row, d->name, "worker_min"),
			.median = result_summary_stat(set, p->row, d->name, "worker_median"),
			.max = result_summary_stat(set, p->row, d->name, "worker_max"),
			.stddev = NAN, .ci95 = NAN };
	}
}

static bool alike(const struct workload *a, const struct workload *b)
{
	if (a->nr_params != b->nr_params || a->nr_metrics != b->nr_metrics)
		return false;
	for (int k = 0; k < a->nr_params; k++)
		if (strcmp(a->params[k].name, b->params[k].name) ||
		    a->params[k].type != b->params[k].type)
			return false;
	for (int m = 0; m < a->nr_metrics; m++)
		if (strcmp(a->metrics[m].name, b->metrics[m].name) ||
		    a->metrics[m].kind != b->metrics[m].kind)
			return false;
	return true;
}

bool resultcfg_retie_values(const struct workload *from, const struct workload *to,
			    long long *v)
{
	if (from == to)
		return true;
	/* descriptors made at run time are named so; registry ones are not */
	if (strcmp(from->name, "imported") || strcmp(to->name, "imported") || !alike(from, to))
		return false;
	for (int k = 0; k < from->nr_params; k++) {
		if (from->params[k].type != PT_ENUM)
			continue;
		v[k] = bind_list_index(to->params[k].choices, from->params[k].choices[v[k]]);
		if (v[k] < 0)
			return false;
	}
	return true;
}

void resultcfg_free(struct result_cfg *rc)
{
	if (!rc)
		return;
	for (int k = 0; k < WL_MAX_PARAMS; k++)
		free(rc->choices[k]);
	for (int m = 0; m < WL_MAX_METRICS; m++)
		free(rc->metric_names[m]);
	free(rc);
}
