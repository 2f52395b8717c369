// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c and its users: the arithmetic and its propagated
 * uncertainty, pairing a point with its baseline by parameter tuple, a
 * missing or failed baseline, [report] baseline bound and refused with
 * located errors, and a table row with the derived fields.  The workload
 * is null (workloads/null.c): producers, rate, drop_pct, value_size,
 * mode, flag, fail; metrics hits and drops, both counters.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "baseline.h"
#include "bind.h"
#include "check.h"
#include "csvfile.h"
#include "diag_capture.h"
#include "metric.h"
#include "results.h"
#include "spec.h"
#include "table.h"
#include "table_text.h"
#include "view_of.h"

extern const struct workload null_workload;

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL, NR_P };

static long long one_val[NR_P][1] = { { 1 }, { 1000000 }, { 0 }, { 64 }, { 0 }, { 0 }, { 0 } };
static long long producers[] = { 1, 2 };
static long long rates[] = { 500000, 1000000 };

/*
 * 5e5 ± 5e3 (1%) against 1e6 ± 2e4 (2%):
 *   ratio 0.5, sd 0.5 · sqrt(0.01² + 0.02²) = 0.0111803
 *   1e9/5e5 - 1e9/1e6 = 2000 - 1000 = 1000 ns,
 *   sd sqrt((1e9·5e3/2.5e11)² + (1e9·2e4/1e12)²) = sqrt(20² + 20²) = 28.2843 ns
 */
TEST(arithmetic_and_uncertainty)
{
	struct baseline_delta d;

	baseline_delta(5e5, 5e3, 1e6, 2e4, &d);
	CHECK_NEAR(d.ratio, 0.5, 1e-12);
	CHECK_NEAR(d.ratio_sd, 0.5 * sqrt(0.01 * 0.01 + 0.02 * 0.02), 1e-12);
	CHECK_NEAR(d.ratio_sd, 0.0111803, 1e-7);
	CHECK_NEAR(d.over_ns, 1000, 1e-9);
	CHECK_NEAR(d.over_ns_sd, 28.2842712, 1e-6);

	/* faster than the baseline: negative time over it, ratio above 1 */
	baseline_delta(2e6, 0, 1e6, 0, &d);
	CHECK_NEAR(d.over_ns, -500, 1e-9);
	CHECK_NEAR(d.ratio, 2, 1e-12);
	CHECK_NEAR(d.over_ns_sd, 0, 0);

	/* a mean without its stddev (imported): the figure, not its sd */
	baseline_delta(5e5, NAN, 1e6, 2e4, &d);
	CHECK_NEAR(d.over_ns, 1000, 1e-9);
	CHECK(isnan(d.over_ns_sd) && isnan(d.ratio_sd));

	/* no time per event at a rate of zero, nor against one */
	baseline_delta(0, 0, 1e6, 0, &d);
	CHECK(isnan(d.over_ns) && isnan(d.ratio) && isnan(d.over_ns_sd));
	baseline_delta(1e6, 0, 0, 0, &d);
	CHECK(isnan(d.over_ns) && isnan(d.ratio));
	baseline_delta(NAN, 0, 1e6, 0, &d);
	CHECK(isnan(d.over_ns));
}

/* rate=1000000 is the baseline: only rate may differ, and it must be that value. */
TEST(pairs_by_tuple)
{
	struct baseline_ref ref = { .on = true, .param = P_RATE, .val = 1000000 };
	long long v[NR_P] = { 2, 500000, 0, 64, 0, 0, 0 };
	long long bv[NR_P] = { 2, 1000000, 0, 64, 0, 0, 0 };

	CHECK(baseline_pairs(&ref, NR_P, v, bv));
	CHECK(baseline_pairs(&ref, NR_P, bv, bv));	/* the baseline is its own */
	CHECK(!baseline_pairs(&ref, NR_P, bv, v));	/* rate=500000 is no baseline */
	bv[P_PRODUCERS] = 1;
	CHECK(!baseline_pairs(&ref, NR_P, v, bv));	/* another producers count */
	bv[P_PRODUCERS] = 2;
	bv[P_FAIL] = 1;
	CHECK(!baseline_pairs(&ref, NR_P, v, bv));	/* the last parameter counts too */
	ref.on = false;
	bv[P_FAIL] = 0;
	CHECK(!baseline_pairs(&ref, NR_P, v, bv));
}

