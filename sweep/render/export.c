// SPDX-License-Identifier: GPL-2.0
/*
 * The table's points for programs (--format json and csv of run, report
 * and merge): every point of every run with its parameters typed, status,
 * and per metric its statistics as numbers in base units (a counter's
 * events per second, a gauge's bytes, ns), unrounded, the unit named.
 * The same view rows the text table shows (its result view, view.h), the
 * statistics as the run computed them, unrounded (row->exact), where the
 * table shows summary.csv's three decimals.
 * Schema: docs/formats.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "baseline.h"
#include "columns.h"
#include "csvfile.h"
#include "export.h"
#include "metric.h"
#include "metricmeta.h"
#include "outfmt.h"
#include "progrun.h"
#include "results.h"
#include "runfacts.h"
#include "table.h"

#define EXPORT_SCHEMA	1
#define LABEL_LEN	256
#define UNIT_LEN	80

/* meta keys that may repeat: a list each; of any other key the last line counts */
static const char *const multi_keys[] = { "tag", "config", "resumed", "bpf_stats", "run",
					    "system_warning" };

static bool is_multi_key(const char *key)
{
	for (size_t i = 0; i < sizeof(multi_keys) / sizeof(multi_keys[0]); i++)
		if (!strcmp(key, multi_keys[i]))
			return true;
	return false;
}

static struct json_object *json_meta(const struct result_set *set)
{
	struct json_object *o = json_object_new_object(), *list;

	for (int i = 0; set && i < set->nr_meta; i++) {
		const struct result_meta *m = &set->meta[i];

		if (!is_multi_key(m->key)) {
			json_object_object_add(o, m->key, json_object_new_string(m->value));
			continue;
		}
		if (!json_object_object_get_ex(o, m->key, &list)) {
			list = json_object_new_array();
			json_object_object_add(o, m->key, list);
		}
		json_object_array_add(list, json_object_new_string(m->value));
	}
	return o;
}

/* {"machine": "a"} of meta's "tag: machine=a" lines. */
static struct json_object *json_tags(const struct result_set *set)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; set && i < set->nr_meta; i++) {
		const char *v = set->meta[i].value, *eq = strchr(v, '=');
		char key[128];

		if (strcmp(set->meta[i].key, "tag") || !eq)
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - v), v);
		json_object_object_add(o, key, json_object_new_string(eq + 1));
	}
	return o;
}

/* A parameter's value as its type has it: numbers, sizes in bytes, on/off as booleans. */
static struct json_object *json_param(const struct param_def *p, long long v)
{
	char text[128];

	if ((p->type == PT_INT && !(p->zero_word && v == 0)) || p->type == PT_SIZE)
		return json_object_new_int64(v);
	if (p->type == PT_BOOL)
		return json_object_new_boolean(v != 0);
	param_format(p, v, text, sizeof(text));
	return json_object_new_string(text);
}

static void add_stats(struct json_object *o, const struct summary *s)
{
	json_object_object_add(o, "mean", json_num(s->mean));
	json_object_object_add(o, "stddev", json_num(s->stddev));
	json_object_object_add(o, "median", json_num(s->median));
	json_object_object_add(o, "min", json_num(s->min));
	json_object_object_add(o, "max", json_num(s->max));
	json_object_object_add(o, "ci95", json_num(s->ci95));
}

static struct json_object *json_pair(double mean, double sd)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_num(mean));
	json_object_object_add(o, "stddev", json_num(sd));
	return o;
}

/* The per-thread metric's spread across producers, and each producer's rate. */
static void add_workers(struct json_object *o, const struct view_row *r)
{
	const struct summary *wr = &r->exact.worker_rate;
	struct json_object *w = json_object_new_object(), *each = json_object_new_array();

	json_object_object_add(w, "mean", json_num(wr->mean));
	json_object_object_add(w, "min", json_num(wr->min));
	json_object_object_add(w, "median", json_num(wr->median));
	json_object_object_add(w, "max", json_num(wr->max));
	json_object_object_add(o, "worker", w);
	for (int i = 0; r->thread_rate && i < r->nr_producers; i++)
		json_object_array_add(each, json_num(r->thread_rate[i]));
	json_object_object_add(o, "per_producer", each);
}

