// SPDX-License-Identifier: GPL-2.0
/*
 * viewdesc.c and viewmap.c: a result set without a spec described by its
 * own summary.csv as a result view (what resultcfg.c's bound spec was),
 * with --set's [report] keys, and another set's rows placed on its
 * experiments.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "results_read.h"
#include "viewdesc.h"
#include "viewmap.h"
#include "view.h"

/*
 * Two experiments; in A the label follows producers and mode, mode varies
 * on its own; avg_mem is a size, no rate.
 */
static const char summary_a[] =
	"exp,point,experiment,label,producers,mode,status,n,hits_per_s_mean,hits_per_s_stddev,"
	"avg_mem_bytes_mean\n"
	"0,0,A,p 1,1,x,ok,,100.000,1.000,5\n"
	"0,1,A,p 2,2,x,ok,,200.000,2.000,5\n"
	"0,2,A,p 1,1,y,ok,,300.000,3.000,5\n"
	"0,3,A,p 2,2,y,ok,,400.000,4.000,5\n"
	"1,4,B,p 4,4,x,ok,,500.000,5.000,5\n";

/* The same columns, labels first seen in another order, one label A lacks. */
static const char summary_b[] =
	"exp,point,experiment,label,producers,mode,status,n,hits_per_s_mean,hits_per_s_stddev,"
	"avg_mem_bytes_mean\n"
	"0,0,A,p 2,2,x,ok,,1.000,0.000,5\n"
	"0,1,A,p 9,9,x,ok,,1.000,0.000,5\n";

/* The set of a directory holding only summary_text as summary.csv. */
static struct result_set *read_set(const char *summary_text)
{
	char dir[] = "/tmp/test_viewdesc.XXXXXX", path[64], why[256];
	struct result_set *rs = NULL;
	FILE *f;

	if (!mkdtemp(dir))
		return NULL;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(summary_text, f);
		fclose(f);
		if (results_read(dir, &rs, why, sizeof(why)))
			rs = NULL;
	}
	unlink(path);
	rmdir(dir);
	return rs;
}

struct described {
	struct result_set *set;
	struct result_view *v;
	int err;
};

static void describe(const char *text, const struct spec *spec, struct described *d)
{
	char why[256];

	memset(d, 0, sizeof(*d));
	d->set = read_set(text);
	d->err = d->set ? view_build(d->set, NULL, &d->v, why, sizeof(why)) : -1;
	if (!d->err && spec)
		d->err = viewdesc_report(d->v, spec);
}

static void described_free(struct described *d)
{
	view_free(d->v);
	result_set_free(d->set);
}

TEST(parameters_metrics_points)
{
	struct described d;
	const struct workload *wl;

	describe(summary_a, NULL, &d);
	CHECK_INT(d.err, 0);
	if (d.err)
		return;
	wl = &d.v->schema;
	CHECK_INT(wl->nr_params, 3);
	CHECK_STR(wl->params[0].name, "label");
	CHECK_INT(wl->params[0].type, PT_ENUM);
	CHECK_STR(wl->params[0].choices[2], "p 4");
	CHECK(wl->params[0].choices[3] == NULL);
	CHECK_INT(wl->params[1].type, PT_INT);
	CHECK_INT(wl->params[2].type, PT_ENUM);
	CHECK_INT(wl->nr_metrics, 1);
	CHECK_STR(wl->metrics[0].name, "hits");
	CHECK_INT(d.v->nr_rows, 5);
	CHECK_INT(d.v->rows[3].v[1], 2);
	CHECK_INT(d.v->rows[3].v[2], 1);
	CHECK_INT(d.v->rows[4].exp, 1);
	CHECK_INT(d.v->nr_exps, 2);
	CHECK_STR(d.v->exps[1].title, "B");
	described_free(&d);
}

/* Axes of the values seen; the label follows the others: linked, one value. */
TEST(axes_and_default_report)
{
	struct described d;
	const struct view_exp *a;

	describe(summary_a, NULL, &d);
	CHECK_INT(d.err, 0);
	if (d.err)
		return;
	a = &d.v->exps[0];
	CHECK_INT(a->nr_order, 3);
	CHECK(a->linked[0]);
	CHECK_INT(a->nr_vals[0], 1);
	CHECK_INT(a->nr_vals[1], 2);
	CHECK_INT(a->vals[1][1], 2);
	CHECK(!a->linked[2]);
	CHECK_INT(a->nr_vals[2], 2);
	CHECK_STR(a->label, "{label}");
	CHECK_INT(a->nr_plots, 1);
	CHECK_INT(a->plots[0].x, 1);
	CHECK_INT(a->plots[0].y, 0);
	CHECK_INT(a->plots[0].by, -1);
	/* B has one producers value: nothing to chart */
	CHECK_INT(d.v->exps[1].nr_plots, 0);
	described_free(&d);
}

TEST(report_keys_from_set)
{
	struct spec *s = NULL;
	struct described d;

	CHECK_INT(spec_parse_string("--set", "", &s), 0);
	CHECK_INT(spec_set(s, "plot=producers vs hits by mode"), 0);
	CHECK_INT(spec_set(s, "label=n {producers}"), 0);
	describe(summary_a, s, &d);
	CHECK_INT(d.err, 0);
	CHECK_INT(d.v->exps[0].nr_plots, 1);
	CHECK_INT(d.v->exps[0].plots[0].by, 2);
	CHECK_STR(d.v->exps[1].label, "n {producers}");
	described_free(&d);
	spec_free(s);
}

/* Without intervals, the summary row's cells are its figures, the exports' too. */
TEST(rates_from_summary_row)
{
	struct described d;
	struct view_row r;

	describe(summary_a, NULL, &d);
	CHECK_INT(d.err, 0);
	if (d.err)
		return;
	r = d.v->rows[3];
	CHECK(!r.has_intervals);
	CHECK(r.exact.stat[0].mean == r.stat[0].mean && r.exact.stat[0].stddev == r.stat[0].stddev);
	CHECK(r.stat[0].mean == 400);
	CHECK(r.stat[0].stddev == 4);
	CHECK_INT(r.stat[0].n, 0);
	/* the row has no median, min, max or ci95: unknown, not 0 */
	CHECK(isnan(r.stat[0].median) && isnan(r.stat[0].min) && isnan(r.stat[0].max) &&
	      isnan(r.stat[0].ci95));
	described_free(&d);
}

/* Another set's rows on this one's charts: enum values by name. */
TEST(retie_by_name)
{
	struct described a, b;
	struct view_row r;

	describe(summary_a, NULL, &a);
	describe(summary_b, NULL, &b);
	CHECK_INT(a.err, 0);
	CHECK_INT(b.err, 0);
	if (a.err || b.err)
		return;
	CHECK(view_same_schema(b.v, a.v));
	CHECK_INT(b.v->rows[0].v[0], 0);
	CHECK(view_row_onto(b.v, &b.v->rows[0], a.v, &r));
	CHECK_INT(r.v[0], 1);		/* "p 2" is A's second label */
	CHECK(!view_row_onto(b.v, &b.v->rows[1], a.v, &r));	/* A has no "p 9" */
	described_free(&a);
	described_free(&b);
}

TEST(no_rate_column)
{
	struct described d;

	describe("exp,point,experiment,x,status,n,avg_mem_bytes_mean\n0,0,A,1,ok,,5\n", NULL, &d);
	CHECK_INT(d.err, -EINVAL);
	described_free(&d);
}

RUN_TESTS(parameters_metrics_points, axes_and_default_report, report_keys_from_set,
	  rates_from_summary_row, retie_by_name, no_rate_column)
