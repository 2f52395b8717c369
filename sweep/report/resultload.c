// SPDX-License-Identifier: GPL-2.0
/*
 * Result directories back as point_results: see resultload.h.  Rows are
 * tied to points by parameter values, never by row number, so that an
 * edited spec (other labels, other charts, fewer points) still finds them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "metric.h"
#include "pointkey.h"
#include "quality.h"
#include "resultload.h"
#include "results.h"
#include "runner.h"

static const char *wl_param_name(const struct point_key *k, int p)
{
	return ((const struct workload *)k->with)->params[p].name;
}

static const char *wl_param_value(const struct point_key *k, int p, char *buf, size_t len)
{
	const struct workload *wl = k->with;

	param_format(&wl->params[p], ((const struct point *)k->of)->wp.v[p], buf, len);
	return buf;
}

bool resultload_same_point(const struct result_set *set, const struct result_point *p,
			   const struct sweep_cfg *cfg, const struct point *pt, char *why,
			   size_t len)
{
	const struct workload *wl = cfg->wl;
	const char *title = experiment_title(cfg, &cfg->exps[pt->exp]);
	char **row = set->summary.rows[p->row], val[256];
	int col[WL_MAX_PARAMS], d;
	struct point_key there, now = {
		.experiment = title, .nr = wl->nr_params, .name = wl_param_name,
		.value = wl_param_value, .of = pt, .with = wl,
	};

	/* the header check has made the parameter columns wl's, in its order */
	for (int c = 0; c < wl->nr_params && c < WL_MAX_PARAMS; c++)
		col[c] = set->first_param + c;
	there = point_key_of_row(p->experiment, set->summary.rows[0], row, col, wl->nr_params);
	d = point_key_diff(&now, &there, -1);
	if (d == POINT_KEY_EXPERIMENT)
		snprintf(why, len, "experiment '%s' there, '%s' now", p->experiment, title);
	else if (d >= 0 && d < wl->nr_params)
		snprintf(why, len, "%s=%s there, %s=%s now", wl->params[d].name, row[col[d]],
			 wl->params[d].name, wl_param_value(&now, d, val, sizeof(val)));
	else if (d >= 0)
		snprintf(why, len, "other parameters there");
	return d == POINT_KEY_SAME;
}

static long long cell_ll(const struct result_set *set, char **row, const char *col)
{
	int c = result_summary_col(set, col);

	return c < 0 ? 0 : strtoll(row[c], NULL, 10);
}

/* ns_per_run's statistic stat of the summary row, NaN where empty or missing. */
static double per_run_num(const struct result_set *set, char **row, const char *stat)
{
	int c = result_stat_col(set, COLNAME_NS_PER_RUN, stat);

	return c < 0 || !*row[c] ? NAN : strtod(row[c], NULL);
}

/*
 * ns_per_run from the summary row where the samples give none: a run's
 * statistics pass (statspass.h) measured it apart from the intervals
 * samples.csv holds.  n is not stored; a ci95 (stats.c leaves it NaN for
 * one value) says there were at least two, whose spread the stddev is,
 * and without one a single value shows as "± n/a".
 */
static void per_run_from_summary(const struct result_set *set, char **row,
				 struct point_result *r)
{
	double mean = per_run_num(set, row, "mean");
	double ci95 = per_run_num(set, row, "ci95");

	if (r->per_run.n || isnan(mean))
		return;
	r->per_run = (struct summary){
		.mean = mean, .stddev = per_run_num(set, row, "stddev"),
		.median = per_run_num(set, row, "median"),
		.min = per_run_num(set, row, "min"),
		.max = per_run_num(set, row, "max"),
		.ci95 = ci95, .n = isnan(ci95) ? 1 : 2 };
}

/*
 * Metric m's cell of a samples row: an empty one is a gauge that could not
 * be read, or a program counter the kernel did not keep.
 */
static uint64_t metric_cell(const struct result_set *set, const struct metric_def *d, char **row)
{
	int c = csv_column(&set->samples, d->name);

	if (c < 0 || !*row[c])
		return d->kind == MK_GAUGE || d->source != MS_WORKLOAD ? METRIC_UNKNOWN : 0;
	return strtoull(row[c], NULL, 10);
}