static void make_exp(struct experiment *e, const char *label)
{
	*e = (struct experiment){ .title = "t", .label = (char *)label, .group = -1 };
	for (int p = 0; p < NR_P; p++)
		e->axes[e->nr_axes++] = (struct axis){ .param = p, .vals = one_val[p], .nr_vals = 1 };
	e->axes[P_PRODUCERS].vals = producers;
	e->axes[P_PRODUCERS].nr_vals = 2;
	e->axes[P_RATE].vals = rates;
	e->axes[P_RATE].nr_vals = 2;
	e->baseline = (struct baseline_ref){ .on = true, .param = P_RATE, .val = 1000000 };
}

static void make_point(struct point *pt, int id, int exp, int nr_prod, long long rate)
{
	*pt = (struct point){ .id = id, .exp = exp, .wp.wl = &null_workload };
	for (int p = 0; p < NR_P; p++)
		pt->wp.v[p] = one_val[p][0];
	pt->wp.v[P_PRODUCERS] = nr_prod;
	pt->wp.v[P_RATE] = rate;
}

static void make_ok(struct point_result *r, const struct point *pt, double mean, double sd)
{
	*r = (struct point_result){ .pt = pt, .status = PS_OK };
	r->stat[0] = (struct summary){ .mean = mean, .stddev = sd, .n = 10 };
	r->stat[1] = (struct summary){ .mean = mean / 10, .stddev = sd / 10, .n = 10 };
}

/* Points: producers 1 and 2 × rate 500000 and 1000000, in spec order. */
static void make_set(struct point pts[4], struct point_result res[4])
{
	for (int i = 0; i < 4; i++)
		make_point(&pts[i], i, 0, producers[i / 2], rates[i % 2]);
	make_ok(&res[0], &pts[0], 5e5, 5e3);
	make_ok(&res[1], &pts[1], 1e6, 2e4);
	make_ok(&res[2], &pts[2], 4e5, 0);
	make_ok(&res[3], &pts[3], 8e5, 0);
}

/* Each producers count pairs with its own rate=1000000 point; failed or missing: none. */
TEST(find_in_set)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];
	struct baseline_delta d;
	struct view_of vo = { 0 };
	struct view_row *r;

	make_exp(&e, NULL);
	make_set(pts, res);
	CHECK_INT(view_of(&cfg, res, 4, &vo), 0);
	r = vo.v->rows;
	CHECK(baseline_find_row(vo.v, &r[0], vo.rows, 4) == &r[1]);
	CHECK(baseline_find_row(vo.v, &r[1], vo.rows, 4) == &r[1]);
	CHECK(baseline_find_row(vo.v, &r[2], vo.rows, 4) == &r[3]);
	CHECK(baseline_find_row(vo.v, &r[3], vo.rows, 4) == &r[3]);

	/* the baseline against itself: exactly 1 and 0 ns, no spread */
	baseline_of_row(&r[1], &r[1], 0, &d);
	CHECK_NEAR(d.ratio, 1, 0);
	CHECK_NEAR(d.ratio_sd, 0, 0);
	CHECK_NEAR(d.over_ns_sd, 0, 0);
	/* the second metric pairs the same way: 5e4 against 1e5 */
	baseline_of_row(&r[0], &r[1], 1, &d);
	CHECK_NEAR(d.over_ns, 1e9 / 5e4 - 1e9 / 1e5, 1e-6);

	/* a failed baseline is none */
	r[3].status = PS_FAILED;
	CHECK(baseline_find_row(vo.v, &r[2], vo.rows, 4) == NULL);
	baseline_of_row(&r[2], NULL, 0, &d);
	CHECK(isnan(d.ratio) && isnan(d.over_ns));
	/* a missing one too: the set ends before it */
	CHECK(baseline_find_row(vo.v, &r[0], vo.rows, 1) == NULL);
	/* another experiment's point is never the baseline */
	r[1].exp = 1;
	CHECK(baseline_find_row(vo.v, &r[0], vo.rows, 4) == NULL);
	r[1].exp = 0;
	/* no baseline asked for */
	vo.v->exps[0].baseline.on = false;
	CHECK(baseline_find_row(vo.v, &r[0], vo.rows, 4) == NULL);
	view_of_free(&vo);
}

