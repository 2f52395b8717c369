// SPDX-License-Identifier: GPL-2.0
/*
 * A view row's statistics from its intervals again: see viewstats.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewstats.h"

/*
 * Metric d's cell of a samples row: an empty one is a gauge that could not
 * be read, or a program counter the kernel did not keep.
 */
static uint64_t metric_cell(const struct result_set *set, const struct metric_def *d,
			    const char **row)
{
	int c = csv_column(&set->samples, d->name);

	if (c < 0 || !*row[c])
		return d->kind == MK_GAUGE || d->source != MS_WORKLOAD ? METRIC_UNKNOWN : 0;
	return strtoull(row[c], NULL, 10);
}

static void interval_of(const struct result_set *set, const struct workload *wl,
			const char **row, struct interval *iv)
{
	iv->rep = strtol(row[RS_S_REP], NULL, 10);
	iv->idx = strtol(row[RS_S_INTERVAL], NULL, 10);
	iv->warmup = !strcmp(row[RS_S_WARMUP], "1");
	iv->elapsed_ns = strtoull(row[RS_S_ELAPSED], NULL, 10);
	/* by name: a set described by its summary (viewdesc.c) orders its metrics so */
	for (int m = 0; m < wl->nr_metrics; m++)
		iv->value[m] = metric_cell(set, &wl->metrics[m], row);
}

/* Is samples row a thread row of interval iv, of producer t? */
static bool is_thread_row(const struct result_set *set, const char **row,
			  const struct interval *iv, long t)
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
static int thread_deltas(const struct result_set *set, const struct result_point *p,
			 struct point_result *r, const char **row)
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
			csv_row_cells(&set->samples, p->thread_rows[i * nr + t], row);
			if (!is_thread_row(set, row, iv, t))
				return -EINVAL;
			iv->thread_delta[t] = metric_cell(set, &r->pt->wp.wl->metrics[tm], row);
		}
	}
	return 0;
}

int viewstats_intervals(const struct result_set *set, const struct result_point *p,
			struct point_result *r)
{
	/* one samples row's cells at a time (the table keeps no pointer a cell) */
	const char **row = calloc(set->samples.nr_cols + 1, sizeof(*row));
	int err;

	r->iv = calloc(p->nr_samples ? p->nr_samples : 1, sizeof(*r->iv));
	if (!r->iv || !row) {
		free(row);
		return -ENOMEM;
	}
	for (int i = 0; i < p->nr_samples; i++) {
		csv_row_cells(&set->samples, p->sample_rows[i], row);
		interval_of(set, r->pt->wp.wl, row, &r->iv[i]);
	}
	r->nr_iv = p->nr_samples;
	err = thread_deltas(set, p, r, row);
	free(row);
	return err;
}

/* Without intervals (imported): the summary's figures are all there are, and no units. */
static void exact_of_cells(struct view_row *r)
{
	memcpy(r->exact.stat, r->stat, sizeof(r->exact.stat));
	r->exact.worker_rate = r->worker_rate;
	r->exact.per_run = r->per_run;
	for (int m = 0; m < WL_MAX_METRICS; m++)
		units_unknown(&r->exact.unit[m]);
	units_unknown(&r->exact.per_run_unit);
}

int viewstats_exact(const struct result_view *v, const struct result_set *set,
		    const struct result_point *p, struct view_row *r, char *why, size_t len)
{
	struct point pt = { .id = p->id, .wp.wl = &v->schema };
	struct point_result pr = { .pt = &pt, .status = PS_OK, .nr_producers = r->nr_producers };
	int err;

	exact_of_cells(r);
	r->has_intervals = p->nr_samples > 0;
	if (!r->has_intervals)
		return 0;
	err = viewstats_intervals(set, p, &pr) ?: point_result_summarize(&pr);
	if (!err) {
		memcpy(r->exact.stat, pr.stat, sizeof(r->exact.stat));
		memcpy(r->exact.unit, pr.unit, sizeof(r->exact.unit));
		r->exact.worker_rate = pr.worker_rate;
		/* ns per run of a statistics pass apart from the intervals: the summary's */
		if (pr.per_run.n)
			r->exact.per_run = pr.per_run;
		r->exact.per_run_unit = pr.per_run_unit;
		r->thread_rate = pr.thread_rate;
		pr.thread_rate = NULL;
	}
	if (err == -EINVAL)
		results_refuse(why, len, set, "samples.csv", p->sample_rows ?
			       p->sample_rows[0] + 1 : 1, 1, "the thread rows of point %lld "
			       "are not one per producer after each interval", p->id);
	point_result_free_intervals(&pr);
	return err;
}