static void rebuild_interval(const struct result_set *set, const struct workload *wl, char **row,
			     struct interval *iv)
{
	iv->rep = strtol(row[RS_S_REP], NULL, 10);
	iv->idx = strtol(row[RS_S_INTERVAL], NULL, 10);
	iv->warmup = !strcmp(row[RS_S_WARMUP], "1");
	iv->elapsed_ns = strtoull(row[RS_S_ELAPSED], NULL, 10);
	/* by name: a set described by its summary (resultcfg.c) orders its metrics so */
	for (int m = 0; m < wl->nr_metrics; m++)
		iv->value[m] = metric_cell(set, &wl->metrics[m], row);
}

/* Is samples row a thread row of interval iv, of producer t? */
static bool is_thread_row(const struct result_set *set, char **row, const struct interval *iv,
			  long t)
{
	return strtol(row[RS_S_REP], NULL, 10) == iv->rep &&
	       strtol(row[RS_S_INTERVAL], NULL, 10) == iv->idx &&
	       strtol(row[set->thread_col], NULL, 10) == t;
}

/*
 * Each interval's per-producer increases of the per-thread metric, from
 * p's thread rows: results.c writes one per producer after every interval,
 * in producer order.  None (a set of an older bpfsweep) leaves them unknown;
 * any other number or order is not a file bpfsweep wrote.
 */
static int rebuild_threads(const struct result_set *set, const struct result_point *p,
			   struct point_result *r)
{
	int tm = wl_thread_metric(r->pt->wp.wl), nr = r->nr_producers;

	if (tm < 0 || !p->nr_thread_rows)
		return 0;
	if (nr <= 0 || p->nr_thread_rows != r->nr_iv * nr)
		return -EINVAL;
	for (int i = 0; i < r->nr_iv; i++) {
		struct interval *iv = &r->iv[i];

		iv->thread_delta = calloc(nr, sizeof(*iv->thread_delta));
		if (!iv->thread_delta)
			return -ENOMEM;
		for (int t = 0; t < nr; t++) {
			char **row = set->samples.rows[p->thread_rows[i * nr + t]];

			if (!is_thread_row(set, row, iv, t))
				return -EINVAL;
			iv->thread_delta[t] = metric_cell(set, &r->pt->wp.wl->metrics[tm], row);
		}
	}
	return 0;
}

static enum point_status status_named(const char *name)
{
	for (enum point_status st = PS_OK; st < NR_POINT_STATUS; st++)
		if (!strcmp(point_status_name(st), name))
			return st;
	return PS_FAILED;
}

int resultload_rebuild(const struct result_set *set, const struct result_point *p,
		       const struct point *pt, struct point_result *r)
{
	char **row = set->summary.rows[p->row];
	int c = result_summary_col(set, "cpus");
	int qcol = result_summary_col(set, "quality");
	int rcol = result_summary_col(set, "reason");
	int err;

	*r = (struct point_result){ .pt = pt, .status = status_named(p->status) };
	snprintf(r->reason, sizeof(r->reason), "%s", rcol < 0 ? "" : row[rcol]);
	r->nr_producers = cell_ll(set, row, "nr_producers");
	r->nr_consumers = cell_ll(set, row, "nr_consumers");
	r->nr_cpus = cell_ll(set, row, "nr_cpus");
	r->tries = cell_ll(set, row, "tries");
	/* the verdict of the run that measured it: CPU load is not in the files */
	if (qcol >= 0 && quality_parse(row[qcol], &r->quality))
		return -EINVAL;
	r->cpus = strdup(c < 0 ? "" : row[c]);
	r->iv = calloc(p->nr_samples ? p->nr_samples : 1, sizeof(*r->iv));
	if (!r->cpus || !r->iv)
		return -ENOMEM;
	for (int i = 0; i < p->nr_samples; i++)
		rebuild_interval(set, pt->wp.wl, set->samples.rows[p->sample_rows[i]], &r->iv[i]);
	r->nr_iv = p->nr_samples;
	err = rebuild_threads(set, p, r);
	if (err)
		return err;
	/* imported numbers: no intervals, the summary row is all there is */
	if (r->status == PS_OK && !p->nr_samples)
		resultcfg_rates(set, p, pt->wp.wl, r);
	else if (r->status == PS_OK)
		err = point_result_summarize(r);
	if (!err && r->status == PS_OK)
		per_run_from_summary(set, row, r);
	return err;
}