/* The derived fields in table rows; n/a where the baseline failed. */
TEST(table_row)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "rate {rate} prod {producers}");
	e.values = "{hits} over base {hits.over_base_ns} ({hits.vs_base})";
	make_set(pts, res);
	res[3] = (struct point_result){ .pt = &pts[3], .status = PS_FAILED };
	snprintf(res[3].reason, sizeof(res[3].reason), "setup: boom");
	CHECK_TEXT(table_text(&cfg, NULL, res, 4),
		   "t\n"
		   "=\n"
		   "rate 500000 prod 1   0.500 ± 0.005M/s over base +1000.0 ± 28.3ns "
		   "(0.500 ± 0.011x)\n"
		   "rate 1000000 prod 1  1.000 ± 0.020M/s over base +0.0 ± 0.0ns "
		   "(1.000 ± 0.000x)\n"
		   "rate 500000 prod 2   0.400 ± 0.000M/s over base n/a (n/a)\n"
		   "rate 1000000 prod 2  failed: setup: boom\n");
}

/* Field of row r in column name, or NULL. */
static const char *cell(const struct csv_table *t, int r, const char *name)
{
	int c = csv_column(t, name);

	return c < 0 || r >= t->nr_rows ? NULL : t->rows[r][c];
}

/*
 * The set appended in point order, then the baseline cells filled in
 * summary.csv from the set's view, as a run's end does.
 */
static int write_set(const char *dir, const struct sweep_cfg *cfg,
		     const struct point_result *res, int nr)
{
	struct view_of vo = { 0 };
	struct results *rs;
	int err = results_create(dir, cfg, &rs);

	for (int i = 0; !err && i < nr; i++)
		err = results_append(rs, &res[i]);
	results_close(rs);
	err = err ?: view_of(cfg, res, nr, &vo) ?: results_fill_baseline(dir, cfg, vo.v);
	view_of_free(&vo);
	return err;
}

static void remove_dir(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * summary.csv's baseline columns, after the counters' statistics: the
 * baseline (point 1) comes after point 0, yet point 0's cells are filled;
 * a failed baseline (point 3) leaves point 2's empty.
 */
TEST(summary_columns)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];
	struct csv_table t;
	char dir[] = "/tmp/test_baseline.XXXXXX";
	int err;

	make_exp(&e, NULL);
	make_set(pts, res);
	res[3] = (struct point_result){ .pt = &pts[3], .status = PS_FAILED };
	CHECK(mkdtemp(dir) != NULL);
	err = write_set(dir, &cfg, res, 4);
	if (!err) {
		char path[128];

		snprintf(path, sizeof(path), "%s/summary.csv", dir);
		err = csv_read_file(path, &t);
	}
	remove_dir(dir);
	CHECK_INT(err, 0);
	CHECK_INT(t.nr_rows, 5);
	CHECK_STR(t.rows[0][t.nr_cols - 8], "hits_over_base_ns_mean");
	CHECK_STR(t.rows[0][t.nr_cols - 1], "drops_vs_base_sd");
	CHECK_STR(t.rows[0][t.nr_cols - 9], "drops_per_s_unit_sd");
	CHECK_STR(cell(&t, 1, "hits_over_base_ns_mean"), "1000.000");
	CHECK_STR(cell(&t, 1, "hits_over_base_ns_sd"), "28.284");
	CHECK_STR(cell(&t, 1, "hits_vs_base_mean"), "0.500000");
	CHECK_STR(cell(&t, 1, "hits_vs_base_sd"), "0.011180");
	/* drops of 5e4 against 1e5: 1e9/5e4 - 1e9/1e5 */
	CHECK_STR(cell(&t, 1, "drops_over_base_ns_mean"), "10000.000");
	CHECK_STR(cell(&t, 2, "hits_over_base_ns_mean"), "0.000");
	CHECK_STR(cell(&t, 2, "hits_vs_base_sd"), "0.000000");
	CHECK_STR(cell(&t, 3, "hits_over_base_ns_mean"), "");
	CHECK_STR(cell(&t, 3, "hits_vs_base_mean"), "");
	CHECK_STR(cell(&t, 4, "hits_vs_base_mean"), "");
	csv_table_free(&t);
}

