// SPDX-License-Identifier: GPL-2.0
/*
 * Gauges and per-thread counts through the result files: results.c writes
 * them (docs/results.md), results_read.c and the result view (view.c,
 * viewstats.c) read them back to the same intervals and figures, and
 * --resume keeps such a point (its thread rows too) while dropping an
 * unfinished one.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cmd_compare.h"
#include "csvfile.h"
#include "fake_wl.h"
#include "resultdir.h"
#include "results.h"
#include "results_read.h"
#include "resume.h"
#include "view.h"
#include "viewstats.h"

#define NR_PRODUCERS	3
#define REASON		"memory: no memory cgroup controller: cgroup v2 without memory"

static struct experiment exp0 = { .title = "Fake", .group = -1 };
static struct sweep_cfg cfg = {
	.title = "Fake", .wl = &fake_wl, .warmup_ns = 1000000000, .duration_ns = 3000000000ULL,
	.interval_ns = 1000000000, .repeat = 1, .affinity = true, .exps = &exp0, .nr_exps = 1,
};

/* Of producers 0, 1, 2 in every interval; the first interval is the warmup. */
static uint64_t deltas[4][NR_PRODUCERS] = {
	{ 1000, 1000, 1000 }, { 100, 300, 50 }, { 100, 100, 200 }, { 400, 500, 250 },
};

/*
 * Point 0 (mode add) ran: four intervals, memlock unknown in one, each
 * measured one a repetition of its own (so that compare has three units a
 * side); point 1 (del) failed.
 */
struct fixture {
	char dir[64];
	struct point pts[2];
	struct interval iv[5];
	struct point_result res[2];
};

/* mem_add: bytes more of mem at every sample (compare's NEW) */
static void make_results(struct fixture *fx, uint64_t mem_add)
{
	static const uint64_t values[4][FAKE_NR_METRICS] = {
		{ 3000, 99999, 7, 0 }, { 450, 1000, 4096, 10 },
		{ 400, 3000, METRIC_UNKNOWN, 10 }, { 1150, 2000, 4096, 10 },
	};
	static const uint64_t elapsed[4] = { 1000000000, 1000000000, 500000000, 2500000000ULL };

	for (int p = 0; p < 2; p++)
		fx->pts[p] = (struct point){ .id = p, .wp = { .wl = &fake_wl,
							    .v = { NR_PRODUCERS, p } } };
	for (int i = 0; i < 4; i++) {
		fx->iv[i] = (struct interval){ .rep = i ? i - 1 : 0, .idx = i, .warmup = !i,
					       .elapsed_ns = elapsed[i],
					       .thread_delta = deltas[i] };
		memcpy(fx->iv[i].value, values[i], sizeof(values[i]));
		fx->iv[i].value[FAKE_MEM] += mem_add;
	}
	fx->iv[4] = fx->iv[0];
	fx->res[0] = (struct point_result){ .pt = &fx->pts[0], .status = PS_OK, .iv = fx->iv,
					    .nr_iv = 4, .nr_producers = NR_PRODUCERS,
					    .nr_cpus = 2, .cpus = (char *)"prod 0,1,0", .tries = 1 };
	/* an ok row's reason may be a caveat */
	snprintf(fx->res[0].reason, sizeof(fx->res[0].reason), REASON);
	fx->res[1] = (struct point_result){ .pt = &fx->pts[1], .status = PS_FAILED,
					    .iv = &fx->iv[4], .nr_iv = 1,
					    .nr_producers = NR_PRODUCERS, .cpus = (char *)"prod 0,1,0",
					    .tries = 1 };
	snprintf(fx->res[1].reason, sizeof(fx->res[1].reason), "measure: Input/output error");
}