/* A spec (from path, or text as read from dir) with the --set assignments, bound and expanded. */
struct bound {
	struct spec *spec;
	struct sweep_cfg *cfg;
	struct plan plan;
};

static bool has_title(const struct spec *s)
{
	for (int i = 0; i < s->nr_sections; i++)
		for (int j = 0; !strcmp(s->sections[i].name, "sweep") &&
				j < s->sections[i].nr_entries; j++)
			if (!strcmp(s->sections[i].entries[j].key, "title"))
				return true;
	return false;
}

/*
 * An untitled spec is titled by its file name ("slow" of slow.spec), which DIR/spec is not:
 * the run's title from meta keeps its experiments' titles those of summary.csv.
 */
static int keep_run_title(struct spec *s, const char *title)
{
	char set[4200];

	if (!title || has_title(s))
		return 0;
	snprintf(set, sizeof(set), "title=%s", title);
	return spec_set(s, set);
}

static int bind_points(const char *dir, const char *path, const char *text, const char *title,
		       const char *const *sets, int nr_sets, struct bound *b)
{
	char name[4200];
	int err;

	memset(b, 0, sizeof(*b));
	snprintf(name, sizeof(name), "%s/spec", dir);
	err = path ? spec_parse_file(path, &b->spec) : spec_parse_string(name, text, &b->spec);
	if (!err && !path)
		err = keep_run_title(b->spec, title);
	for (int i = 0; !err && i < nr_sets; i++)
		err = spec_set(b->spec, sets[i]);
	if (!err)
		err = bind_spec(b->spec, &b->cfg);
	if (!err)
		err = plan_build(b->cfg, &b->plan);
	return err;
}

static void bound_free(struct bound *b)
{
	plan_free(&b->plan);
	sweep_cfg_free(b->cfg);
	spec_free(b->spec);
	memset(b, 0, sizeof(*b));
}

/*
 * The same title, or both untitled: a [params] without one takes the
 * sweep's title, which --set title changes.
 */
static bool same_experiment(const struct sweep_cfg *ca, const struct experiment *a,
			    const struct sweep_cfg *cb, const struct experiment *b)
{
	return !strcmp(a->title, b->title) ||
	       (!strcmp(a->title, ca->title) && !strcmp(b->title, cb->title));
}

/* The point of to_cfg with pt's experiment and parameter values, or NULL. */
/*
 * The same workload, by name and parameters: an exec descriptor is made
 * anew by every bind of its spec (exec.h), so pointers differ.
 */
static bool same_workload(const struct workload *a, const struct workload *b)
{
	if (strcmp(a->name, b->name) || a->nr_params != b->nr_params)
		return false;
	for (int i = 0; i < a->nr_params; i++)
		if (strcmp(a->params[i].name, b->params[i].name) ||
		    a->params[i].type != b->params[i].type)
			return false;
	return true;
}

static const struct point *twin(const struct sweep_cfg *from_cfg, const struct point *pt,
				const struct sweep_cfg *to_cfg, const struct plan *to)
{
	const struct experiment *e = &from_cfg->exps[pt->exp];
	int nr = from_cfg->wl->nr_params;

	if (!same_workload(from_cfg->wl, to_cfg->wl))
		return NULL;
	for (int i = 0; i < to->nr_pts; i++) {
		const struct point *q = &to->pts[i];

		if (same_experiment(from_cfg, e, to_cfg, &to_cfg->exps[q->exp]) &&
		    !memcmp(pt->wp.v, q->wp.v, nr * sizeof(pt->wp.v[0])))
			return q;
	}
	return NULL;
}

