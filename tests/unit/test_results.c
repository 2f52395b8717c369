// SPDX-License-Identifier: GPL-2.0
/* results.c: the CSV files of a result directory, read back with csv.c. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "csvfile.h"
#include "diag_capture.h"
#include "heldir.h"
#include "resultcsv.h"
#include "resultdir.h"
#include "results.h"
#include "results_read.h"

extern const struct workload null_workload;

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL };

static struct experiment exp0 = { .title = "Null, \"quoted\", title", .group = -1 };
static struct sweep_cfg cfg = { .wl = &null_workload, .exps = &exp0, .nr_exps = 1 };

/* A point of the null workload with its defaults and producers = p. */
static void make_point(struct point *pt, int id, int producers)
{
	*pt = (struct point){ .id = id, .exp = 0, .wp.wl = &null_workload };
	pt->wp.v[P_PRODUCERS] = producers;
	pt->wp.v[P_RATE] = 1000000;
	pt->wp.v[P_VALUE_SIZE] = 4096;
	pt->wp.v[P_MODE] = 1;
	pt->wp.v[P_FLAG] = 1;
}

static void make_ok(struct point_result *r, const struct point *pt, struct interval *iv)
{
	*r = (struct point_result){ .pt = pt, .status = PS_OK, .iv = iv, .nr_iv = 3,
				    .nr_producers = 2, .nr_cpus = 8 };
	r->cpus = (char *)"prod 0,1";
	iv[0] = (struct interval){ .rep = 0, .idx = 0, .warmup = true, .elapsed_ns = 1000000000,
				    .value = { 900000, 9 } };
	iv[1] = (struct interval){ .rep = 0, .idx = 1, .warmup = false, .elapsed_ns = 1000000000,
				    .value = { 14970123, 0 } };
	iv[2] = (struct interval){ .rep = 0, .idx = 2, .warmup = false, .elapsed_ns = 999999000,
				    .value = { 14970124, 1 } };
	r->stat[0] = (struct summary){ 14970123.4, 0.5, 14970123.4, 14970123, 14970124, 4.5, 2 };
	r->unit[0] = (struct units){ .kind = UK_BATCH, .n = 2, .batch = 1, .sd = 0.5 };
}

static int make_tmpdir(char *dir)
{
	strcpy(dir, "/tmp/test_results.XXXXXX");
	return mkdtemp(dir) ? 0 : -errno;
}

static void remove_tree(const char *dir, const char *sub)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/samples.csv", dir, sub);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s/summary.csv", dir, sub);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", dir);
	rmdir(path);
	rmdir(dir);
}

/* Field of row r in column name, or NULL. */
static const char *cell(const struct csv_table *t, int r, const char *name)
{
	int c = csv_column(t, name);

	return c < 0 || r >= t->nr_rows ? NULL : t->rows[r][c];
}

static int write_two_points(const char *sub_dir)
{
	struct interval iv[3];
	struct point_result res[2];
	struct results *rs;
	struct point pts[2];
	int err;

	make_point(&pts[0], 0, 1);
	make_point(&pts[1], 1, 2);
	make_ok(&res[0], &pts[0], iv);
	res[1] = (struct point_result){ .pt = &pts[1], .status = PS_UNSUPPORTED };
	snprintf(res[1].reason, sizeof(res[1].reason), "null: unsupported, on request");
	res[1].cpus = (char *)"unpinned";
	err = resultdir_create(sub_dir);
	if (!err)
		err = results_create(sub_dir, &cfg, &rs);
	if (err)
		return err;
	err = results_append(rs, &res[0]);
	if (!err)
		err = results_append(rs, &res[1]);
	results_close(rs);
	return err;
}