static int write_fixture_with(struct fixture *fx, uint64_t mem_add)
{
	struct results *rs;
	int err;

	make_results(fx, mem_add);
	strcpy(fx->dir, "/tmp/test_gauges.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -errno;
	err = point_result_summarize(&fx->res[0]);
	if (!err)
		err = results_create(fx->dir, &cfg, &rs);
	if (err)
		return err;
	err = results_append(rs, &fx->res[0]);
	if (!err)
		err = results_append(rs, &fx->res[1]);
	results_close(rs);
	return err;
}

static int write_fixture(struct fixture *fx)
{
	return write_fixture_with(fx, 0);
}

static void remove_fixture(struct fixture *fx)
{
	static const char *const names[] = { "samples.csv", "summary.csv", "spec", "meta" };
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fx->dir, names[i]);
		unlink(path);
	}
	rmdir(fx->dir);
	free(fx->res[0].thread_rate);
}

static int read_table(const char *dir, const char *name, struct csv_table *t)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return csv_read_file(path, t);
}

static const char *cell(const struct csv_table *t, int r, const char *name)
{
	int c = csv_column(t, name);

	return c < 0 || r >= t->nr_rows ? "(no such cell)" : t->rows[r][c];
}

/* Whole-point rows, each followed by one row per producer (docs/results.md). */
TEST(samples_have_thread_rows)
{
	static const char *const head[] = { "point", "experiment", "rep", "interval", "warmup",
					    "elapsed_ns", "ops", "mem", "memlock", "drops",
					    "thread" };
	struct fixture fx;
	struct csv_table t;

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(read_table(fx.dir, "samples.csv", &t), 0);
	CHECK_INT(t.nr_cols, 11);
	for (int c = 0; c < 11; c++)
		CHECK_STR(t.rows[0][c], head[c]);
	/* (4 + 1 intervals) x (the interval's row + 3 producers' rows) */
	CHECK_INT(t.nr_rows, 1 + 5 * 4);
	CHECK_STR(cell(&t, 1, "thread"), "");
	CHECK_STR(cell(&t, 1, "ops"), "3000");
	CHECK_STR(cell(&t, 1, "mem"), "99999");
	for (int p = 0; p < NR_PRODUCERS; p++) {
		char want[16];

		snprintf(want, sizeof(want), "%d", p);
		CHECK_STR(cell(&t, 6 + p, "thread"), want);
		CHECK_STR(cell(&t, 6 + p, "interval"), "1");
		CHECK_STR(cell(&t, 6 + p, "warmup"), "0");
		CHECK_STR(cell(&t, 6 + p, "elapsed_ns"), "1000000000");
		snprintf(want, sizeof(want), "%llu", (unsigned long long)deltas[1][p]);
		CHECK_STR(cell(&t, 6 + p, "ops"), want);
		CHECK_STR(cell(&t, 6 + p, "mem"), "");
		CHECK_STR(cell(&t, 6 + p, "drops"), "");
	}
	/* interval 2: memlock could not be read */
	CHECK_STR(cell(&t, 9, "interval"), "2");
	CHECK_STR(cell(&t, 9, "memlock"), "");
	CHECK_STR(cell(&t, 9, "mem"), "3000");
	CHECK_STR(cell(&t, 17, "point"), "1");
	csv_table_free(&t);
	remove_fixture(&fx);
}

