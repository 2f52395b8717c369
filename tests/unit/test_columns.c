// SPDX-License-Identifier: GPL-2.0
/*
 * summary.csv's column table (columns.c, colname.c) and its reader
 * (results_read.c): columns.csv written beside summary.csv says what each
 * column is; a set from before it (tests/fixtures/results/export) reads
 * the same from its names, and both ways agree column by column.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "colname.h"
#include "columns.h"
#include "diag_capture.h"
#include "spec.h"
#include "resultdir.h"
#include "results.h"
#include "results_read.h"

extern const struct workload null_workload;

#define FIXTURE "tests/fixtures/results/export"

static struct experiment exp0 = { .title = "columns", .group = -1 };
static struct sweep_cfg cfg = { .wl = &null_workload, .exps = &exp0, .nr_exps = 1 };

static const struct result_col *col_named(const struct result_set *rs, const char *name)
{
	int c = result_summary_col(rs, name);

	return c < 0 ? NULL : &rs->cols[c];
}

static bool is_hits(const void *ctx, const char *metric)
{
	return !strcmp(metric, "hits") || !strcmp(metric, "mem_peak");
}

TEST(names_round_trip)
{
	static const char *const stats[] = {
		"mean", "stddev", "median", "min", "max", "ci95", "units", "unit_sd",
		"worker_mean", "worker_min", "worker_median", "worker_max",
	};
	static const char *const base[] = {
		"over_base_ns_mean", "over_base_ns_sd", "vs_base_mean", "vs_base_sd",
	};
	struct colname cn;
	char name[96];

	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		colname_stat(name, sizeof(name), "hits", CK_COUNTER, stats[i]);
		CHECK(colname_parse(name, is_hits, NULL, &cn));
		CHECK_STR(cn.metric, "hits");
		CHECK_STR(cn.stat, stats[i]);
		CHECK_INT(cn.kind, CK_COUNTER);
		colname_stat(name, sizeof(name), "mem_peak", CK_GAUGE, stats[i]);
		CHECK(colname_parse(name, is_hits, NULL, &cn));
		CHECK_STR(cn.metric, "mem_peak");
		CHECK_STR(cn.stat, stats[i]);
		CHECK_INT(cn.kind, CK_GAUGE);
	}
	for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		colname_stat(name, sizeof(name), "hits", CK_COUNTER, base[i]);
		CHECK(colname_parse(name, is_hits, NULL, &cn));
		CHECK_STR(cn.stat, base[i]);
	}
	colname_stat(name, sizeof(name), COLNAME_NS_PER_RUN, CK_RATIO, "ci95");
	CHECK_STR(name, "ns_per_run_ci95");
	CHECK(colname_parse(name, is_hits, NULL, &cn));
	CHECK_INT(cn.kind, CK_RATIO);
	CHECK_STR(col_unit(CK_RATIO, "mean"), "ns");
	/* a gauge's name needs its samples column; a run's own columns are no metric's */
	CHECK(!colname_parse("mem_mean", is_hits, NULL, &cn));
	CHECK(!colname_parse("half_width_pct", is_hits, NULL, &cn));
	CHECK(!colname_parse("nr_producers", is_hits, NULL, &cn));
}

/* A set from before columns.csv: its names say what its columns are. */
TEST(old_set_read_by_names)
{
	const struct result_col *c;
	struct result_set *rs;
	char why[256];

	CHECK_INT(results_read(FIXTURE, &rs, why, sizeof(why)), 0);
	CHECK(!rs->cols_recorded);
	c = col_named(rs, "hits_per_s_mean");
	CHECK(c);
	CHECK_STR(c->metric, "hits");
	CHECK_STR(c->stat, "mean");
	CHECK_INT(c->kind, CK_COUNTER);
	CHECK_STR(c->unit, "1/s");
	c = col_named(rs, "hits_vs_base_sd");
	CHECK(c && c->kind == CK_COUNTER);
	CHECK_STR(c->stat, "vs_base_sd");
	CHECK_STR(c->unit, "ratio");
	CHECK_INT(col_named(rs, "producers")->kind, CK_PARAM);
	CHECK_INT(col_named(rs, "point")->kind, CK_ID);
	CHECK_INT(col_named(rs, "quality")->kind, CK_RUN);
	CHECK(!result_metric_is_gauge(rs, "hits"));
	CHECK_NEAR(result_summary_stat(rs, 1, "hits", "mean"), 499999.749, 1e-6);
	CHECK_NEAR(result_summary_stat(rs, 1, "drops", "ci95"), 33.489, 1e-6);
	CHECK(isnan(result_summary_stat(rs, 1, "hits", "units")));
	result_set_free(rs);
}