static struct json_object *json_metric(const struct workload *wl, int m,
				       const struct view_row *r, const struct view_row *base,
				       bool has_base)
{
	const struct metric_def *d = &wl->metrics[m];
	struct json_object *o = json_object_new_object();
	struct baseline_delta bd;
	char unit[UNIT_LEN];

	metric_base_unit(d->name, d->kind, metric_default_unit(d)->name, unit, sizeof(unit));
	json_object_object_add(o, "kind", json_object_new_string(d->kind == MK_GAUGE ?
								 "gauge" : "counter"));
	json_object_object_add(o, "unit", json_object_new_string(unit));
	json_object_object_add(o, "display_unit",
			       json_object_new_string(metric_default_unit(d)->name));
	json_object_object_add(o, "better", json_object_new_string(metric_better_name(d->better)));
	add_stats(o, &r->exact.stat[m]);
	if (d->per_thread)
		add_workers(o, r);
	if (has_base && d->kind == MK_COUNTER) {
		baseline_of_exact(r, base, m, &bd);
		json_object_object_add(o, "over_base_ns", json_pair(bd.over_ns, bd.over_ns_sd));
		json_object_object_add(o, "vs_base", json_pair(bd.ratio, bd.ratio_sd));
	}
	return o;
}

/* "cv=37%;zero=4/5" as ["cv=37%", "zero=4/5"]. */
static struct json_object *json_quality(const struct view_row *r)
{
	struct json_object *a = json_object_new_array();
	char text[512], *tok, *save;