static void check_samples(const char *dir)
{
	static const char *const head[] = { "point", "experiment", "rep", "interval", "warmup",
					    "elapsed_ns", "hits", "drops" };
	char path[512];
	struct csv_table t;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	CHECK_INT(csv_read_file(path, &t), 0);
	CHECK_INT(t.nr_cols, 8);
	CHECK_INT(t.nr_rows, 4);
	for (int c = 0; c < 8; c++)
		CHECK_STR(t.rows[0][c], head[c]);
	CHECK_STR(t.rows[1][1], exp0.title);
	CHECK_STR(cell(&t, 1, "warmup"), "1");
	CHECK_STR(cell(&t, 2, "warmup"), "0");
	CHECK_STR(cell(&t, 3, "interval"), "2");
	CHECK_STR(cell(&t, 3, "elapsed_ns"), "999999000");
	CHECK_STR(cell(&t, 3, "hits"), "14970124");
	CHECK_STR(cell(&t, 3, "drops"), "1");
	csv_table_free(&t);
}

static void check_summary_header(const struct csv_table *t)
{
	static const char *const head[] = {
		"exp", "point", "experiment", "producers", "rate", "drop_pct", "value_size", "mode",
		"flag", "fail", "zero_every", "jitter_pct", "status", "reason", "nr_producers",
		"nr_consumers", "nr_cpus", "cpus", "n", "tries", "quality", "unit_kind", "stop",
		"half_width_pct", "hits_per_s_mean", "hits_per_s_stddev", "hits_per_s_median",
		"hits_per_s_min",
		"hits_per_s_max", "hits_per_s_ci95", "hits_per_s_units", "hits_per_s_unit_sd",
		"drops_per_s_mean",
	};

	CHECK_INT(t->nr_cols, 24 + 16);
	for (size_t c = 0; c < sizeof(head) / sizeof(head[0]); c++)
		CHECK_STR(t->rows[0][c], head[c]);
	CHECK_STR(t->rows[0][37], "drops_per_s_ci95");
	CHECK_STR(t->rows[0][39], "drops_per_s_unit_sd");
}

static void check_summary(const char *dir)
{
	char path[512];
	struct csv_table t;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CHECK_INT(csv_read_file(path, &t), 0);
	CHECK_INT(t.nr_rows, 3);
	check_summary_header(&t);
	if (check_cur.failed)
		goto free_table;
	CHECK_STR(cell(&t, 1, "exp"), "0");
	CHECK_STR(t.rows[1][0], "0");		/* exp first, for cut -d, */
	CHECK_STR(cell(&t, 1, "value_size"), "4096");
	CHECK_STR(cell(&t, 1, "mode"), "slow");
	CHECK_STR(cell(&t, 1, "flag"), "on");
	CHECK_STR(cell(&t, 1, "status"), "ok");
	CHECK_STR(cell(&t, 1, "n"), "2");
	CHECK_STR(cell(&t, 1, "nr_producers"), "2");
	CHECK_STR(cell(&t, 1, "cpus"), "prod 0,1");
	CHECK_STR(cell(&t, 1, "hits_per_s_mean"), "14970123.400");
	CHECK_STR(cell(&t, 1, "hits_per_s_ci95"), "4.500");
	CHECK_STR(cell(&t, 1, "unit_kind"), "batch");
	CHECK_STR(cell(&t, 1, "hits_per_s_units"), "2");
	CHECK_STR(cell(&t, 1, "hits_per_s_unit_sd"), "0.500");
	CHECK_STR(cell(&t, 1, "drops_per_s_units"), "");	/* none summarized */
	CHECK_STR(cell(&t, 1, "drops_per_s_mean"), "0.000");
	CHECK_STR(cell(&t, 2, "producers"), "2");
	CHECK_STR(cell(&t, 2, "status"), "unsupported");
	CHECK_STR(cell(&t, 2, "reason"), "null: unsupported, on request");
	CHECK_STR(cell(&t, 2, "n"), "0");
	CHECK_STR(cell(&t, 2, "hits_per_s_mean"), "");
	CHECK_STR(cell(&t, 2, "drops_per_s_ci95"), "");
	CHECK_STR(cell(&t, 2, "unit_kind"), "");
	CHECK_STR(cell(&t, 2, "hits_per_s_units"), "");
free_table:
	csv_table_free(&t);
}

