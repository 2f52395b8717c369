// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's program run time (progrun.c): ns per run of each interval
 * from the increases of prog_runs and prog_ns, summarized over the
 * measured intervals; unknown where the kernel kept no statistics; the
 * {prog_ns.per_run} field; the summary's ns_per_run columns, present only
 * for a workload with the program counters.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "view_of.h"
#include "csvfile.h"
#include "fake_wl.h"
#include "metric.h"
#include "progrun.h"
#include "results.h"

enum { P_OPS, P_RUNS, P_NS, P_NR };

static const struct metric_def prog_metrics_def[] = {
	[P_OPS] = { .name = "ops", .kind = MK_COUNTER, .unit = "M/s" },
	[P_RUNS] = { .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS },
	[P_NS] = { .name = "prog_ns", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_NS },
};

static const struct workload prog_wl = {
	.name = "progfake",
	.params = fake_params,
	.nr_params = 2,
	.metrics = prog_metrics_def,
	.nr_metrics = P_NR,
};

/*
 * Five intervals of one repetition: a warmup (excluded), three with runs
 * at 40, 50 and 60 ns per run, and one where no program ran (no ratio).
 */
static const uint64_t ivs[5][P_NR] = {
	{ 10, 1000, 900000 },		/* warmup: 900 ns per run, not counted */
	{ 100, 2000, 80000 },		/* 40 */
	{ 100, 1000, 50000 },		/* 50 */
	{ 100, 4000, 240000 },		/* 60 */
	{ 100, 0, 0 },			/* no runs: no ratio */
};

static struct point pt = { .id = 0, .wp = { .wl = &prog_wl, .v = { 1, 0 } } };

static void make_result(struct point_result *r, struct interval *iv, bool unknown)
{
	for (int i = 0; i < 5; i++) {
		iv[i] = (struct interval){ .idx = i, .warmup = !i, .elapsed_ns = 100000000 };
		memcpy(iv[i].value, ivs[i], sizeof(ivs[i]));
		if (unknown)
			iv[i].value[P_RUNS] = iv[i].value[P_NS] = METRIC_UNKNOWN;
	}
	*r = (struct point_result){ .pt = &pt, .status = PS_OK, .iv = iv, .nr_iv = 5,
				    .nr_producers = 1, .cpus = (char *)"prod 0", .tries = 1 };
}

TEST(ns_per_run_of_one_interval)
{
	CHECK_NEAR(prog_ns_per_run(1000, 45300), 45.3, 1e-9);
	CHECK_NEAR(prog_ns_per_run(3, 10), 10.0 / 3, 1e-12);
	CHECK(isnan(prog_ns_per_run(0, 0)));
	CHECK(isnan(prog_ns_per_run(0, 500)));
	CHECK(isnan(prog_ns_per_run(METRIC_UNKNOWN, 500)));
	CHECK(isnan(prog_ns_per_run(10, METRIC_UNKNOWN)));
}

TEST(finds_the_counters)
{
	int runs, ns;

	CHECK(prog_metrics(&prog_wl, &runs, &ns));
	CHECK_INT(runs, P_RUNS);
	CHECK_INT(ns, P_NS);
	CHECK(!prog_metrics(&fake_wl, &runs, &ns));
	CHECK_INT(prog_source_of_name("prog_runs"), MS_PROG_RUNS);
	CHECK_INT(prog_source_of_name("prog_ns"), MS_PROG_NS);
	CHECK_INT(prog_source_of_name("ops"), MS_WORKLOAD);
}

/* Mean of 40, 50, 60 is 50, stddev 10, median 50: the warmup's 900 and the idle interval left out. */
TEST(summary_over_measured_intervals)
{
	struct interval iv[5];
	struct point_result r;

	make_result(&r, iv, false);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(r.per_run.n, 3);
	CHECK_NEAR(r.per_run.mean, 50, 1e-9);
	CHECK_NEAR(r.per_run.stddev, 10, 1e-9);
	CHECK_NEAR(r.per_run.median, 50, 1e-9);
	CHECK_NEAR(r.per_run.min, 40, 1e-9);
	CHECK_NEAR(r.per_run.max, 60, 1e-9);
	/* the counters stay rates: (2000 + 1000 + 4000 + 0) runs over 4 × 0.1 s */
	CHECK_NEAR(r.stat[P_RUNS].mean, 17500, 1e-6);
	free(r.thread_rate);
}

