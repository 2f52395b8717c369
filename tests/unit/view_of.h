/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result view of hand-made point_results, for the tests of what renders
 * a view (table.c, export.c): the rows a run would write and report read
 * back, without the files (test_view.c checks that the files give the
 * same).  Free with view_of_free().
 */
#ifndef TESTS_VIEW_OF_H
#define TESTS_VIEW_OF_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "metric.h"
#include "result.h"
#include "view.h"

struct view_of {
	struct result_view *v;
	const struct view_row **rows;
};

static inline void view_row_of(struct view_row *r, const struct point_result *pr)
{
	*r = (struct view_row){
		.id = pr->pt->id, .exp = pr->pt->exp, .status = pr->status, .reason = pr->reason,
		.cpus = pr->cpus ? pr->cpus : "", .nr_producers = pr->nr_producers,
		.nr_consumers = pr->nr_consumers, .nr_cpus = pr->nr_cpus, .tries = pr->tries,
		.quality = pr->quality, .worker_rate = pr->worker_rate, .per_run = pr->per_run };
	memcpy(r->v, pr->pt->wp.v, sizeof(r->v));
	memcpy(r->stat, pr->stat, sizeof(r->stat));
	/* as read back from the files the run wrote: its figures unrounded, its intervals */
	memcpy(r->exact.stat, pr->stat, sizeof(r->exact.stat));
	memcpy(r->exact.unit, pr->unit, sizeof(r->exact.unit));
	r->exact.worker_rate = pr->worker_rate;
	r->exact.per_run = pr->per_run;
	r->has_intervals = pr->nr_iv > 0;
	r->n = point_measured_intervals(pr);
	/* a row not ok may carry rates it never measured: the table never reads them */
	if (pr->status == PS_OK && pr->thread_rate && pr->nr_producers > 0) {
		r->thread_rate = calloc(pr->nr_producers, sizeof(*r->thread_rate));
		if (r->thread_rate)
			memcpy(r->thread_rate, pr->thread_rate,
			       pr->nr_producers * sizeof(*r->thread_rate));
	}
}

/* metric_field_format() of a hand-made result, without a baseline. */
static inline void field_format_result(const struct metric_field *f,
				       const struct point_result *pr, const void *no_base,
				       char *buf, size_t len)
{
	struct view_row r;

	view_row_of(&r, pr);
	metric_field_format(f, &r, no_base, buf, len);
	free(r.thread_rate);
}

/* The view of res[0..nr) of cfg, rows in their order; 0 or -ENOMEM. */
static inline int view_of(const struct sweep_cfg *cfg, const struct point_result *res, int nr,
			  struct view_of *vo)
{
	vo->v = calloc(1, sizeof(*vo->v));
	vo->rows = calloc(nr + 1, sizeof(*vo->rows));
	if (!vo->v || !vo->rows || view_describe_spec(cfg, vo->v))
		return -ENOMEM;
	vo->v->rows = calloc(nr + 1, sizeof(*vo->v->rows));
	if (!vo->v->rows)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		view_row_of(&vo->v->rows[i], &res[i]);
		vo->rows[i] = &vo->v->rows[i];
	}
	vo->v->nr_rows = nr;
	return 0;
}

static inline void view_of_free(struct view_of *vo)
{
	view_free(vo->v);
	free(vo->rows);
}

#endif
