// SPDX-License-Identifier: GPL-2.0
/*
 * A result set as the renderers see it (view.h): the schema and the
 * experiments from the spec drawn, or from the set's own columns and
 * titles (viewdesc.c), then every summary row as typed values.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "metricdef.h"
#include "view.h"
#include "viewdesc.h"
#include "viewlabel.h"
#include "viewstats.h"

/* Are set's parameter columns those of cfg's workload, in its order? */
static int check_params(const struct result_set *set, const struct sweep_cfg *cfg, char *why,
			size_t len)
{
	const struct workload *wl = cfg->wl;

	if (set->nr_params != wl->nr_params) {
		return results_refuse(why, len, set, "summary.csv", 1, set->first_param + 1,
				      "%d parameters, workload %s has %d", set->nr_params,
				      wl->name, wl->nr_params);
	}
	for (int k = 0; k < wl->nr_params; k++) {
		if (strcmp(set->summary.rows[0][set->first_param + k], wl->params[k].name)) {
			return results_refuse(why, len, set, "summary.csv", 1,
					      set->first_param + k + 1,
					      "parameter %d is '%s', not %s's '%s'", k + 1,
					      set->summary.rows[0][set->first_param + k],
					      wl->name, wl->params[k].name);
		}
	}
	return 0;
}

/* The schema of cfg's workload: its descriptor's data, none of its callbacks. */
static void schema_of_cfg(struct result_view *v, const struct sweep_cfg *cfg)
{
	const struct workload *wl = cfg->wl;

	for (int k = 0; k < wl->nr_params; k++)
		v->params[k] = wl->params[k];
	for (int m = 0; m < wl->nr_metrics; m++)
		v->metrics[m] = wl->metrics[m];
	v->schema = (struct workload){ .name = wl->name, .params = v->params,
				       .nr_params = wl->nr_params, .metrics = v->metrics,
				       .nr_metrics = wl->nr_metrics, .values = wl->values,
				       .prog_runs_scope = wl->prog_runs_scope };
}

/* cfg's experiments with their [report] settings, parameters in nesting order. */
static int exps_of_cfg(struct result_view *v, const struct sweep_cfg *cfg)
{
	v->exps = calloc(cfg->nr_exps + 1, sizeof(*v->exps));
	if (!v->exps)
		return -ENOMEM;
	for (int x = 0; x < cfg->nr_exps; x++) {
		const struct experiment *e = &cfg->exps[x];
		struct view_exp *ve = &v->exps[x];

		*ve = (struct view_exp){
			.title = e->title, .label = e->label, .values = e->values,
			.worker_rows = e->worker_rows, .baseline = e->baseline,
			.group = e->group, .nr_plots = e->nr_plots, .logx = e->logx };
		memcpy(ve->plots, e->plots, sizeof(ve->plots));
		for (int a = 0; a < e->nr_axes; a++) {
			const struct axis *ax = &e->axes[a];

			ve->order[a] = ax->param;
			ve->vals[ax->param] = ax->vals;
			ve->nr_vals[ax->param] = ax->linked ? 1 : ax->nr_vals;
			ve->linked[ax->param] = ax->linked;
		}
		ve->nr_order = e->nr_axes;
	}
	v->nr_exps = cfg->nr_exps;
	return 0;
}

const char *view_exp_title(const struct result_view *v, const struct view_exp *e)
{
	return e->title ? e->title : v->title ? v->title : "";
}

static int exp_named(const struct result_view *v, const char *title)
{
	for (int x = 0; x < v->nr_exps; x++)
		if (!strcmp(view_exp_title(v, &v->exps[x]), title))
			return x;
	return -1;
}

/* The typed value of parameter p's cell text, as param_format() wrote it. */
static bool param_value(const struct param_def *p, const char *text, long long *out)
{
	char *end;

	switch (p->type) {
	case PT_BOOL:
		*out = !strcmp(text, "on");
		return *out || !strcmp(text, "off");
	case PT_ENUM:
		for (int i = 0; p->choices && p->choices[i]; i++)
			if (!strcmp(p->choices[i], text)) {
				*out = i;
				return true;
			}
		return false;
	default:
		if (p->zero_word && !strcmp(text, p->zero_word)) {
			*out = 0;
			return true;
		}
		*out = strtoll(text, &end, 10);
		return *text && !*end;
	}
}