/* samples.csv parses and holds nr data rows. */
static void check_samples_rows(const char *dir, int nr)
{
	char path[512];
	struct csv_table t;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	CHECK_INT(csv_read_file(path, &t), 0);
	CHECK_INT(t.nr_rows, nr + 1);
	csv_table_free(&t);
}

TEST(write_and_read_back)
{
	char dir[64], sub[128];

	CHECK_INT(make_tmpdir(dir), 0);
	/* parents that do not exist yet */
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	CHECK_INT(write_two_points(sub), 0);
	check_samples(sub);
	if (!check_cur.failed)
		check_summary(sub);
	remove_tree(dir, "a/b");
}

TEST(never_overwrites)
{
	char dir[64], sub[128];
	struct results *rs = NULL;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	CHECK_INT(write_two_points(sub), 0);
	CHECK_INT(resultdir_create(sub), -EEXIST);
	CHECK_INT(results_create(sub, &cfg, &rs), -EEXIST);
	CHECK(!rs);
	remove_tree(dir, "a/b");
}

/* "/" and an existing directory with a trailing slash or "." exist: refused, nothing made */
TEST(existing_directories_refused)
{
	char dir[64], sub[128];

	CHECK_INT(resultdir_create("/"), -EEXIST);
	CHECK_INT(resultdir_create("//"), -EEXIST);
	CHECK_INT(make_tmpdir(dir), 0);
	CHECK_INT(resultdir_create(dir), -EEXIST);
	snprintf(sub, sizeof(sub), "%s/", dir);
	CHECK_INT(resultdir_create(sub), -EEXIST);
	snprintf(sub, sizeof(sub), "%s/.", dir);
	CHECK_INT(resultdir_create(sub), -EEXIST);
	CHECK_INT(resultdir_create(""), -ENOENT);
	rmdir(dir);
}

TEST(parent_is_a_file)
{
	char dir[64], sub[128];
	FILE *f;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	f = fopen(sub, "w");
	CHECK(f);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	CHECK_INT(resultdir_create(sub), -ENOTDIR);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	unlink(sub);
	rmdir(dir);
}

static off_t file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : st.st_size;
}

/*
 * A write that fails part way (here a file size limit: EFBIG) takes the
 * whole point back out of both files: no torn row, no summary row.
 */
TEST(failed_append_leaves_no_partial_point)
{
	struct rlimit old, lim;
	struct point_result r;
	struct interval iv[3];
	struct results *rs;
	struct point pt;
	char dir[64], sub[128];
	off_t samples, summary;
	int err;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK_INT(resultdir_create(sub), 0);
	CHECK_INT(results_create(sub, &cfg, &rs), 0);
	make_point(&pt, 0, 1);
	make_ok(&r, &pt, iv);
	CHECK_INT(results_append(rs, &r), 0);
	samples = file_size(sub, "samples.csv");
	summary = file_size(sub, "summary.csv");
	/* room for one more samples row of the three */
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = samples + 60;
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	err = results_append(rs, &r);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_INT(err, -EFBIG);
	CHECK_INT(results_rollback_error(rs), 0);
	CHECK_INT(file_size(sub, "samples.csv"), samples);
	CHECK_INT(file_size(sub, "summary.csv"), summary);
	/* and the next point goes on from there */
	CHECK_INT(results_append(rs, &r), 0);
	results_close(rs);
	check_samples_rows(sub, 6);
	remove_tree(dir, "a");
}