TEST(summary_has_gauge_and_worker_columns)
{
	static const char *const head[] = {
		"quality", "unit_kind", "stop", "half_width_pct", "ops_per_s_mean",
		"ops_per_s_stddev", "ops_per_s_median",
		"ops_per_s_min", "ops_per_s_max", "ops_per_s_ci95", "ops_per_s_units",
		"ops_per_s_unit_sd", "ops_per_s_worker_mean",
		"ops_per_s_worker_min", "ops_per_s_worker_median", "ops_per_s_worker_max",
		"mem_mean", "mem_stddev", "mem_median", "mem_min", "mem_max", "mem_ci95",
		"mem_units", "mem_unit_sd",
		"memlock_mean", "memlock_stddev", "memlock_median", "memlock_min", "memlock_max",
		"memlock_ci95", "memlock_units", "memlock_unit_sd", "drops_per_s_mean",
	};
	struct fixture fx;
	struct csv_table t;
	int q;

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(read_table(fx.dir, "summary.csv", &t), 0);
	q = csv_column(&t, "quality");
	CHECK(q > 0);
	CHECK_INT(t.nr_cols, q + 4 + 8 + 4 + 8 + 8 + 8);
	for (size_t c = 0; c < sizeof(head) / sizeof(head[0]); c++)
		CHECK_STR(t.rows[0][q + c], head[c]);
	CHECK_STR(cell(&t, 1, "status"), "ok");
	CHECK_STR(cell(&t, 1, "reason"), REASON);
	CHECK_STR(cell(&t, 1, "n"), "3");
	CHECK_STR(cell(&t, 1, "ops_per_s_mean"), "570.000");
	CHECK_STR(cell(&t, 1, "ops_per_s_worker_mean"), "166.667");
	CHECK_STR(cell(&t, 1, "ops_per_s_worker_min"), "125.000");
	CHECK_STR(cell(&t, 1, "ops_per_s_worker_median"), "150.000");
	CHECK_STR(cell(&t, 1, "ops_per_s_worker_max"), "225.000");
	CHECK_STR(cell(&t, 1, "mem_mean"), "2000.000");
	CHECK_STR(cell(&t, 1, "mem_max"), "3000.000");
	CHECK_STR(cell(&t, 1, "memlock_mean"), "");
	CHECK_STR(cell(&t, 1, "memlock_ci95"), "");
	CHECK_STR(cell(&t, 2, "status"), "failed");
	CHECK_STR(cell(&t, 2, "ops_per_s_worker_max"), "");
	CHECK_STR(cell(&t, 2, "mem_mean"), "");
	csv_table_free(&t);
	remove_fixture(&fx);
}

/* The reader keeps thread rows apart and finds gauges by their columns. */
TEST(read_back_columns)
{
	struct result_set *set;
	struct fixture fx;
	char why[256], name[64];
	bool gauge;

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(results_read(fx.dir, &set, why, sizeof(why)), 0);
	CHECK_INT(set->nr_metrics, 4);
	CHECK_INT(set->thread_col, 10);
	CHECK_INT(set->points[0].nr_samples, 4);
	CHECK_INT(set->points[0].nr_thread_rows, 4 * NR_PRODUCERS);
	CHECK_INT(set->points[1].nr_samples, 1);
	CHECK_INT(set->points[1].nr_thread_rows, NR_PRODUCERS);
	CHECK(result_metric_is_gauge(set, "mem"));
	CHECK(!result_metric_is_gauge(set, "ops"));
	CHECK_NEAR(result_summary_stat(set, 1, "mem", "max"), 3000, 0);
	CHECK_NEAR(result_summary_stat(set, 1, "ops", "worker_max"), 225, 0);
	CHECK_NEAR(result_summary_stat(set, 1, "ops", "mean"), 570, 0);
	CHECK(isnan(result_summary_stat(set, 1, "memlock", "mean")));
	CHECK(result_mean_column(set, "mem_mean", name, sizeof(name), &gauge) && gauge);
	CHECK_STR(name, "mem");
	CHECK(result_mean_column(set, "ops_per_s_mean", name, sizeof(name), &gauge) && !gauge);
	CHECK_STR(name, "ops");
	CHECK(!result_mean_column(set, "ops_per_s_worker_mean", name, sizeof(name), &gauge));
	CHECK(!result_mean_column(set, "mem_peak_mean", name, sizeof(name), &gauge));
	/* samples columns that are not metrics */
	CHECK(!result_mean_column(set, "thread_mean", name, sizeof(name), &gauge));
	CHECK(!result_mean_column(set, "elapsed_ns_mean", name, sizeof(name), &gauge));
	result_set_free(set);
	remove_fixture(&fx);
}

static bool same_summary(const struct summary *a, const struct summary *b)
{
	const double x[] = { a->mean, a->stddev, a->median, a->min, a->max, a->ci95 };
	const double y[] = { b->mean, b->stddev, b->median, b->min, b->max, b->ci95 };

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		if (!(x[i] == y[i] || (isnan(x[i]) && isnan(y[i]))))
			return false;
	return a->n == b->n;
}