static int write_point(const char *dir)
{
	struct interval iv[2] = {
		{ .rep = 0, .idx = 0, .warmup = true, .elapsed_ns = 1000000000 },
		{ .rep = 0, .idx = 1, .elapsed_ns = 1000000000, .value = { 1000, 10 } },
	};
	struct point pt = { .id = 0, .wp.wl = &null_workload };
	struct point_result pr = { .pt = &pt, .status = PS_OK, .iv = iv, .nr_iv = 2 };
	struct results *r;
	int err;

	pr.stat[0] = (struct summary){ 1000, 0, 1000, 1000, 1000, NAN, 1 };
	units_unknown(&pr.unit[0]);
	units_unknown(&pr.unit[1]);
	err = resultdir_create(dir) ?: results_create(dir, &cfg, &r);
	if (err)
		return err;
	err = results_append(r, &pr);
	results_close(r);
	return err;
}

static void remove_set(const char *top, const char *dir)
{
	static const char *const files[] = { "samples.csv", "summary.csv", "columns.csv" };
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	rmdir(top);
}

/* What columns.csv says of each column (rec) is what its name says (old). */
static void cols_agree(const struct result_set *rec, const struct result_set *old)
{
	CHECK_INT(rec->summary.nr_cols, old->summary.nr_cols);
	for (int i = 0; i < rec->summary.nr_cols; i++) {
		CHECK_STR(rec->cols[i].metric, old->cols[i].metric);
		CHECK_STR(rec->cols[i].stat, old->cols[i].stat);
		CHECK_STR(rec->cols[i].unit, old->cols[i].unit);
		CHECK_INT(rec->cols[i].kind, old->cols[i].kind);
	}
}

/* columns.csv as written agrees, column by column, with what the names say. */
TEST(written_columns_read_back)
{
	struct result_set *rec, *old;
	char top[64] = "/tmp/test_columns.XXXXXX", dir[128], path[160], why[256];
	const struct result_col *c;

	CHECK(mkdtemp(top));
	snprintf(dir, sizeof(dir), "%s/r", top);
	CHECK_INT(write_point(dir), 0);
	CHECK_INT(results_read(dir, &rec, why, sizeof(why)), 0);
	CHECK(rec->cols_recorded);
	c = col_named(rec, "drops_per_s_mean");
	CHECK(c);
	CHECK_STR(c->better, "lower");
	CHECK_STR(col_named(rec, "hits_per_s_median")->better, "higher");
	CHECK_STR(col_named(rec, "hits_per_s_stddev")->better, "");
	CHECK_STR(col_named(rec, "half_width_pct")->unit, "%");
	snprintf(path, sizeof(path), "%s/columns.csv", dir);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(results_read(dir, &old, why, sizeof(why)), 0);
	CHECK(!old->cols_recorded);
	cols_agree(rec, old);
	CHECK_NEAR(result_summary_stat(rec, 1, "hits", "mean"), 1000, 1e-9);
	result_set_free(rec);
	result_set_free(old);
	remove_set(top, dir);
}