/* The reader ties samples to points by id and leaves an unfinished last line out. */
TEST(result_set_read_back)
{
	struct result_set *set;
	char dir[64], sub[128], path[256], why[256];
	int fd;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK_INT(write_two_points(sub), 0);
	/* an orphan row (no summary row for point 7) and a torn tail */
	snprintf(path, sizeof(path), "%s/samples.csv", sub);
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, "7,x,0,0,1,5,5,5\n0,x,0,", 22), 22);
	close(fd);
	CHECK_INT(results_read(sub, &set, why, sizeof(why)), 0);
	CHECK(!set->spec);
	CHECK_INT(set->nr_points, 2);
	CHECK_INT(set->samples_torn, 6);
	CHECK_INT(set->nr_params, 9);
	CHECK_INT(set->nr_metrics, 2);
	CHECK_INT(set->points[0].id, 0);
	CHECK_STR(set->points[0].status, "ok");
	CHECK_INT(set->points[0].n, 2);
	CHECK_INT(set->points[0].nr_samples, 3);
	CHECK_STR(set->points[1].status, "unsupported");
	CHECK_INT(set->points[1].nr_samples, 0);
	CHECK_STR(set->summary.rows[0][set->first_param], "producers");
	result_set_free(set);
	remove_tree(dir, "a");
}

/* A set written before the exp column (point first) reads by name all the same. */
TEST(result_set_without_exp_column)
{
	static const char summary[] = "point,experiment,producers,status,n\n"
				      "3,\"T, quoted\",4,ok,\n";
	struct result_set *set;
	char dir[64], sub[128], path[256], why[256];
	int fd;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK_INT(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", sub);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, summary, strlen(summary)), (int)strlen(summary));
	close(fd);
	CHECK_INT(results_read(sub, &set, why, sizeof(why)), 0);
	CHECK_INT(set->nr_points, 1);
	CHECK_INT(set->points[0].id, 3);
	CHECK_STR(set->points[0].experiment, "T, quoted");
	CHECK_INT(set->points[0].n, -1);
	CHECK_INT(set->nr_params, 1);
	CHECK_STR(set->summary.rows[0][set->first_param], "producers");
	result_set_free(set);
	remove_tree(dir, "a");
}

/*
 * Stalled: the headline (hits) and every other counter of the workload's
 * (drops) counted nothing in the measured intervals; the warmup's counts
 * do not save it.  Drops alone keep it ok: rb-prod's full ring, a true 0.
 */
TEST(counted_nothing_is_stalled)
{
	struct point pt;
	struct point_result r;
	struct interval iv[3];

	make_point(&pt, 0, 2);
	make_ok(&r, &pt, iv);
	iv[1].value[0] = iv[2].value[0] = 0;
	iv[1].value[1] = iv[2].value[1] = 0;
	CHECK_INT(point_result_assess(&r, 10), 0);
	CHECK(point_result_counted_nothing(&r));
	iv[2].value[1] = 5;
	CHECK_INT(point_result_assess(&r, 10), 0);
	CHECK(!point_result_counted_nothing(&r));
	/* hits in one interval: ok, flagged zero */
	iv[2].value[1] = 0;
	iv[2].value[0] = 7;
	CHECK_INT(point_result_assess(&r, 10), 0);
	CHECK(!point_result_counted_nothing(&r));
	CHECK(r.quality.flags & QF_ZERO);
}

/* A rate and a deterministic load figure (WL_LOAD_METRICS's total_insns). */
static const struct metric_def det_metrics[] = {
	{ .name = "hits", .kind = MK_COUNTER, .unit = "M/s", .better = MB_HIGHER },
	WL_LOAD_METRIC("total_insns", "insns", LF_TOTAL_INSNS, true),
};
static const struct workload det_wl = { .name = "det", .metrics = det_metrics, .nr_metrics = 2 };

/*
 * A deterministic metric has no interval, and its repetitions disagreeing
 * is flagged "varied": they did not load the same programs.
 */
TEST(deterministic_varied_is_flagged)
{
	struct point pt = { .wp.wl = &det_wl };
	struct point_result r = { .pt = &pt, .status = PS_OK, .nr_iv = 4 };
	struct interval iv[4];

	for (int i = 0; i < 4; i++)
		iv[i] = (struct interval){ .rep = i / 2, .idx = i % 2, .elapsed_ns = 1000000000,
					   .value = { 1000 + i, 73 } };
	r.iv = iv;
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(point_result_assess(&r, 0), 0);
	CHECK_NEAR(r.stat[1].mean, 73, 0);
	CHECK(isnan(r.stat[1].ci95));
	CHECK(!isnan(r.stat[0].ci95));
	CHECK(!(r.quality.flags & QF_VARIED));
	/* the second repetition verified one instruction more */
	iv[2].value[1] = iv[3].value[1] = 74;
	CHECK_INT(point_result_summarize(&r), 0);
	CHECK_INT(point_result_assess(&r, 0), 0);
	CHECK(r.quality.flags & QF_VARIED);
	free(r.thread_rate);
}

/* dir/name with text, created new. */
static int put_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (int)strlen(text) ? 0 : -EIO;
}