static enum point_status status_named(const char *name)
{
	for (enum point_status st = PS_OK; st < NR_POINT_STATUS; st++)
		if (!strcmp(point_status_name(st), name))
			return st;
	return PS_FAILED;
}

static const char *cell_of(const struct result_set *set, int line, const char *col)
{
	return result_summary_cell(set, line, col);
}

static long long count_of(const struct result_set *set, int line, const char *col)
{
	return strtoll(cell_of(set, line, col), NULL, 10);
}

/* Samples row row is of a measured interval: past the warmup, with time that passed. */
static bool measured(const struct result_set *set, int row)
{
	return strcmp(csv_cell(&set->samples, row, RS_S_WARMUP), "1") &&
	       strtoull(csv_cell(&set->samples, row, RS_S_ELAPSED), NULL, 10);
}

/* Metric m's statistics from the row's cells, n from its measured intervals. */
static void stat_of(const struct result_set *set, const struct result_point *p, const char *name,
		    long long n, struct summary *s)
{
	int line = p->row;

	*s = (struct summary){
		.mean = result_summary_stat(set, line, name, "mean"),
		.stddev = result_summary_stat(set, line, name, "stddev"),
		.median = result_summary_stat(set, line, name, "median"),
		.min = result_summary_stat(set, line, name, "min"),
		.max = result_summary_stat(set, line, name, "max"),
		.ci95 = result_summary_stat(set, line, name, "ci95") };
	/* imported numbers have no intervals: n unknown, 0, as the bench did not say */
	s->n = isnan(s->mean) || !p->nr_samples ? 0 : (int)n;
}

/* What the row's cells say of metric name's independent units (viewtypes.h). */
static void units_of_cells(const struct result_set *set, int line, const char *name,
			   struct units *u)
{
	double n = result_summary_stat(set, line, name, "units");

	units_unknown(u);
	u->n = -1;
	if (isnan(n))
		return;
	*u = (struct units){
		.kind = unit_kind_parse(cell_of(set, line, "unit_kind")), .n = (int)n, .rho = NAN,
		.mean = result_summary_stat(set, line, name, "mean"),
		.sd = result_summary_stat(set, line, name, "unit_sd"),
		.ci95 = result_summary_stat(set, line, name, "ci95") };
}

static double sample_num(const struct result_set *set, int row, const char *metric)
{
	int c = csv_column(&set->samples, metric);
	const char *s = c < 0 ? "" : csv_cell(&set->samples, row, c);

	return !*s ? NAN : strtod(s, NULL);
}

/*
 * ns per run over how many intervals: those of the samples where a program
 * ran, else (a statistics pass apart from the samples: statspass.h) at
 * least two where a ci95 says there were, one without.
 */
static void per_run_of(const struct result_set *set, const struct result_point *p,
		       struct summary *s)
{
	int n = 0;

	stat_of(set, p, COLNAME_NS_PER_RUN, 0, s);
	if (isnan(s->mean))
		return;
	for (int i = 0; i < p->nr_samples; i++) {
		int row = p->sample_rows[i];

		n += measured(set, row) && sample_num(set, row, "prog_runs") > 0 &&
		     !isnan(sample_num(set, row, "prog_ns"));
	}
	s->n = n ? n : isnan(s->ci95) ? 1 : 2;
}

static void worker_of(const struct result_set *set, int line, const char *metric,
		      struct view_row *r)
{
	r->worker_rate = (struct summary){
		.mean = result_summary_stat(set, line, metric, "worker_mean"),
		.min = result_summary_stat(set, line, metric, "worker_min"),
		.median = result_summary_stat(set, line, metric, "worker_median"),
		.max = result_summary_stat(set, line, metric, "worker_max"),
		.stddev = NAN, .ci95 = NAN };
	r->worker_rate.n = isnan(r->worker_rate.mean) ? 0 : r->nr_producers;
}