/* Row p's point in the spec as run: its id, checked against its tuple. */
static const struct point *as_run_point(struct loaded_run *lr, const struct bound *run,
					const struct result_point *p)
{
	const struct point *pt = p->id < run->plan.nr_pts ? &run->plan.pts[p->id] : NULL;
	char why[600];

	if (!pt) {
		results_diag_row(lr->dir, "summary.csv", p->row + 1, lr->set->point_col + 1,
				 "point %lld is not a point of its spec (it has %d)", p->id,
				 run->plan.nr_pts);
		return NULL;
	}
	if (!resultload_same_point(lr->set, p, run->cfg, pt, why, sizeof(why))) {
		results_diag_row(lr->dir, "summary.csv", p->row + 1, lr->set->point_col + 1,
				 "point %lld is not the point of its spec: %s", p->id, why);
		return NULL;
	}
	return pt;
}

static void sort_by_point(struct point_result *r, int *idx, int nr)
{
	for (int i = 1; i < nr; i++) {
		struct point_result cur = r[i];
		int cur_idx = idx[i], j = i;

		for (; j > 0 && r[j - 1].pt->id > cur.pt->id; j--) {
			r[j] = r[j - 1];
			idx[j] = idx[j - 1];
		}
		r[j] = cur;
		idx[j] = cur_idx;
	}
}

/* The rows of a large set may not fit: said, as every other error here is. */
static int no_memory(const struct loaded_run *lr)
{
	diag_err("cannot read %s: %s", lr->dir, strerror(ENOMEM));
	return -ENOMEM;
}

static int tie_rows(struct loaded_run *lr, const struct bound *run, const struct bound *drawn)
{
	const struct result_set *set = lr->set;
	int err = 0;

	lr->res = calloc(set->nr_points + 1, sizeof(*lr->res));
	lr->idx = calloc(set->nr_points + 1, sizeof(*lr->idx));
	if (!lr->res || !lr->idx)
		return no_memory(lr);
	for (int i = 0; !err && i < set->nr_points; i++) {
		const struct point *pt = as_run_point(lr, run, &set->points[i]);

		if (!pt)
			return -EINVAL;
		if (drawn != run)
			pt = twin(run->cfg, pt, drawn->cfg, &drawn->plan);
		if (!pt) {
			lr->nr_hidden++;
			continue;
		}
		lr->idx[lr->nr_res] = i;
		err = resultload_rebuild(set, &set->points[i], pt, &lr->res[lr->nr_res++]);
	}
	if (err == -ENOMEM)
		return no_memory(lr);
	sort_by_point(lr->res, lr->idx, lr->nr_res);
	for (int i = 1; !err && i < lr->nr_res; i++) {
		if (lr->res[i].pt->id != lr->res[i - 1].pt->id)
			continue;
		results_diag_row(lr->dir, "summary.csv", set->points[lr->idx[i]].row + 1,
				 set->point_col + 1, "point %d again: a point has one row",
				 lr->res[i].pt->id);
		err = -EINVAL;
	}
	return err;
}

static int read_dir(struct loaded_run *lr)
{
	char why[512];
	struct stat st;
	int err;

	err = stat(lr->dir, &st) ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (err) {
		diag_err("cannot read %s: %s", lr->dir, strerror(-err));
		return err;
	}
	err = results_read(lr->dir, &lr->set, why, sizeof(why));
	if (err)
		results_read_diag(lr->dir, err, why);
	else if (!lr->set->has_summary)
		diag_err("%s holds no summary.csv: not a result directory of bpfsweep run",
			 lr->dir);
	return err ?: !lr->set->has_summary ? -EINVAL : 0;
}

static int check_columns(const struct loaded_run *lr, const struct bound *run,
			 const struct bound *drawn)
{
	const char *which;

	if (!same_workload(drawn->cfg->wl, run->cfg->wl)) {
		diag_err("%s was run with workload %s, the spec given has %s", lr->dir,
			 run->cfg->wl->name, drawn->cfg->wl->name);
		return -EINVAL;
	}
	if (!results_check_header_readable(run->cfg, &lr->set->samples, &lr->set->summary,
					   &which))
		return 0;
	results_diag_row(lr->dir, which, 1, 1, "other columns than this bpfsweep writes");
	return -EINVAL;
}