/* A columns.csv that no longer names summary.csv's columns is not believed. */
TEST(stale_columns_ignored)
{
	struct result_set *rs;
	char top[64] = "/tmp/test_columns.XXXXXX", dir[128], path[160], why[256];
	FILE *f;

	CHECK(mkdtemp(top));
	snprintf(dir, sizeof(dir), "%s/r", top);
	CHECK_INT(write_point(dir), 0);
	snprintf(path, sizeof(path), "%s/columns.csv", dir);
	f = fopen(path, "w");
	CHECK(f);
	fputs("column,metric,stat,kind,unit,better\nexp,,,id,,\n", f);
	fclose(f);
	CHECK_INT(results_read(dir, &rs, why, sizeof(why)), 0);
	CHECK(!rs->cols_recorded);
	CHECK_INT(col_named(rs, "hits_per_s_mean")->kind, CK_COUNTER);
	result_set_free(rs);
	remove_set(top, dir);
}

/*
 * An imported size or time (docs/import.md) is named with its unit,
 * "avg_mem_bytes_mean" of samples column avg_mem: read back as that
 * metric's level, in its unit, or the set could not be read at all
 * ("metric 'avg_mem' has no statistics in summary.csv").
 */
static bool is_imported(const void *ctx, const char *metric)
{
	return !strcmp(metric, "avg_mem") || !strcmp(metric, "latency");
}

TEST(imported_levels_round_trip)
{
	static const struct {
		const char *metric, *unit, *name;
	} cases[] = {
		{ "avg_mem", "bytes", "avg_mem_bytes_mean" },
		{ "latency", "ns", "latency_ns_mean" },
	};
	struct colname cn;
	char name[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		colname_level(name, sizeof(name), cases[i].metric, cases[i].unit, "mean");
		CHECK_STR(name, cases[i].name);
		CHECK(colname_parse(name, is_imported, NULL, &cn));
		CHECK_STR(cn.metric, cases[i].metric);
		CHECK_STR(cn.stat, "mean");
		CHECK_INT(cn.kind, CK_GAUGE);
		CHECK_STR(cn.unit, cases[i].unit);
		colname_level(name, sizeof(name), cases[i].metric, cases[i].unit, "stddev");
		CHECK(colname_parse(name, is_imported, NULL, &cn));
		CHECK_STR(cn.stat, "stddev");
	}
	/* a metric's own name wins: a run's gauge called lat_ns is lat_ns, not lat */
	CHECK(!colname_parse("peak_mem_bytes_mean", is_imported, NULL, &cn));
}

/*
 * Published rows (import) go through the same column table: a rate's
 * columns are a run's counter's, name for name and word for word in
 * columns.csv; a level carries its unit in its names and cells; what
 * columns.csv says of each column is what its name says.
 */
static const char *const pub_params[] = { "label", "producers" };
static const struct published_metric pub_metrics[] = {
	{ .name = "hits", .kind = CK_COUNTER, .better = MB_HIGHER, .decimals = 3 },
	{ .name = "drops", .kind = CK_COUNTER, .better = MB_LOWER, .decimals = 3 },
	{ .name = "avg_mem", .kind = CK_GAUGE, .unit = "bytes", .better = MB_LOWER },
	{ .name = "latency", .kind = CK_GAUGE, .unit = "ns", .better = MB_LOWER, .decimals = 3 },
};
static const struct published_layout pub_layout = {
	.params = pub_params, .nr_params = 2, .metrics = pub_metrics, .nr_metrics = 4,
};

static const struct column *column_named(const struct column *cols, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(cols[i].name, name))
			return &cols[i];
	return NULL;
}

TEST(published_rates_are_a_runs_counters)
{
	struct column *run, *pub;
	int nr_run, nr_pub, same = 0;

	CHECK_INT(columns_of(&cfg, false, &run, &nr_run), 0);
	CHECK_INT(columns_of_published(&pub_layout, &pub, &nr_pub), 0);
	for (int i = 0; i < nr_pub; i++) {
		const struct column *r = column_named(run, nr_run, pub[i].name);

		if (!r || pub[i].kind == CK_PARAM)
			continue;
		same++;
		CHECK_STR(pub[i].unit, r->unit);
		CHECK_INT(pub[i].kind, r->kind);
		CHECK_INT(pub[i].has_better, r->has_better);
		CHECK_INT(pub[i].better, r->better);
		CHECK_STR(pub[i].stat ? pub[i].stat : "", r->stat ? r->stat : "");
	}
	/* exp, point, experiment, nine of the run's, six statistics of hits and of drops */
	CHECK_INT(same, 3 + 9 + 12);
	CHECK_STR(column_named(pub, nr_pub, "latency_ns_mean")->unit, "ns");
	CHECK_STR(column_named(pub, nr_pub, "avg_mem_bytes_ci95")->unit, "bytes");
	CHECK(!column_named(pub, nr_pub, "half_width_pct"));
	free(run);
	free(pub);
}