static int row_values(const struct result_view *v, const struct result_set *set,
		      const struct result_point *p, struct view_row *r, char *why, size_t len)
{
	char **cells = set->summary.rows[p->row];

	for (int k = 0; k < v->schema.nr_params; k++) {
		const char *text = cells[set->first_param + k];

		if (param_value(&v->params[k], text, &r->v[k]))
			continue;
		return results_refuse(why, len, set, "summary.csv", p->row + 1,
				      set->first_param + k + 1,
				      "%s '%s' is not a value of the parameter",
				      v->params[k].name, text);
	}
	return 0;
}

static int row_of(const struct result_view *v, const struct result_set *set,
		  const struct result_point *p, struct view_row *r, char *why, size_t len)
{
	int line = p->row, tm = wl_thread_metric(&v->schema);

	*r = (struct view_row){
		.id = p->id, .exp = exp_named(v, p->experiment), .line = line,
		.status = status_named(p->status), .reason = cell_of(set, line, "reason"),
		.cpus = cell_of(set, line, "cpus"), .decision = cell_of(set, line, "decision"),
		.nr_producers = count_of(set, line, "nr_producers"),
		.nr_consumers = count_of(set, line, "nr_consumers"),
		.nr_cpus = count_of(set, line, "nr_cpus"), .tries = count_of(set, line, "tries"),
		.n = count_of(set, line, "n") };
	/* results_read() refused a cell it does not parse (its CELL_QUALITY rule) */
	quality_parse(cell_of(set, line, "quality"), &r->quality);
	for (int m = 0; m < v->schema.nr_metrics; m++) {
		stat_of(set, p, v->metrics[m].name, r->n, &r->stat[m]);
		units_of_cells(set, line, v->metrics[m].name, &r->unit[m]);
	}
	per_run_of(set, p, &r->per_run);
	r->worker_rate = (struct summary){ NAN, NAN, NAN, NAN, NAN, NAN, 0 };
	if (tm >= 0)
		worker_of(set, line, v->metrics[tm].name, r);
	return row_values(v, set, p, r, why, len) ?:
	       r->status != PS_OK ? 0 : viewstats_exact(v, set, p, r, why, len);
}

static int rows_of(struct result_view *v, const struct result_set *set, char *why, size_t len)
{
	int err = 0;

	v->rows = calloc(set->nr_points + 1, sizeof(*v->rows));
	if (!v->rows)
		return -ENOMEM;
	v->decisions = result_summary_col(set, "decision") >= 0;
	for (int i = 0; !err && i < set->nr_points; i++)
		err = row_of(v, set, &set->points[i], &v->rows[v->nr_rows++], why, len);
	return err;
}

int view_describe_spec(const struct sweep_cfg *cfg, struct result_view *v)
{
	v->title = cfg->title;
	v->max_cv = cfg->max_cv;
	schema_of_cfg(v, cfg);
	return exps_of_cfg(v, cfg);
}

int view_build(const struct result_set *set, const struct sweep_cfg *cfg,
	       struct result_view **out, char *why, size_t len)
{
	struct result_view *v = calloc(1, sizeof(*v));
	int err;

	*out = v;
	if (len)
		why[0] = '\0';
	if (!v)
		return -ENOMEM;
	if (cfg) {
		err = check_params(set, cfg, why, len) ?: view_describe_spec(cfg, v);
	} else {
		v->title = result_meta(set, "title");
		err = viewdesc_schema(v, set, why, len) ?: viewdesc_exps(v, set);
	}
	err = err ?: rows_of(v, set, why, len);
	if (!err && !cfg)
		err = viewdesc_axes(v) ?: viewlabel_read(set, &v->labels);
	return err;
}

void view_free(struct result_view *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->nr_rows; i++)
		free(v->rows[i].thread_rate);
	for (int x = 0; x < v->nr_exps; x++) {
		for (int k = 0; k < WL_MAX_PARAMS; k++)
			free(v->exps[x].own_vals[k]);
	}
	for (int k = 0; k < WL_MAX_PARAMS; k++)
		free(v->choices[k]);
	viewlabel_free(&v->labels);
	free(v->rows);
	free(v->exps);
	free(v);
}