/*
 * A set of one point whose samples row (line 3) and summary row (line 2)
 * hold the cells given: results_read()'s status and why.
 */
static int read_tampered(const char *sample_row, const char *summary_row, char *why,
			 size_t whylen)
{
	char dir[64], sub[128], samples[256], summary[256];
	struct result_set *set = NULL;
	int err;

	snprintf(samples, sizeof(samples), "point,experiment,rep,interval,warmup,elapsed_ns,hits\n"
		 "0,t,0,0,1,1000,5\n%s\n", sample_row);
	snprintf(summary, sizeof(summary), "exp,point,experiment,status,n,tries,hits_per_s_mean\n"
		 "%s\n", summary_row);
	if (make_tmpdir(dir))
		return -EIO;
	snprintf(sub, sizeof(sub), "%s/a", dir);
	err = mkdir(sub, 0755) ?: put_file(sub, "samples.csv", samples) ?:
	      put_file(sub, "summary.csv", summary);
	if (!err)
		err = results_read(sub, &set, why, whylen);
	result_set_free(set);
	remove_tree(dir, "a");
	return err;
}

/* Ends in where, the file:line:col of the cell refused? */
static bool refused_at(const char *why, const char *where)
{
	const char *at = strstr(why, where);

	return at && at > why && at[-1] == '/';
}

/*
 * Tampered cells are refused with file:line:col, never read as another
 * number: a negative count (was 2^64 - 5 events), 2^63 (past int64), a
 * warmup of 2, an n that is no whole number, an n its samples do not hold.
 */
TEST(tampered_cells_refused)
{
	static const struct {
		const char *sample_row, *summary_row, *where;
	} cases[] = {
		{ .sample_row = "0,t,0,1,0,1000,-5", .summary_row = "0,0,t,ok,1,1,7.0",
		  .where = "samples.csv:3:7: error: hits is '-5'" },
		{ .sample_row = "0,t,0,1,0,1000,9223372036854775808",
		  .summary_row = "0,0,t,ok,1,1,7.0", .where = "samples.csv:3:7: " },
		{ .sample_row = "0,t,0,1,2,1000,7", .summary_row = "0,0,t,ok,1,1,7.0",
		  .where = "samples.csv:3:5: error: warmup is '2', not 0 or 1" },
		{ .sample_row = "0,t,0,1,0,-1000,7", .summary_row = "0,0,t,ok,1,1,7.0",
		  .where = "samples.csv:3:6: " },
		{ .sample_row = "0,t,0,1,0,1000,7", .summary_row = "0,0,t,ok,1.5,1,7.0",
		  .where = "summary.csv:2:5: error: n is '1.5'" },
		{ .sample_row = "0,t,0,1,0,1000,7", .summary_row = "0,0,t,ok,1,x,7.0",
		  .where = "summary.csv:2:6: error: tries is 'x'" },
		{ .sample_row = "0,t,0,1,0,1000,7", .summary_row = "0,0,t,ok,1,1,nan",
		  .where = "summary.csv:2:7: " },
		{ .sample_row = "0,t,0,1,0,1000,7", .summary_row = "0,0,t,ok,3,1,7.0",
		  .where = "summary.csv:2:5: error: n is 3, but samples.csv holds 1 measured" },
	};
	char why[512];

	CHECK_INT(read_tampered("0,t,0,1,0,1000,7", "0,0,t,ok,1,1,7000000.000", why,
				sizeof(why)), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(read_tampered(cases[i].sample_row, cases[i].summary_row, why,
					sizeof(why)), -EINVAL);
		CHECK(refused_at(why, cases[i].where));
	}
}

