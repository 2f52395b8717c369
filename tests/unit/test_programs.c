// SPDX-License-Identifier: GPL-2.0
/*
 * programs.csv (programs.c, results.c) without BPF: a point's rows from
 * the loads kept in its result, a program's unknown figures empty with
 * the reason, a point that loaded nothing as one row saying why, and a
 * failed append that takes the point's programs rows back out with its
 * others.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "check.h"
#include "csvfile.h"
#include "programs.h"
#include "resultdir.h"
#include "results.h"

extern const struct workload csum_diff_workload;

static struct experiment exp0 = { .title = "load", .group = -1 };
static struct sweep_cfg cfg = { .wl = &csum_diff_workload, .exps = &exp0, .nr_exps = 1 };

/* A program's figures: insns, states, peak, stack, xlated, jited, verify, (load). */
static void prog(struct wl_prog_load *p, const char *name, uint32_t id, uint64_t insns)
{
	*p = (struct wl_prog_load){ .id = id, .v = { insns, 5, 5, 8, 384, 203, 90,
						     METRIC_UNKNOWN } };
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->type, sizeof(p->type), "sched_cls");
}

/* An ok point of two repetitions, each loading csum_run and csum_check. */
static void loaded_point(struct point_result *r, struct point *pt, struct rep_load *loads)
{
	*pt = (struct point){ .id = 3, .wp.wl = &csum_diff_workload };
	*r = (struct point_result){ .pt = pt, .status = PS_OK, .loads = loads, .nr_loads = 2 };
	r->cpus = (char *)"prod 0";
	for (int l = 0; l < 2; l++) {
		loads[l] = (struct rep_load){ .rep = l, .ls = { .nr_progs = 2 } };
		prog(&loads[l].ls.prog[0], "csum_run", 10 + 2 * l, 52);
		prog(&loads[l].ls.prog[1], "csum_check", 11 + 2 * l, 21);
	}
}

/* pr's rows under the header, read back into *t. */
static void rows_of(const struct point_result *pr, struct csv_table *t)
{
	const char *names[PROGRAMS_MAX_COLS];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK_INT(csv_write_row(f, names, programs_header(&cfg, names)), 0);
	CHECK_INT(programs_write_point(f, &cfg, pr), 0);
	fclose(f);
	CHECK_INT(csv_read_string(text, t), 0);
	free(text);
}

static const char *cell(const struct csv_table *t, int r, const char *name)
{
	int c = csv_column(t, name);

	return c < 0 || r >= t->nr_rows ? "(none)" : t->rows[r][c];
}

TEST(a_row_per_program_and_repetition)
{
	static const char *const head[] = {
		"point", "experiment", "rep", "prog_name", "prog_type", "prog_id", "total_insns",
		"total_states", "peak_states", "stack_depth", "xlated_size", "jited_size",
		"verify_time", "reason",
	};
	struct rep_load loads[2];
	struct point_result r;
	struct csv_table t;
	struct point pt;

	loaded_point(&r, &pt, loads);
	loads[1].ls.prog[1].v[LF_VERIFY_US] = METRIC_UNKNOWN;
	loads[1].ls.prog[1].v[LF_STACK_DEPTH] = METRIC_UNKNOWN;
	rows_of(&r, &t);
	CHECK_INT(t.nr_cols, 14);
	for (int c = 0; c < t.nr_cols && c < 14; c++)
		CHECK_STR(t.rows[0][c], head[c]);
	CHECK_INT(t.nr_rows, 1 + 4);
	CHECK_STR(cell(&t, 1, "point"), "3");
	CHECK_STR(cell(&t, 1, "experiment"), "load");
	CHECK_STR(cell(&t, 3, "rep"), "1");
	CHECK_STR(cell(&t, 3, "prog_name"), "csum_run");
	CHECK_STR(cell(&t, 4, "prog_id"), "13");
	CHECK_STR(cell(&t, 4, "total_insns"), "21");
	CHECK_STR(cell(&t, 2, "reason"), "");
	/* what the kernel did not give: empty, and said */
	CHECK_STR(cell(&t, 4, "verify_time"), "");
	CHECK_STR(cell(&t, 4, "stack_depth"), "");
	CHECK_STR(cell(&t, 4, "reason"), "stack_depth, verify_time: not given by this kernel");
	csv_table_free(&t);
}

TEST(a_point_without_programs_says_why)
{
	struct point_result r;
	struct csv_table t;
	struct point pt = { .id = 1, .wp.wl = &csum_diff_workload };

	r = (struct point_result){ .pt = &pt, .status = PS_FAILED };
	snprintf(r.reason, sizeof(r.reason), "load: Invalid argument");
	rows_of(&r, &t);
	CHECK_INT(t.nr_rows, 2);
	CHECK_STR(cell(&t, 1, "point"), "1");
	CHECK_STR(cell(&t, 1, "rep"), "");
	CHECK_STR(cell(&t, 1, "prog_name"), "");
	CHECK_STR(cell(&t, 1, "total_insns"), "");
	CHECK_STR(cell(&t, 1, "reason"), "no program loaded: failed: load: Invalid argument");
	csv_table_free(&t);
	r.status = PS_OK;
	r.reason[0] = '\0';
	rows_of(&r, &t);
	CHECK_STR(cell(&t, 1, "reason"), "no program loaded");
	csv_table_free(&t);
}

static off_t file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : st.st_size;
}

/* Append r with the file size limit at limit bytes: what results_append() returns. */
static int append_limited(struct results *rs, const struct point_result *r, off_t limit)
{
	struct rlimit old, lim;
	int err;

	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = limit;
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	err = results_append(rs, r);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	return err;
}

/*
 * summary.csv's write fails (EFBIG) after samples.csv's and programs.csv's
 * went through: both are cut back, so no programs row outlives its point.
 */
TEST(failed_append_takes_the_programs_back)
{
	char dir[] = "/tmp/test_programs.XXXXXX", sub[64];
	struct rep_load loads[2];
	struct point_result r;
	struct results *rs;
	struct point pt;
	off_t header, programs, samples, summary;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	CHECK_INT(resultdir_create(sub), 0);
	CHECK_INT(results_create(sub, &cfg, &rs), 0);
	header = file_size(sub, PROGRAMS_CSV);
	loaded_point(&r, &pt, loads);
	CHECK_INT(results_append(rs, &r), 0);
	programs = file_size(sub, PROGRAMS_CSV);
	samples = file_size(sub, "samples.csv");
	summary = file_size(sub, "summary.csv");
	/* the other files' rows fit below summary.csv's present size: only its write fails */
	CHECK(programs + 1000 < summary && samples + 1000 < summary);
	CHECK_INT(append_limited(rs, &r, summary + 10), -EFBIG);
	CHECK_INT(results_rollback_error(rs), 0);
	CHECK_INT(file_size(sub, PROGRAMS_CSV), programs);
	CHECK_INT(file_size(sub, "samples.csv"), samples);
	CHECK_INT(file_size(sub, "summary.csv"), summary);
	CHECK_INT(results_append(rs, &r), 0);
	results_close(rs);
	/* and the next goes on from there: the point's rows twice */
	CHECK_INT(file_size(sub, PROGRAMS_CSV), programs + (programs - header));
	resultdir_remove_tree(dir);
}

RUN_TESTS(a_row_per_program_and_repetition, a_point_without_programs_says_why,
	  failed_append_takes_the_programs_back)