/* Without statistics: no rates of the counters, no ns per run; ops unaffected. */
TEST(unknown_without_statistics)
{
	struct interval iv[5];
	struct point_result r;

	make_result(&r, iv, true);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(r.per_run.n, 0);
	CHECK(isnan(r.per_run.mean));
	CHECK(isnan(r.stat[P_RUNS].mean));
	CHECK(isnan(r.stat[P_NS].mean));
	CHECK_NEAR(r.stat[P_OPS].mean, 1000, 1e-9);
}

static int field(const char *text, struct metric_field *f, char *why, size_t len)
{
	size_t at;

	return metric_field_parse(&prog_wl, text, strlen(text), f, &at, why, len);
}

TEST(per_run_field)
{
	struct metric_field f;
	struct interval iv[5];
	struct point_result r;
	char why[256], buf[64];

	make_result(&r, iv, false);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(field("prog_ns.per_run", &f, why, sizeof(why)), 0);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "50.0 ± 10.0ns");
	CHECK_INT(field("prog_ns.per_run:ns", &f, why, sizeof(why)), 0);
	CHECK_INT(field("prog_ns.per_run:M/s", &f, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "use ns") != NULL);
	CHECK_INT(field("ops.per_run", &f, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "prog_ns") != NULL);
	/* ns is per_run's alone: a rate cannot be shown in it */
	CHECK_INT(field("prog_ns:ns", &f, why, sizeof(why)), -EINVAL);
	make_result(&r, iv, true);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(field("prog_ns.per_run", &f, why, sizeof(why)), 0);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "n/a");
}

static struct experiment exp0 = { .title = "Prog", .group = -1 };

/* The summary of one point written by results.c and read back as CSV. */
static int write_summary(const struct workload *wl, struct point_result *r,
			 struct csv_table *t)
{
	struct sweep_cfg cfg = {
		.title = "Prog", .wl = wl, .warmup_ns = 100000000, .duration_ns = 400000000,
		.interval_ns = 100000000, .repeat = 1, .exps = &exp0, .nr_exps = 1,
	};
	char dir[] = "/tmp/test_progrun.XXXXXX", path[64];
	struct results *rs;
	int err;

	if (!mkdtemp(dir))
		return -errno;
	err = results_create(dir, &cfg, &rs);
	if (!err) {
		err = results_append(rs, r);
		results_close(rs);
	}
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (!err)
		err = csv_read_file(path, t);
	unlink(path);
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	unlink(path);
	rmdir(dir);
	return err;
}

static const char *cell(const struct csv_table *t, const char *name)
{
	int c = csv_column(t, name);

	return c < 0 || t->nr_rows < 2 ? NULL : t->rows[1][c];
}

TEST(summary_columns)
{
	struct csv_table t = { 0 };
	struct interval iv[5];
	struct point_result r;

	make_result(&r, iv, false);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(write_summary(&prog_wl, &r, &t), 0);
	CHECK_STR(cell(&t, "ns_per_run_mean"), "50.000");
	CHECK_STR(cell(&t, "ns_per_run_stddev"), "10.000");
	CHECK_STR(cell(&t, "ns_per_run_min"), "40.000");
	CHECK_STR(cell(&t, "prog_runs_per_s_mean"), "17500.000");
	csv_table_free(&t);

	/* refused statistics: the columns are there, empty */
	make_result(&r, iv, true);
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(write_summary(&prog_wl, &r, &t), 0);
	CHECK_STR(cell(&t, "ns_per_run_mean"), "");
	CHECK_STR(cell(&t, "prog_ns_per_s_mean"), "");
	csv_table_free(&t);
}

/* A workload without the counters keeps its columns as they were. */
TEST(no_columns_without_counters)
{
	static struct point fpt = { .id = 0, .wp = { .wl = &fake_wl, .v = { 1, 0 } } };
	struct point_result r = { .pt = &fpt, .status = PS_FAILED, .nr_producers = 1,
				  .cpus = (char *)"", .tries = 1 };
	struct csv_table t = { 0 };

	CHECK_INT(write_summary(&fake_wl, &r, &t), 0);
	CHECK(csv_column(&t, "ns_per_run_mean") < 0);
	CHECK(csv_column(&t, "drops_per_s_mean") >= 0);
	csv_table_free(&t);
}

RUN_TESTS(ns_per_run_of_one_interval, finds_the_counters, summary_over_measured_intervals,
	  unknown_without_statistics, per_run_field, summary_columns, no_columns_without_counters)