/*
 * A set of these files (samples NULL: none) refused by results_read() with
 * why ending in where?
 */
static bool refused_with(const char *samples, const char *summary, const char *where)
{
	char dir[64], sub[128], why[512];
	struct result_set *set = NULL;
	bool refused;

	if (make_tmpdir(dir))
		return false;
	snprintf(sub, sizeof(sub), "%s/a", dir);
	refused = !mkdir(sub, 0755) && (!samples || !put_file(sub, "samples.csv", samples)) &&
		  !put_file(sub, "summary.csv", summary) &&
		  results_read(sub, &set, why, sizeof(why)) == -EINVAL && !set &&
		  refused_at(why, where);
	result_set_free(set);
	remove_tree(dir, "a");
	return refused;
}

/* A summary metric samples.csv has no column of (a renamed column) is refused. */
TEST(renamed_metric_refused)
{
	CHECK(refused_with("point,experiment,rep,interval,warmup,elapsed_ns,hits\n"
			   "0,t,0,0,0,1000,7\n",
			   "exp,point,experiment,status,n,hitz_per_s_mean\n0,0,t,ok,1,7.0\n",
			   "summary.csv:1:6: error: hitz_per_s_mean is of metric 'hitz'"));
}

/*
 * A whole row, header or the CSV itself wrong: refused at its line and
 * column as a cell is, "DIR/FILE:LINE:COL: error: ..." (was "FILE line N: ...").
 */
TEST(malformed_rows_located)
{
	static const struct {
		const char *sample_row, *where;
	} cases[] = {
		{ .sample_row = "0,t,0,1,0,1000,7,9",
		  .where = "samples.csv:3:1: error: a row of 8 fields, not as many as the header's" },
		{ .sample_row = "0,t,0,1,0,1000,\"7\"x",
		  .where = "samples.csv:3:1: error: not valid CSV" },
	};
	char why[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(read_tampered(cases[i].sample_row, "0,0,t,ok,1,1,7.0", why,
					sizeof(why)), -EINVAL);
		CHECK(refused_at(why, cases[i].where));
	}
	/* a summary header without its point column: line 1, column 1 */
	CHECK(refused_with(NULL, "exp,pont,experiment,status,n\n0,0,t,ok,1\n",
			   "summary.csv:1:1: error: the header lacks the point"));
}

/*
 * A quality cell bpfsweep never writes is refused by the reader, so compare
 * (whose noise veto reads these flags) refuses it as report does.
 */
TEST(unknown_quality_refused)
{
	CHECK(refused_with(NULL, "exp,point,experiment,status,n,quality\n0,0,t,ok,1,bogus\n",
			   "summary.csv:2:6: error: quality is 'bogus', not quality flags"));
	CHECK(!refused_with(NULL, "exp,point,experiment,status,n,quality\n0,0,t,ok,1,cv=3%\n",
			    "summary.csv:2:6"));
}

/*
 * Numbers and words a run never writes, refused where they are rather than
 * read as something: an interval of no length (was a rate of 0, or of
 * 0.001M/s per producer) and a status bpfsweep has no meaning for (was
 * "failed" to report and "not compared: new pwned" to compare).
 */