static int fill_columns(FILE *f, const void *ctx)
{
	return results_published_columns(f, ctx);
}

static int fill_samples(FILE *f, const void *ctx)
{
	return results_published_samples(f, ctx);
}

static int fill_summary(FILE *f, const void *ctx)
{
	static const char *const params[] = { "'=x", NULL };
	static const double mean[] = { 1000, 10, 86654321.4, 192.1594 };
	static const double stddev[] = { 5, NAN, 27598520, NAN };
	const struct published_row row = {
		.exp = 0, .point = 0, .experiment = "T", .params = params,
		.mean = mean, .stddev = stddev,
	};

	return results_published_summary(f, ctx, &row, 1);
}

TEST(published_columns_read_back)
{
	char top[64] = "/tmp/test_columns.XXXXXX", dir[128], path[160], why[256];
	struct result_set *rec, *old;

	CHECK(mkdtemp(top));
	snprintf(dir, sizeof(dir), "%s/r", top);
	CHECK_INT(resultdir_create(dir), 0);
	CHECK_INT(resultdir_write_file(dir, "columns.csv", false, fill_columns, &pub_layout), 0);
	CHECK_INT(resultdir_write_file(dir, "samples.csv", false, fill_samples, &pub_layout), 0);
	CHECK_INT(resultdir_write_file(dir, "summary.csv", false, fill_summary, &pub_layout), 0);
	CHECK_INT(results_read(dir, &rec, why, sizeof(why)), 0);
	CHECK(rec->cols_recorded);
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "status")], "ok");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "label")], "'=x");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "producers")], "");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "avg_mem_bytes_mean")], "86654321");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "latency_ns_mean")], "192.159");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "latency_ns_stddev")], "");
	CHECK_STR(rec->summary.rows[1][result_summary_col(rec, "hits_per_s_median")], "");
	CHECK_NEAR(result_summary_stat(rec, 1, "hits", "stddev"), 5, 1e-9);
	snprintf(path, sizeof(path), "%s/columns.csv", dir);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(results_read(dir, &old, why, sizeof(why)), 0);
	CHECK(!old->cols_recorded);
	cols_agree(rec, old);
	result_set_free(rec);
	result_set_free(old);
	remove_set(top, dir);
}

/*
 * An exec spec names its parameters: one named as a column of summary.csv
 * (status, n, quality, a metric's statistic, rounds) would be read back as
 * that column, so check refuses it at its [param "NAME"] section.
 */
TEST(params_named_as_columns_refused)
{
	static const char *const reserved[] = { "status", "n", "quality", "hits_per_s_mean",
						"rounds", "point" };
	struct param_def p = { .name = "size", .type = PT_INT, .def = "1", .max = 10 };
	struct spec_section sec = { .name = (char *)"param", .loc = { "x.spec", 7, 1 } };
	struct spec sp = { .path = (char *)"x.spec", .sections = &sec, .nr_sections = 1 };
	struct workload wl = null_workload;
	struct sweep_cfg c = cfg;

	wl.params = &p;
	wl.nr_params = 1;
	c.wl = &wl;
	CHECK_INT(columns_check_params(&c, &sp), 0);
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		p.name = reserved[i];
		sec.arg = (char *)reserved[i];
		capture();
		CHECK_INT(columns_check_params(&c, &sp), -EINVAL);
		CHECK(strstr(diags(), "x.spec:7:1: error: parameter '") == diags());
	}
}

RUN_TESTS(names_round_trip, old_set_read_by_names, written_columns_read_back,
	  stale_columns_ignored, imported_levels_round_trip, published_rates_are_a_runs_counters,
	  published_columns_read_back, params_named_as_columns_refused);