/* Row r of a set's view against the result it was written from: its figures, unrounded. */
static void check_same_row(const struct point_result *was, const struct view_row *r)
{
	CHECK_INT(r->status, was->status);
	CHECK_STR(r->reason, was->reason);
	CHECK_INT(r->nr_producers, was->nr_producers);
	CHECK(r->has_intervals == (was->nr_iv > 0));
	for (int m = 0; m < FAKE_NR_METRICS; m++)
		CHECK(same_summary(&was->stat[m], &r->exact.stat[m]));
	CHECK(same_summary(&was->worker_rate, &r->exact.worker_rate));
	CHECK(r->thread_rate);
	for (int p = 0; r->thread_rate && p < NR_PRODUCERS; p++)
		CHECK_NEAR(r->thread_rate[p], was->thread_rate[p], 0);
}

/*
 * Is point p of set, read back as a run's end reads it, the point_result
 * that was written: its intervals (viewstats.h) and its view row r?
 */
static void check_same_result(const struct point_result *was, const struct result_set *set,
			      const struct result_point *p, const struct view_row *r)
{
	struct point_result back = { .pt = was->pt, .nr_producers = r->nr_producers };

	CHECK_INT(viewstats_intervals(set, p, &back), 0);
	CHECK_INT(back.nr_iv, was->nr_iv);
	for (int i = 0; i < back.nr_iv; i++) {
		const struct interval *a = &was->iv[i], *b = &back.iv[i];

		CHECK(a->idx == b->idx && a->warmup == b->warmup && a->elapsed_ns == b->elapsed_ns);
		CHECK(!memcmp(a->value, b->value, FAKE_NR_METRICS * sizeof(a->value[0])));
		CHECK(b->thread_delta);
		CHECK(!memcmp(a->thread_delta, b->thread_delta, NR_PRODUCERS * sizeof(uint64_t)));
	}
	point_result_free_intervals(&back);
	check_same_row(was, r);
}

/* The set read back from dir and its view with the spec's cfg, as a run's end reads them. */
static int run_view(const char *dir, struct result_set **set, struct result_view **v)
{
	char why[256];

	*v = NULL;
	return results_read(dir, set, why, sizeof(why)) ?:
	       view_build(*set, &cfg, v, why, sizeof(why));
}

TEST(rebuild_round_trip)
{
	struct result_set *set = NULL;
	struct result_view *v;
	struct fixture fx;

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(run_view(fx.dir, &set, &v), 0);
	if (!v || !v->nr_rows)
		return;
	check_same_result(&fx.res[0], set, &set->points[0], &v->rows[0]);
	CHECK(isnan(v->rows[0].exact.stat[FAKE_MEMLOCK].mean));
	CHECK_NEAR(v->rows[0].exact.worker_rate.max, 225, 1e-9);
	view_free(v);
	result_set_free(set);
	remove_fixture(&fx);
}

/* A thread row short: not a file bpfsweep wrote, refused rather than summarized wrong. */
TEST(rebuild_refuses_missing_thread_row)
{
	struct result_view *v = NULL;
	struct result_set *set;
	struct fixture fx;
	char why[256];

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(results_read(fx.dir, &set, why, sizeof(why)), 0);
	set->points[0].nr_thread_rows--;
	CHECK_INT(view_build(set, &cfg, &v, why, sizeof(why)), -EINVAL);
	view_free(v);
	/* and one out of order */
	set->points[0].nr_thread_rows++;
	set->points[0].thread_rows[0] = set->points[0].thread_rows[1];
	CHECK_INT(view_build(set, &cfg, &v, why, sizeof(why)), -EINVAL);
	view_free(v);
	result_set_free(set);
	remove_fixture(&fx);
}

/* The view of the set in dir, described by itself (NULL on error). */
static struct result_view *specless_view(const char *dir, struct result_set **set)
{
	struct result_view *v = NULL;
	char why[256];

	if (results_read(dir, set, why, sizeof(why)))
		return NULL;
	if (view_build(*set, NULL, &v, why, sizeof(why))) {
		view_free(v);
		return NULL;
	}
	return v;
}

/*
 * A set without a spec (as imports are) describes itself: the gauges are
 * gauges, the counter with worker columns the per-thread metric, and its
 * rows give the same numbers.
 */