TEST(zero_length_and_unknown_status_refused)
{
	char why[512];

	CHECK_INT(read_tampered("0,t,0,1,0,0,7", "0,0,t,ok,1,1,7.0", why, sizeof(why)),
		  -EINVAL);
	CHECK(refused_at(why, "samples.csv:3:6: error: elapsed_ns is '0', not a whole number "
			 "from 1 to"));
	CHECK_INT(read_tampered("0,t,0,1,0,1000,7", "0,0,t,pwned,1,1,7.0", why, sizeof(why)),
		  -EINVAL);
	CHECK(refused_at(why, "summary.csv:2:4: error: status is 'pwned', not ok, unsupported, "
			 "failed, interrupted or stalled"));
	for (int st = PS_OK; st < NR_POINT_STATUS; st++) {
		char row[64];

		snprintf(row, sizeof(row), "0,0,t,%s,1,1,7.0", point_status_name(st));
		CHECK_INT(read_tampered("0,t,0,1,0,1000,7", row, why, sizeof(why)), 0);
	}
}

/* A summary.csv without even its header is no set: said so (was "no summary.csv", "0 parameters"). */
TEST(empty_summary_refused)
{
	CHECK(refused_with(NULL, "", "summary.csv:1:1: error: summary.csv is empty: not even its "
			   "header line"));
	CHECK(refused_with("", "exp,point,experiment,status,n\n", "samples.csv:1:1: error: "
			   "samples.csv is empty"));
}

/*
 * An empty programs.csv (a kill before its header line), read as resume
 * and merge read it: no rows with RESULTS_CSV_EMPTY_OK, refused without;
 * one that is not there is none either way.
 */
