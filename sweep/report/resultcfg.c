// SPDX-License-Identifier: GPL-2.0
/*
 * A spec-less result set described by itself: see resultcfg.h.  Names
 * and enum choices point into its view and the set's header and cells,
 * which is why the set must outlive the description.
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
#include "view.h"

struct result_cfg {
	struct result_view *view;	/* the set described by itself: its schema is cfg's wl */
};

/* Experiment x of the view as cfg's: its title, its values as axes, its default report. */
static int add_experiment(struct sweep_cfg *cfg, const struct view_exp *ve)
{
	struct experiment *x = &cfg->exps[cfg->nr_exps++];

	*x = (struct experiment){ .group = ve->group, .nr_plots = ve->nr_plots };
	memcpy(x->plots, ve->plots, sizeof(x->plots));
	x->title = strdup(ve->title);
	x->label = ve->label ? strdup(ve->label) : NULL;
	if (!x->title || (ve->label && !x->label))
		return -ENOMEM;
	/* the points are never expanded from these axes: they are the rows */
	for (int k = 0; k < cfg->wl->nr_params; k++) {
		struct axis *ax = &x->axes[x->nr_axes++];

		*ax = (struct axis){ .param = k, .nr_vals = ve->nr_vals[k],
				     .linked = ve->linked[k], .link = k ? 0 : 1 };
		ax->vals = calloc(ax->nr_vals + 1, sizeof(*ax->vals));
		if (!ax->vals)
			return -ENOMEM;
		memcpy(ax->vals, ve->vals[k], ax->nr_vals * sizeof(*ax->vals));
	}
	return 0;
}

static int build_points(const struct result_view *v, struct plan *plan)
{
	plan->pts = calloc(v->nr_rows + 1, sizeof(*plan->pts));
	if (!plan->pts)
		return -ENOMEM;
	for (int i = 0; i < v->nr_rows; i++) {
		struct point *pt = &plan->pts[i];

		*pt = (struct point){ .id = i, .exp = v->rows[i].exp, .wp.wl = &v->schema };
		memcpy(pt->wp.v, v->rows[i].v, sizeof(pt->wp.v));
	}
	plan->nr_pts = plan->nr_runnable = v->nr_rows;
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
	char why[512];
	int err = rc && cfg ? view_build(set, NULL, &rc->view, why, sizeof(why)) : -ENOMEM;

	memset(plan, 0, sizeof(*plan));
	*rcp = rc;
	*cfgp = cfg;
	if (err == -EINVAL)
		diag_err("%s: %s", dir, why);
	if (err)
		return err;
	cfg->wl = &rc->view->schema;
	cfg->exps = calloc(rc->view->nr_exps + 1, sizeof(*cfg->exps));
	err = cfg->exps ? build_points(rc->view, plan) : -ENOMEM;
	for (int x = 0; !err && x < rc->view->nr_exps; x++) {
		err = add_experiment(cfg, &rc->view->exps[x]);
		if (!err && spec)
			err = bind_report_section(spec, cfg->wl, &cfg->exps[x]);
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
	view_free(rc->view);
	free(rc);
}