/* Without a baseline the header ends as it always did, and filling changes nothing. */
TEST(no_baseline_no_columns)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];
	struct csv_table t;
	char dir[] = "/tmp/test_baseline.XXXXXX";
	int err;

	make_exp(&e, NULL);
	e.baseline.on = false;
	make_set(pts, res);
	CHECK(mkdtemp(dir) != NULL);
	err = write_set(dir, &cfg, res, 4);
	if (!err) {
		char path[128];

		snprintf(path, sizeof(path), "%s/summary.csv", dir);
		err = csv_read_file(path, &t);
	}
	remove_dir(dir);
	CHECK_INT(err, 0);
	CHECK_STR(t.rows[0][t.nr_cols - 1], "drops_per_s_unit_sd");
	CHECK(csv_column(&t, "hits_over_base_ns_mean") < 0);
	csv_table_free(&t);
}

/* The diagnostics of binding text as b.spec, "(bound)" if it bound. */
static const char *bind_errors(const char *text)
{
	struct sweep_cfg *cfg = NULL;
	struct spec *s;

	capture();
	if (spec_parse_string("b.spec", text, &s))
		return diags();
	bind_spec(s, &workloads_catalog, &cfg);
	spec_free(s);
	if (cfg) {
		sweep_cfg_free(cfg);
		return "(bound)";
	}
	return diags();
}

TEST(bind_and_override)
{
	struct sweep_cfg *cfg = NULL;
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("b.spec", "[sweep]\nworkload = null\n[report]\n"
				    "baseline = rate=1000000\n"
				    "[params \"A\"]\nrate = 500000 1000000\n"
				    "[params \"B\"]\nbaseline = producers=2\nproducers = 1 2\n"
				    "[params \"C\"]\nbaseline =\n", &s), 0);
	CHECK_INT(bind_spec(s, &workloads_catalog, &cfg), 0);
	spec_free(s);
	CHECK_STR(diags(), "");
	CHECK(cfg->exps[0].baseline.on);
	CHECK_INT(cfg->exps[0].baseline.param, P_RATE);
	CHECK_INT(cfg->exps[0].baseline.val, 1000000);
	CHECK(cfg->exps[1].baseline.on);
	CHECK_INT(cfg->exps[1].baseline.param, P_PRODUCERS);
	CHECK_INT(cfg->exps[1].baseline.val, 2);
	CHECK(!cfg->exps[2].baseline.on);
	sweep_cfg_free(cfg);
}

TEST(bind_errors_located)
{
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[report]\n"
			      "baseline = rat=1000000\n"
			      "values = {hits.over_base_ns}\n"
			      "[params]\nrate = 500000 1000000\n"
			      "[params \"B\"]\nbaseline = rate=7\nrate = 500000 1000000\n"
			      "[params \"C\"]\nbaseline = rate\n"
			      "[params \"D\"]\nbaseline = rate=fast\n"
			      "[params \"E\"]\nbaseline = producers=1\nproducers = 1 2\n"
			      "values = {hits.vs_base:k/s} {hits.over_base_ns:M/s}\n"
			      "[params \"F\"]\nbaseline =\n"
			      "[params \"G\"]\nbaseline = rate=1\nrate = 1 2\ndrop_pct = {rate}\n"
			      "[params \"H\"]\nbaseline = drop_pct=1\nrate = 1\ndrop_pct = {rate}\n"),
		  "b.spec:4:12: error: unknown parameter 'rat' for workload 'null' "
		  "(did you mean 'rate'?)\n"
		  "b.spec:9:17: error: baseline rate=7 is not a point of experiment 'B': 'rate' "
		  "takes other values there\n"
		  "b.spec:12:12: error: expected 'baseline = PARAM=VALUE', as in overwrite=off\n"
		  "b.spec:14:17: error: baseline value of 'rate': invalid integer 'fast'\n"
		  "b.spec:18:24: error: statistic 'vs_base' takes no unit\n"
		  "b.spec:18:48: error: statistic 'over_base_ns' takes no unit\n"
		  "b.spec:5:11: error: this field is relative to a baseline, and experiment 'F' "
		  "has none: add 'baseline = PARAM=VALUE' to [report]\n"
		  "b.spec:22:17: error: 'drop_pct' follows baseline parameter 'rate' in "
		  "experiment 'G': a point and its baseline would differ in both\n"
		  "b.spec:26:21: error: baseline parameter 'drop_pct' follows 'rate' in "
		  "experiment 'H': a baseline needs an axis of its own\n");
}

RUN_TESTS(arithmetic_and_uncertainty, pairs_by_tuple, find_in_set, table_row, summary_columns,
	  no_baseline_no_columns, bind_and_override, bind_errors_located)