TEST(specless_set_describes_gauges)
{
	const struct workload *wl;
	struct result_set *set = NULL;
	struct result_view *v;
	struct fixture fx;

	CHECK_INT(write_fixture(&fx), 0);
	v = specless_view(fx.dir, &set);
	CHECK(v);
	if (!v)
		return;
	wl = &v->schema;
	CHECK_INT(wl->nr_metrics, 4);
	CHECK_STR(wl->metrics[0].name, "ops");
	CHECK(wl->metrics[0].kind == MK_COUNTER && wl->metrics[0].per_thread);
	CHECK_STR(wl->metrics[1].name, "mem");
	CHECK(wl->metrics[1].kind == MK_GAUGE && !wl->metrics[1].per_thread);
	CHECK(wl->metrics[2].kind == MK_GAUGE);
	CHECK(wl->metrics[3].kind == MK_COUNTER && !wl->metrics[3].per_thread);
	CHECK_INT(v->nr_rows, 2);
	check_same_row(&fx.res[0], &v->rows[0]);
	view_free(v);
	result_set_free(set);
	remove_fixture(&fx);
}

/* Without intervals (an imported set's header-only samples.csv) the cells are all there is. */
TEST(specless_rows_from_cells)
{
	static const char head[] = "point,experiment,rep,interval,warmup,elapsed_ns,ops,mem,"
				   "memlock,drops,thread\n";
	struct result_set *set = NULL;
	const struct view_row *r;
	struct result_view *v;
	struct fixture fx;
	char path[128];
	FILE *f;

	CHECK_INT(write_fixture(&fx), 0);
	snprintf(path, sizeof(path), "%s/samples.csv", fx.dir);
	f = fopen(path, "w");
	CHECK(f);
	fputs(head, f);
	CHECK_INT(fclose(f), 0);
	v = specless_view(fx.dir, &set);
	CHECK(v);
	if (!v)
		return;
	r = &v->rows[0];
	CHECK(!r->has_intervals);
	CHECK_NEAR(r->exact.stat[FAKE_OPS].mean, 570, 0);
	CHECK_NEAR(r->exact.stat[FAKE_MEM].mean, 2000, 0);
	CHECK_NEAR(r->exact.stat[FAKE_MEM].max, 3000, 0);
	/* a level not known stays unknown, where an empty rate draws as 0 */
	CHECK(isnan(r->exact.stat[FAKE_MEMLOCK].mean));
	CHECK_NEAR(r->exact.worker_rate.min, 125, 0);
	CHECK_NEAR(r->exact.worker_rate.max, 225, 0);
	view_free(v);
	result_set_free(set);
	remove_fixture(&fx);
}

