// SPDX-License-Identifier: GPL-2.0
/*
 * Result directories tied to a spec's points: see resultload.h.  Rows are
 * tied to points by parameter values, never by row number, so that an
 * edited spec (other labels, other charts, fewer points) still finds them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "heldir.h"
#include "resultload.h"
#include "results.h"
#include "rowpoint.h"
#include "view.h"
#include "viewdesc.h"
#include "viewmap.h"

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
		err = bind_spec(b->spec, &workloads_catalog, &b->cfg);
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
static const struct point *twin(const struct sweep_cfg *from_cfg, const struct point *pt,
				const struct sweep_cfg *to_cfg, const struct plan *to)
{
	const struct experiment *e = &from_cfg->exps[pt->exp];
	int nr = from_cfg->wl->nr_params;

	if (!view_same_params(from_cfg->wl, to_cfg->wl))
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
	if (!result_row_is_point(lr->set, p, run->cfg, pt, why, sizeof(why))) {
		results_diag_row(lr->dir, "summary.csv", p->row + 1, lr->set->point_col + 1,
				 "point %lld is not the point of its spec: %s", p->id, why);
		return NULL;
	}
	return pt;
}

/* Rows come in point order but for a --resume's: an insertion sort, linear on sorted rows. */
static void sort_by_point(const struct point **pts, int *idx, int nr)
{
	for (int i = 1; i < nr; i++) {
		const struct point *cur = pts[i];
		int cur_idx = idx[i], j = i;

		for (; j > 0 && pts[j - 1]->id > cur->id; j--) {
			pts[j] = pts[j - 1];
			idx[j] = idx[j - 1];
		}
		pts[j] = cur;
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

	lr->pts = calloc(set->nr_points + 1, sizeof(*lr->pts));
	lr->idx = calloc(set->nr_points + 1, sizeof(*lr->idx));
	if (!lr->pts || !lr->idx)
		return no_memory(lr);
	for (int i = 0; i < set->nr_points; i++) {
		const struct point *pt = as_run_point(lr, run, &set->points[i]);

		if (!pt)
			return -EINVAL;
		if (drawn != run)
			pt = twin(run->cfg, pt, drawn->cfg, &drawn->plan);
		if (!pt) {
			lr->nr_hidden++;
			continue;
		}
		lr->idx[lr->nr_shown] = i;
		lr->pts[lr->nr_shown++] = pt;
	}
	sort_by_point(lr->pts, lr->idx, lr->nr_shown);
	for (int i = 1; i < lr->nr_shown; i++) {
		if (lr->pts[i]->id != lr->pts[i - 1]->id)
			continue;
		results_diag_row(lr->dir, "summary.csv", set->points[lr->idx[i]].row + 1,
				 set->point_col + 1, "point %d again: a point has one row",
				 lr->pts[i]->id);
		return -EINVAL;
	}
	return 0;
}

static int read_dir(struct loaded_run *lr)
{
	char why[512];
	struct stat st;
	int err;

	/* beneath a held directory as held (a kernel sweep's or a fleet's OUT) */
	err = heldir_stat(lr->dir, &st) ?: S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
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

/*
 * A set written before the load figures (WL_LOAD_METRICS, last in every
 * metric table that has them): read as its workload then was, those
 * metrics left out, for the spec as run and the one drawn.  0 when the
 * set's columns are those; else -EBADMSG, and the workload stays today's.
 */
static int without_load_figures(struct loaded_run *lr, const struct bound *run,
				const struct bound *drawn)
{
	const struct workload *wl = run->cfg->wl;
	struct workload *older;
	const char *which;
	int n = wl->nr_metrics;

	while (n > 0 && wl->metrics[n - 1].source == MS_LOAD)
		n--;
	if (n == wl->nr_metrics)
		return -EBADMSG;
	older = malloc(sizeof(*older));
	if (!older)
		return -ENOMEM;
	*older = *wl;
	older->nr_metrics = n;
	run->cfg->wl = older;
	if (!results_check_header_readable(run->cfg, &lr->set->samples, &lr->set->summary,
					   &which)) {
		drawn->cfg->wl = older;
		lr->older_wl = older;
		return 0;
	}
	run->cfg->wl = wl;
	free(older);
	return -EBADMSG;
}

static int check_columns(struct loaded_run *lr, const struct bound *run,
			 const struct bound *drawn)
{
	const char *which;

	if (!view_same_params(drawn->cfg->wl, run->cfg->wl)) {
		diag_err("%s was run with workload %s, the spec given has %s", lr->dir,
			 run->cfg->wl->name, drawn->cfg->wl->name);
		return -EINVAL;
	}
	if (!results_check_header_readable(run->cfg, &lr->set->samples, &lr->set->summary,
					   &which))
		return 0;
	if (!without_load_figures(lr, run, drawn))
		return 0;
	results_diag_row(lr->dir, which, 1, 1, "other columns than this bpfsweep writes");
	return -EINVAL;
}

/*
 * A set without a spec: every row, in its order, described by its view
 * (viewdesc.h); spec_path and sets give only [report] keys, kept in
 * lr->spec for the view.
 */
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
	if (err)
		return err;
	lr->idx = calloc(lr->set->nr_points + 1, sizeof(*lr->idx));
	if (!lr->idx)
		return no_memory(lr);
	for (int i = 0; i < lr->set->nr_points; i++)
		lr->idx[lr->nr_shown++] = i;
	return 0;
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
	/* the spec drawn is kept: the points of the rows shown are its */
	if (other) {
		bound_free(&run);
		run = drawn;
	}
	lr->spec = run.spec;
	lr->cfg = run.cfg;
	lr->plan = run.plan;
	return err;
}

void resultload_place(const struct loaded_run *lr, struct result_view *v)
{
	for (int k = 0; lr->pts && k < lr->nr_shown; k++) {
		struct view_row *r = &v->rows[lr->idx[k]];

		r->id = lr->pts[k]->id;
		r->exp = lr->pts[k]->exp;
		memcpy(r->v, lr->pts[k]->wp.v, sizeof(r->v));
	}
}

int resultload_view(const struct loaded_run *lr, struct result_view **v)
{
	char why[512] = "";
	int err = view_build(lr->set, lr->cfg, v, why, sizeof(why));

	if (err) {
		results_read_diag(lr->dir, err, why);
		return err;
	}
	if (!lr->cfg)
		return lr->spec ? viewdesc_report(*v, lr->spec) : 0;
	resultload_place(lr, *v);
	return 0;
}

void resultload_free(struct loaded_run *lr)
{
	struct bound b = { lr->spec, lr->cfg, lr->plan };

	free(lr->pts);
	free(lr->idx);
	bound_free(&b);
	free(lr->older_wl);
	result_set_free(lr->set);
	free(lr->dir);
	memset(lr, 0, sizeof(*lr));
}