/* A set without a spec: described by its own rows, [report] keys from spec_path and sets. */
static int open_specless(struct loaded_run *lr, const char *spec_path, const char *const *sets,
			 int nr_sets)
{
	int err = 0;

	if (spec_path)
		err = spec_parse_file(spec_path, &lr->spec);
	else if (nr_sets)
		err = spec_parse_string("--set", "", &lr->spec);
	for (int i = 0; !err && i < nr_sets; i++)
		err = spec_set(lr->spec, sets[i]);
	if (!err)
		err = resultcfg_build(lr->dir, lr->set, lr->spec, &lr->rcfg, &lr->cfg, &lr->plan);
	lr->res = err ? NULL : calloc(lr->set->nr_points + 1, sizeof(*lr->res));
	lr->idx = err ? NULL : calloc(lr->set->nr_points + 1, sizeof(*lr->idx));
	if (!err && (!lr->res || !lr->idx))
		err = -ENOMEM;
	for (int i = 0; !err && i < lr->set->nr_points; i++) {
		lr->idx[lr->nr_res] = i;
		err = resultload_rebuild(lr->set, &lr->set->points[i], &lr->plan.pts[i],
					 &lr->res[lr->nr_res++]);
	}
	return err == -ENOMEM ? no_memory(lr) : err;
}

int resultload_open(const char *dir, const char *spec_path, const char *const *sets,
		    int nr_sets, struct loaded_run *lr)
{
	struct bound run = { 0 }, drawn = { 0 };
	bool other = spec_path || nr_sets;
	int err;

	memset(lr, 0, sizeof(*lr));
	lr->dir = strdup(dir);
	err = lr->dir ? read_dir(lr) : -ENOMEM;
	if (!err && !lr->set->spec)
		return open_specless(lr, spec_path, sets, nr_sets);
	if (!err)
		err = bind_points(dir, NULL, lr->set->spec, result_meta(lr->set, "title"), NULL, 0,
				  &run);
	if (!err && other)
		err = bind_points(dir, spec_path, lr->set->spec, result_meta(lr->set, "title"),
				  sets, nr_sets, &drawn);
	if (!err)
		err = check_columns(lr, &run, other ? &drawn : &run);
	if (!err)
		err = tie_rows(lr, &run, other ? &drawn : &run);
	/* the spec drawn is kept: the points of the rebuilt rows are its */
	if (other) {
		bound_free(&run);
		run = drawn;
	}
	lr->spec = run.spec;
	lr->cfg = run.cfg;
	lr->plan = run.plan;
	return err;
}

/* The experiment of cfg that is e (same title, or both untitled), or -1. */
static int experiment_twin(const struct sweep_cfg *from, const struct experiment *e,
			   const struct sweep_cfg *cfg)
{
	for (int x = 0; x < cfg->nr_exps; x++)
		if (same_experiment(from, e, cfg, &cfg->exps[x]))
			return x;
	return -1;
}

int resultload_retie(const struct loaded_run *from, const struct loaded_run *to,
		     struct point_result *out, struct point *pts, int *from_idx)
{
	int nr = 0;

	for (int i = 0; i < from->nr_res; i++) {
		const struct point *pt = from->res[i].pt;
		int exp = experiment_twin(from->cfg, &from->cfg->exps[pt->exp], to->cfg);

		pts[nr] = *pt;
		if (exp < 0 || !resultcfg_retie_values(from->cfg->wl, to->cfg->wl, pts[nr].wp.v))
			continue;
		pts[nr].exp = exp;
		pts[nr].wp.wl = to->cfg->wl;
		out[nr] = from->res[i];
		out[nr].pt = &pts[nr];
		from_idx[nr] = i;
		nr++;
	}
	return nr;
}

void resultload_free(struct loaded_run *lr)
{
	struct bound b = { lr->spec, lr->cfg, lr->plan };

	point_results_free(lr->res, lr->nr_res);
	free(lr->idx);
	bound_free(&b);
	resultcfg_free(lr->rcfg);
	result_set_free(lr->set);
	free(lr->dir);
	memset(lr, 0, sizeof(*lr));
}