/* `compare --format csv` of two directories into t. */
static int compare_csv(const char *base, const char *new, struct csv_table *t)
{
	char *argv[] = { "compare", (char *)base, (char *)new, "--format", "csv", NULL };
	char path[] = "/tmp/test_gauges_cmp.XXXXXX";
	int fd = mkstemp(path), saved = dup(1), status;

	if (fd < 0 || saved < 0)
		return -errno;
	fflush(stdout);
	dup2(fd, 1);
	optind = 1;
	status = cmd_compare(5, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	status = status ? -EINVAL : csv_read_file(path, t);
	unlink(path);
	return status;
}

/* The row of metric in t, or 0. */
static int metric_row(const struct csv_table *t, const char *metric)
{
	for (int r = 1; r < t->nr_rows; r++)
		if (!strcmp(t->rows[r][csv_column(t, "metric")], metric))
			return r;
	return 0;
}

/*
 * A gauge compares as levels (10000 bytes more at every sample is
 * significant, and worse: less memory is better); one that could not be
 * read is n/a, never a 0 compared.
 */
TEST(compare_gauges_as_levels)
{
	struct fixture base, new;
	struct csv_table t;
	int r;

	CHECK_INT(write_fixture(&base), 0);
	CHECK_INT(write_fixture_with(&new, 10000), 0);
	CHECK_INT(compare_csv(base.dir, new.dir, &t), 0);
	r = metric_row(&t, "mem");
	CHECK(r > 0);
	CHECK_STR(cell(&t, r, "base_mean"), "2000.000");
	CHECK_STR(cell(&t, r, "new_mean"), "12000.000");
	CHECK_STR(cell(&t, r, "base_stddev"), "1000.000");
	CHECK_STR(cell(&t, r, "new_n"), "3");
	CHECK_STR(cell(&t, r, "verdict"), "worse");
	r = metric_row(&t, "memlock");
	CHECK(r > 0);
	CHECK_STR(cell(&t, r, "base_mean"), "");
	CHECK_STR(cell(&t, r, "verdict"), "n/a (not recorded)");
	/*
	 * the counters are rates as before, the same on both sides; three units
	 * of their spread cannot rule out changes beyond ±2 %: undecided
	 */
	r = metric_row(&t, "ops");
	CHECK(r > 0);
	CHECK_STR(cell(&t, r, "base_mean"), "570.000");
	CHECK_STR(cell(&t, r, "verdict"), "undecided");
	CHECK(!metric_row(&t, "ops_per_s_worker"));
	csv_table_free(&t);
	remove_fixture(&base);
	remove_fixture(&new);
}

/* The spec and meta --resume checks the run against. */
static int write_run_files(const char *dir, struct spec **spec)
{
	static const char text[] = "[sweep]\nworkload = fake\n";
	char path[128];
	FILE *f;
	int err;

	err = spec_parse_string("fake.spec", text, spec);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/spec", dir);
	f = fopen(path, "wx");
	if (!f)
		return -errno;
	err = spec_write(*spec, f);
	if (fclose(f))
		err = err ?: -errno;
	snprintf(path, sizeof(path), "%s/meta", dir);
	f = fopen(path, "wx");
	if (!f)
		return -errno;
	fputs("workload: fake\nwarmup: 1s\nduration: 3s\ninterval: 1s\nrepeat: 1\n"
	      "affinity: on\n", f);
	return fclose(f) ? -errno : err;
}

TEST(resume_keeps_point_with_thread_rows)
{
	struct result_set *set = NULL;
	struct result_view *v;
	struct spec *spec = NULL;
	struct csv_table t;
	struct resume rs;
	struct fixture fx;

	CHECK_INT(write_fixture(&fx), 0);
	CHECK_INT(write_run_files(fx.dir, &spec), 0);
	CHECK_INT(resume_prepare(fx.dir, spec, &cfg, NULL, fx.pts, 2, true, &rs), 0);
	CHECK_INT(rs.nr_kept, 1);
	CHECK(rs.has_row[0] && !rs.has_row[1]);
	resume_free(&rs);
	spec_free(spec);
	/* what the run's end reads back: the kept point as it was */
	CHECK_INT(run_view(fx.dir, &set, &v), 0);
	CHECK_INT(set->nr_points, 1);
	if (!v || !v->nr_rows)
		return;
	check_same_result(&fx.res[0], set, &set->points[0], &v->rows[0]);
	view_free(v);
	result_set_free(set);
	/* the failed point's rows went, thread rows too; the kept point's all stay */
	CHECK_INT(read_table(fx.dir, "samples.csv", &t), 0);
	CHECK_INT(t.nr_rows, 1 + 4 * (1 + NR_PRODUCERS));
	CHECK_STR(cell(&t, t.nr_rows - 1, "point"), "0");
	CHECK_STR(cell(&t, t.nr_rows - 1, "thread"), "2");
	csv_table_free(&t);
	CHECK_INT(read_table(fx.dir, "summary.csv", &t), 0);
	CHECK_INT(t.nr_rows, 2);
	csv_table_free(&t);
	remove_fixture(&fx);
}

RUN_TESTS(samples_have_thread_rows, summary_has_gauge_and_worker_columns, read_back_columns,
	  rebuild_round_trip, rebuild_refuses_missing_thread_row, specless_set_describes_gauges,
	  specless_rows_from_cells, compare_gauges_as_levels, resume_keeps_point_with_thread_rows)