	if (r->status != PS_OK)
		return a;
	quality_format(&r->quality, text, sizeof(text));
	for (tok = strtok_r(text, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
		json_object_array_add(a, json_object_new_string(tok));
	return a;
}

/* Measured intervals, as summary.csv's n; null for an imported row, which has none. */
static struct json_object *json_n(const struct view_row *r)
{
	if (r->status == PS_OK && !r->has_intervals)
		return NULL;
	return json_object_new_int64(r->n);
}

static void add_metrics(struct json_object *o, const struct render_block *b,
			const struct view_row *r)
{
	const struct workload *wl = &b->view->schema;
	const struct view_exp *e = &b->view->exps[r->exp];
	struct json_object *ms = json_object_new_object(), *pr = NULL;
	const struct view_row *base = NULL;
	int runs, ns;

	if (r->status == PS_OK && e->baseline.on)
		base = baseline_find_row(b->view, r, b->rows, b->nr_rows);
	for (int m = 0; r->status == PS_OK && m < wl->nr_metrics; m++)
		json_object_object_add(ms, wl->metrics[m].name,
				       json_metric(wl, m, r, base, e->baseline.on));
	json_object_object_add(o, "metrics", ms);
	if (!prog_metrics(wl, &runs, &ns))
		return;
	if (r->status == PS_OK && r->exact.per_run.n) {
		pr = json_object_new_object();
		json_object_object_add(pr, "unit", json_object_new_string("ns"));
		json_object_object_add(pr, "better", json_object_new_string(
			metric_better_name(MB_LOWER)));
		add_stats(pr, &r->exact.per_run);
	}
	json_object_object_add(o, "ns_per_run", pr);
}

static struct json_object *json_point(const struct render_block *b, const struct view_row *r)
{
	const struct result_view *v = b->view;
	const struct workload *wl = &v->schema;
	struct json_object *o = json_object_new_object(), *params = json_object_new_object();
	char label[LABEL_LEN];

	table_label(v, r, label, sizeof(label));
	json_object_object_add(o, "id", json_object_new_int64(r->id));
	json_object_object_add(o, "experiment",
			       json_object_new_string(view_exp_title(v, &v->exps[r->exp])));
	json_object_object_add(o, "label", json_object_new_string(label));
	for (int p = 0; p < wl->nr_params; p++)
		json_object_object_add(params, wl->params[p].name,
				       json_param(&wl->params[p], r->v[p]));
	json_object_object_add(o, "parameters", params);
	json_object_object_add(o, "status",
			       json_object_new_string(point_status_name(r->status)));
	json_object_object_add(o, "reason", json_object_new_string(r->reason));
	json_object_object_add(o, "n", json_n(r));
	json_object_object_add(o, "tries", json_object_new_int(r->tries));
	json_object_object_add(o, "nr_producers", json_object_new_int(r->nr_producers));
	json_object_object_add(o, "nr_consumers", json_object_new_int(r->nr_consumers));
	json_object_object_add(o, "nr_cpus", json_object_new_int(r->nr_cpus));
	json_object_object_add(o, "cpus", json_object_new_string(r->cpus ? r->cpus : ""));
	json_object_object_add(o, "quality", json_quality(r));
	add_metrics(o, b, r);
	return o;
}

static struct json_object *json_run(const struct render_block *b)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
	/* a block of several runs' table has no facts (its heading names the machine) */
	struct run_facts f = b->set ? run_facts_of(b->set) : b->facts ? *b->facts :
			     (struct run_facts){ 0 };

	json_object_object_add(o, "dir", b->dir ? json_object_new_string(b->dir) : NULL);
	json_object_object_add(o, "workload", json_object_new_string(b->view->schema.name));
	json_object_object_add(o, "quick", json_object_new_boolean(f.quick));
	json_object_object_add(o, "tcg", json_object_new_boolean(f.tcg));
	json_object_object_add(o, "icount", json_object_new_boolean(f.icount));
	json_object_object_add(o, "tags", json_tags(b->set));
	json_object_object_add(o, "meta", json_meta(b->set));
	for (int i = 0; i < b->nr_rows; i++)
		json_object_array_add(pts, json_point(b, b->rows[i]));
	json_object_object_add(o, "points", pts);
	return o;
}

int export_json(FILE *f, const struct render_block *blocks, int nr)
{
	struct json_object *root = json_object_new_object(), *runs = json_object_new_array();

	if (!root || !runs) {
		json_object_put(root);
		json_object_put(runs);
		return -ENOMEM;
	}
	json_object_object_add(root, "schema", json_object_new_string("bpfsweep-summary"));
	json_object_object_add(root, "version", json_object_new_int(EXPORT_SCHEMA));
	for (int i = 0; i < nr; i++)
		json_object_array_add(runs, json_run(&blocks[i]));
	json_object_object_add(root, "runs", runs);
	return json_print(f, root);
}

/* CSV: one row per metric of a point (one row, metric empty, for a point not ok). */
static const char *const csv_head[] = { "run", "experiment", "point", "label" };
static const char *const csv_tail[] = {
	"status", "reason", "metric", "unit", "n", "mean", "stddev", "median", "min", "max",
	"ci95",
};

#define NR_HEAD (int)(sizeof(csv_head) / sizeof(csv_head[0]))
#define NR_TAIL (int)(sizeof(csv_tail) / sizeof(csv_tail[0]))
#define NUM_LEN 32

/* The parameter columns: every run's parameters by name, first seen first. */
struct csv_cols {
	const char **params;
	int nr;
};

static int csv_cols_make(struct csv_cols *c, const struct render_block *blocks, int nr)
{
	int max = 0;

	for (int i = 0; i < nr; i++)
		max += blocks[i].view->schema.nr_params;
	c->nr = 0;
	c->params = calloc(max ? max : 1, sizeof(*c->params));
	if (!c->params)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		const struct workload *wl = &blocks[i].view->schema;

		for (int p = 0; p < wl->nr_params; p++) {
			int k = 0;

			while (k < c->nr && strcmp(c->params[k], wl->params[p].name))
				k++;
			if (k == c->nr)
				c->params[c->nr++] = wl->params[p].name;
		}
	}
	return 0;
}

/* One row: the point's cells, then the metric's (m < 0: none; m == nr_metrics: ns per run). */
struct csv_row {
	char run[NUM_LEN], id[NUM_LEN], label[LABEL_LEN], unit[UNIT_LEN];
	char (*params)[128];
	char num[7][NUM_LEN];	/* n, mean, stddev, median, min, max, ci95 */
};

static void csv_stats(struct csv_row *row, const struct summary *s)
{
	const double v[] = { s->mean, s->stddev, s->median, s->min, s->max, s->ci95 };

	for (int i = 0; i < 6; i++)
		num_shortest(v[i], row->num[1 + i], NUM_LEN);
}