TEST(empty_file_is_no_rows_when_allowed)
{
	struct csv_table t = { 0 };
	char dir[64], path[128], why[512] = "";
	bool exists = true;
	size_t torn = 1;
	int fd;

	CHECK_INT(make_tmpdir(dir), 0);
	CHECK_INT(results_csv_read(dir, "programs.csv", RESULTS_CSV_EMPTY_OK, &t, &exists, &torn,
				   why, sizeof(why)), 0);
	CHECK(!exists);
	snprintf(path, sizeof(path), "%s/programs.csv", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(results_csv_read(dir, "programs.csv", RESULTS_CSV_EMPTY_OK, &t, &exists, &torn,
				   why, sizeof(why)), 0);
	CHECK(exists);
	CHECK_INT(t.nr_rows, 0);
	CHECK_INT((int)torn, 0);
	csv_table_free(&t);
	CHECK_INT(results_csv_read(dir, "programs.csv", 0, &t, &exists, &torn, why, sizeof(why)),
		  -EINVAL);
	CHECK(strstr(why, "programs.csv:1:1: error: programs.csv is empty") != NULL);
	csv_table_free(&t);
	unlink(path);
	rmdir(dir);
}

/*
 * dir/summary.csv replaced by a FIFO (which blocked every reader for
 * ever), by a device, or by a symlink out of the held directory (said as
 * "Invalid cross-device link"): each refused at once, saying what it is.
 */
TEST(summary_not_a_file_refused)
{
	static const char *const what[] = {
		"error: a FIFO, not a regular file: refused",
		"error: a character device, not a regular file: refused",
		"error: a symlink out of ",
	};
	char dir[64], sub[128], path[256], why[512];
	struct result_set *set = NULL;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(path, sizeof(path), "%s/summary.csv", sub);
	CHECK_INT(mkdir(sub, 0755), 0);
	alarm(5);
	for (int i = 0; i < 3; i++) {
		unlink(path);
		CHECK_INT(i == 0 ? mkfifo(path, 0600) : symlink(i == 1 ? "/dev/null" :
								"/etc/hostname", path), 0);
		/* held, as every reader holds its set (readlock.h): opened beneath it */
		if (i == 2)
			CHECK_INT(heldir_hold(sub), 0);
		CHECK_INT(results_read(sub, &set, why, sizeof(why)), -EINVAL);
		CHECK(!set);
		CHECK(refused_at(why, "summary.csv:1:1: "));
		CHECK(strstr(why, what[i]));
	}
	alarm(0);
	heldir_release(sub);
	unlink(path);
	remove_tree(dir, "a");
}

/*
 * A torn last line (a kill in the middle of an append) is left out, and
 * said, with its file and line: a warning, since the set is what a killed
 * run leaves and stays readable (docs/results.md).
 */
TEST(torn_last_line_said)
{
	char dir[64], sub[128], where[256];
	struct result_set *set;
	char why[256];

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK_INT(mkdir(sub, 0755), 0);
	CHECK_INT(put_file(sub, "samples.csv", "point,experiment,rep,interval,warmup,elapsed_ns,"
			   "hits\n0,t,0,0,0,1000,5\n0,t,0,1"), 0);
	CHECK_INT(put_file(sub, "summary.csv", "exp,point,experiment,status,n,hits_per_s_mean\n"
			   "0,0,t,ok,1,5000000.000\n"), 0);
	capture();
	CHECK_INT(results_read(sub, &set, why, sizeof(why)), 0);
	CHECK_INT(set->samples_torn, 7);
	snprintf(where, sizeof(where), "warning: %s/samples.csv:3: an unfinished last line "
		 "(7 bytes, no line end) left out", sub);
	CHECK(strstr(diags(), where));
	result_set_free(set);
	remove_tree(dir, "a");
}

/* The peak resident set of this process so far, in bytes. */
static long long peak_rss(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss * 1024LL;
}

/*
 * samples.csv is read within twice its size of memory, even of the
 * shortest rows a run writes (18 bytes, 7 cells): it is the file that grows
 * with points x repetitions x intervals, up to CSV_MAX_BYTES.  A pointer a
 * cell made it ~5 times (issue 34 R2).  16 MiB, ~0.5 s.
 */
TEST(samples_read_within_twice_their_size)
{
	enum { ROWS = 16 << 20 >> 4 };
	char dir[64], sub[128], path[256], why[256];
	struct result_set *set = NULL;
	long long before, size, grown;
	struct stat st;
	FILE *f;
	int nr;

	CHECK_INT(make_tmpdir(dir), 0);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(path, sizeof(path), "%s/samples.csv", sub);
	CHECK_INT(mkdir(sub, 0755), 0);
	f = fopen(path, "w");
	CHECK(f);
	fprintf(f, "point,experiment,rep,interval,warmup,elapsed_ns,hits\n");
	for (int i = 0; f && i < ROWS; i++)
		fprintf(f, "0,t,%d,%d,0,1,%d\n", i / 100 % 10, i % 100 / 10, i % 10);
	CHECK_INT(f ? fclose(f) : -1, 0);
	snprintf(why, sizeof(why), "exp,point,experiment,status,n,hits_per_s_mean\n"
		 "0,0,t,ok,%d,5000000.000\n", ROWS);
	CHECK_INT(put_file(sub, "summary.csv", why), 0);
	CHECK_INT(stat(path, &st), 0);
	size = st.st_size;
	before = peak_rss();
	CHECK_INT(results_read(sub, &set, why, sizeof(why)), 0);
	grown = peak_rss() - before;
	nr = set ? set->points[0].nr_samples : -1;
	/* freed first: a failed check returns */
	result_set_free(set);
	remove_tree(dir, "a");
	CHECK_INT(nr, ROWS);
	fprintf(stderr, "samples.csv of %lld bytes: %.2f bytes of memory a byte\n", size,
		(double)grown / size);
	CHECK(grown <= MEM_BUDGET(2 * size));
}

RUN_TESTS(deterministic_varied_is_flagged, write_and_read_back, never_overwrites,
	  existing_directories_refused, parent_is_a_file,
	  failed_append_leaves_no_partial_point, result_set_read_back,
	  result_set_without_exp_column, counted_nothing_is_stalled, tampered_cells_refused,
	  renamed_metric_refused, malformed_rows_located, unknown_quality_refused,
	  zero_length_and_unknown_status_refused, empty_summary_refused,
	  torn_last_line_said, summary_not_a_file_refused, samples_read_within_twice_their_size,
	  empty_file_is_no_rows_when_allowed)
