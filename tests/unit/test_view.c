// SPDX-License-Identifier: GPL-2.0
/*
 * view.c: a result set written by results.c, read back and built into a
 * view, holds what the run had in memory: typed parameter values, the
 * status, every statistic (to the three decimals summary.csv keeps), n,
 * each producer's rate and the spread across them; and a set without a
 * spec is described by its own columns.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_wl.h"
#include "results.h"
#include "results_read.h"
#include "view.h"

#define NR_PROD	2

static struct experiment exp0 = { .title = "Fake", .group = -1, .label = "{producers}" };
static struct sweep_cfg cfg = { .title = "Fake", .wl = &fake_wl, .max_cv = 10, .exps = &exp0,
				.nr_exps = 1 };

static uint64_t deltas[4][NR_PROD] = { { 9, 9 }, { 100, 300 }, { 100, 100 }, { 400, 500 } };

struct fixture {
	char dir[64];
	struct point pts[2];
	struct interval iv[5];
	struct point_result res[2];
};

/* Point 0 (producers 2, mode del) ran four intervals, memlock unknown in one; point 1 failed. */
static int write_fixture(struct fixture *fx)
{
	static const uint64_t values[4][FAKE_NR_METRICS] = {
		{ 3000, 99999, 7, 0 }, { 450, 1000, 4096, 10 },
		{ 400, 3000, METRIC_UNKNOWN, 11 }, { 1150, 2000, 4096, 13 },
	};
	static const uint64_t elapsed[4] = { 1000000000, 1000000000, 500000000, 2500000000ULL };
	struct results *rs;
	int err;

	for (int p = 0; p < 2; p++)
		fx->pts[p] = (struct point){ .id = p, .wp = { .wl = &fake_wl, .v = { NR_PROD, 1 - p } } };
	for (int i = 0; i < 4; i++) {
		fx->iv[i] = (struct interval){ .rep = i ? i - 1 : 0, .idx = i, .warmup = !i,
					       .elapsed_ns = elapsed[i], .thread_delta = deltas[i] };
		memcpy(fx->iv[i].value, values[i], sizeof(values[i]));
	}
	fx->iv[4] = fx->iv[0];
	fx->res[0] = (struct point_result){ .pt = &fx->pts[0], .status = PS_OK, .iv = fx->iv,
					    .nr_iv = 4, .nr_producers = NR_PROD, .nr_cpus = 2,
					    .cpus = (char *)"prod 0,1", .tries = 3 };
	fx->res[0].quality.flags = 1;
	fx->res[0].quality.cv_pct = 37;
	fx->res[1] = (struct point_result){ .pt = &fx->pts[1], .status = PS_FAILED,
					    .iv = &fx->iv[4], .nr_iv = 1, .nr_producers = NR_PROD,
					    .cpus = (char *)"prod 0,1", .tries = 1 };
	snprintf(fx->res[1].reason, sizeof(fx->res[1].reason), "measure: Input/output error");
	strcpy(fx->dir, "/tmp/test_view.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -errno;
	err = point_result_summarize(&fx->res[0]) ?: results_create(fx->dir, &cfg, &rs);
	if (err)
		return err;
	err = results_append(rs, &fx->res[0]) ?: results_append(rs, &fx->res[1]);
	results_close(rs);
	return err;
}

static void remove_fixture(struct fixture *fx)
{
	static const char *const names[] = { "samples.csv", "summary.csv", "columns.csv" };
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fx->dir, names[i]);
		unlink(path);
	}
	rmdir(fx->dir);
	free(fx->res[0].thread_rate);
}

/* The fixture written and read back (check_cur.failed set when it was not). */
static void read_fixture(struct fixture *fx, struct result_set **set)
{
	char why[256];

	CHECK_INT(write_fixture(fx), 0);
	CHECK_INT(results_read(fx->dir, set, why, sizeof(why)), 0);
}

static void done(struct fixture *fx, struct result_set *set, struct result_view *v)
{
	view_free(v);
	result_set_free(set);
	remove_fixture(fx);
}

static void check_summary(const struct summary *got, const struct summary *want)
{
	if (isnan(want->mean)) {
		CHECK(isnan(got->mean));
		CHECK_INT(got->n, 0);
		return;
	}
	CHECK_NEAR(got->mean, want->mean, 5e-4);
	CHECK_NEAR(got->stddev, want->stddev, 5e-4);
	CHECK_NEAR(got->median, want->median, 5e-4);
	CHECK_NEAR(got->min, want->min, 5e-4);
	CHECK_NEAR(got->max, want->max, 5e-4);
	CHECK_INT(got->n, want->n);
}