static int csv_write(FILE *f, const struct csv_cols *c, const struct render_block *b, int run,
		     const struct view_row *r, int m)
{
	const struct result_view *v = b->view;
	const struct workload *wl = &v->schema;
	const struct view_exp *e = &v->exps[r->exp];
	int nr = NR_HEAD + c->nr + NR_TAIL, k = 0, err = -ENOMEM;
	const char **fields = calloc(nr, sizeof(*fields));
	struct csv_row row = { .params = calloc(c->nr ? c->nr : 1, sizeof(*row.params)) };
	const char *metric = "";

	if (!fields || !row.params)
		goto out;
	snprintf(row.run, sizeof(row.run), "%d", run);
	snprintf(row.id, sizeof(row.id), "%lld", r->id);
	table_label(v, r, row.label, sizeof(row.label));
	for (int i = 0; i < c->nr; i++) {
		int p = param_index(wl->params, wl->nr_params, c->params[i]);

		if (p >= 0)
			param_format(&wl->params[p], r->v[p], row.params[i], 128);
	}
	if (m >= 0 && m < wl->nr_metrics) {
		metric = wl->metrics[m].name;
		metric_base_unit(wl->metrics[m].name, wl->metrics[m].kind,
				 metric_default_unit(&wl->metrics[m])->name, row.unit, sizeof(row.unit));
		csv_stats(&row, &r->exact.stat[m]);
	} else if (m >= 0) {
		metric = "ns_per_run";
		snprintf(row.unit, sizeof(row.unit), "ns");
		csv_stats(&row, &r->exact.per_run);
	}
	if (m >= 0 && (r->status != PS_OK || r->has_intervals))
		snprintf(row.num[0], NUM_LEN, "%lld", r->n);
	fields[k++] = row.run;
	fields[k++] = view_exp_title(v, e);
	fields[k++] = row.id;
	fields[k++] = row.label;
	for (int i = 0; i < c->nr; i++)
		fields[k++] = row.params[i];
	fields[k++] = point_status_name(r->status);
	fields[k++] = r->reason;
	fields[k++] = metric;
	fields[k++] = row.unit;
	for (int i = 0; i < 7; i++)
		fields[k++] = row.num[i];
	err = csv_write_row(f, fields, nr);
out:
	free(fields);
	free(row.params);
	return err;
}

static int csv_header(FILE *f, const struct csv_cols *c)
{
	int nr = NR_HEAD + c->nr + NR_TAIL, k = 0, err;
	const char **fields = calloc(nr, sizeof(*fields));

	if (!fields)
		return -ENOMEM;
	for (int i = 0; i < NR_HEAD; i++)
		fields[k++] = csv_head[i];
	for (int i = 0; i < c->nr; i++)
		fields[k++] = c->params[i];
	for (int i = 0; i < NR_TAIL; i++)
		fields[k++] = csv_tail[i];
	err = csv_write_row(f, fields, nr);
	free(fields);
	return err;
}

static int csv_point(FILE *f, const struct csv_cols *c, const struct render_block *b, int run,
		     const struct view_row *r)
{
	const struct workload *wl = &b->view->schema;
	int err = 0, runs, ns;

	if (r->status != PS_OK)
		return csv_write(f, c, b, run, r, -1);
	for (int m = 0; !err && m < wl->nr_metrics; m++)
		err = csv_write(f, c, b, run, r, m);
	if (!err && prog_metrics(wl, &runs, &ns) && r->exact.per_run.n)
		err = csv_write(f, c, b, run, r, wl->nr_metrics);
	return err;
}

int export_csv(FILE *f, const struct render_block *blocks, int nr)
{
	struct csv_cols c;
	int err = csv_cols_make(&c, blocks, nr);

	err = err ?: csv_header(f, &c);
	for (int i = 0; !err && i < nr; i++)
		for (int j = 0; !err && j < blocks[i].nr_rows; j++)
			err = csv_point(f, &c, &blocks[i], i + 1, blocks[i].rows[j]);
	free(c.params);
	return err;
}