static void check_ok_row(const struct view_row *r, const struct point_result *pr)
{
	CHECK_INT(r->status, PS_OK);
	CHECK_INT(r->exp, 0);
	CHECK_INT(r->v[0], NR_PROD);
	CHECK_INT(r->v[1], 1);
	CHECK_INT(r->tries, 3);
	CHECK_INT(r->nr_producers, NR_PROD);
	CHECK_STR(r->cpus, "prod 0,1");
	CHECK_INT(r->quality.flags, 1);
	CHECK_INT(r->n, 3);
	for (int m = 0; m < FAKE_NR_METRICS; m++)
		check_summary(&r->stat[m], &pr->stat[m]);
	CHECK(isnan(r->stat[FAKE_MEMLOCK].mean));
	CHECK_NEAR(r->worker_rate.max, pr->worker_rate.max, 5e-4);
	CHECK_INT(r->worker_rate.n, NR_PROD);
	CHECK(r->thread_rate);
	for (int t = 0; r->thread_rate && t < NR_PROD; t++)
		CHECK_NEAR(r->thread_rate[t], pr->thread_rate[t], 1e-9);
}

TEST(round_trip_with_spec)
{
	struct result_set *set;
	struct result_view *v;
	struct fixture fx;
	char why[256];

	read_fixture(&fx, &set);
	if (check_cur.failed)
		return;
	CHECK_INT(view_build(set, &cfg, &v, why, sizeof(why)), 0);
	CHECK_INT(v->nr_rows, 2);
	CHECK_INT(v->nr_exps, 1);
	CHECK_STR(v->exps[0].label, "{producers}");
	CHECK_INT(v->max_cv, 10);
	check_ok_row(&v->rows[0], &fx.res[0]);
	CHECK_INT(v->rows[1].status, PS_FAILED);
	CHECK_STR(v->rows[1].reason, "measure: Input/output error");
	CHECK_INT(v->rows[1].v[1], 0);
	CHECK(!v->rows[1].thread_rate);
	done(&fx, set, v);
}

/* Without a spec: the columns say what the parameters and metrics are. */
TEST(set_without_spec_describes_itself)
{
	struct result_set *set;
	struct result_view *v;
	struct fixture fx;
	char why[256];

	read_fixture(&fx, &set);
	if (check_cur.failed)
		return;
	CHECK(!set->spec);
	CHECK_INT(view_build(set, NULL, &v, why, sizeof(why)), 0);
	CHECK_INT(v->schema.nr_params, 2);
	CHECK_INT(v->params[0].type, PT_INT);
	CHECK_INT(v->params[1].type, PT_ENUM);
	CHECK_STR(v->params[1].choices[v->rows[0].v[1]], "del");
	CHECK_STR(v->params[1].choices[v->rows[1].v[1]], "add");
	CHECK_INT(v->schema.nr_metrics, FAKE_NR_METRICS);
	CHECK_STR(v->metrics[FAKE_MEM].name, "mem");
	CHECK_INT(v->metrics[FAKE_MEM].kind, MK_GAUGE);
	CHECK(v->metrics[FAKE_OPS].per_thread);
	CHECK_INT(v->nr_exps, 1);
	CHECK_STR(v->exps[0].title, "Fake");
	/* producers is one value: nothing to chart; mode varies */
	CHECK_INT(v->exps[0].nr_vals[0], 1);
	CHECK_INT(v->exps[0].nr_plots, 0);
	check_summary(&v->rows[0].stat[FAKE_OPS], &fx.res[0].stat[FAKE_OPS]);
	done(&fx, set, v);
}

/* A parameter cell that is no value of the spec's parameter is refused at its line and column. */
TEST(bad_parameter_refused)
{
	struct result_set *set;
	struct result_view *v;
	struct fixture fx;
	char why[256], where[64];

	read_fixture(&fx, &set);
	if (check_cur.failed)
		return;
	set->summary.rows[2][set->first_param + 1] = (char *)"sideways";
	CHECK_INT(view_build(set, &cfg, &v, why, sizeof(why)), -EINVAL);
	snprintf(where, sizeof(where), "summary.csv:3:%d: error: mode 'sideways'",
		 set->first_param + 2);
	CHECK(strstr(why, where));
	done(&fx, set, v);
}

RUN_TESTS(round_trip_with_spec, set_without_spec_describes_itself, bad_parameter_refused);
