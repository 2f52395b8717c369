// SPDX-License-Identifier: GPL-2.0
/*
 * The load's figures of a point (root): each program's xlated and jited
 * sizes, and its verified_insns where bpftool shows it (7.1 does not: the
 * test says so), are what bpftool shows of the same loaded program
 * (`bpftool prog show id N --json`: bytes_xlated, bytes_jited,
 * verified_insns), the verifier's log gave states, stack and time, and two
 * loads of one point give identical counts and sizes.  Through the
 * runner, two repetitions: every deterministic metric has one value and
 * no interval, and the point is not flagged varied.  And the log's
 * "processed" count, total_insns on a kernel before 5.16, is
 * verified_insns where the kernel has both.  It runs in a guest too
 * (bpfsweep vm "$(scripts/vm-kernel.sh 5.10)" -- build/tests/integ/test_loadstats,
 * docs/kernel.md).
 * programs.csv: its rows of a loaded point are what bpftool shows of the
 * same programs, and through the runner and results_append() each
 * repetition's rows add up to summary.csv's figures of the point (the
 * peaks: their largest).
 */
#define _GNU_SOURCE	/* memfd_create */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <bpf/bpf.h>

#include "check.h"
#include "csum_diff.skel.h"
#include "csvfile.h"
#include "integ_util.h"
#include "loadfill.h"
#include "progload.h"
#include "programs.h"
#include "resultdir.h"
#include "results.h"
#include "runner.h"
#include "subproc.h"

extern const struct workload ringbuf_workload;
extern const struct workload csum_diff_workload;

/*
 * `bpftool prog show id ID --json` parsed, or NULL.  Its output goes to a
 * memfd, not a file: a guest's /tmp is the host's, read-only.
 */
static struct json_object *bpftool_show(uint32_t id)
{
	char ids[16];
	const char *argv[] = { "bpftool", "prog", "show", "id", ids, "--json", NULL };
	struct json_object *o = NULL;
	int fd = memfd_create("test_loadstats", MFD_CLOEXEC);
	pid_t pid;

	if (fd < 0)
		return NULL;
	snprintf(ids, sizeof(ids), "%u", id);
	/* the child's writes moved the offset both share: read from the start */
	if (!spawn(argv, &(struct spawn_opts){ .out_fd = fd }, &pid) && !spawn_wait(pid, 10000) &&
	    !lseek(fd, 0, SEEK_SET))
		o = json_object_from_fd(fd);
	close(fd);
	return o;
}

static long long json_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

/* Each program's figures against bpftool's of the same program, while it is loaded. */
static void check_against_bpftool(const struct wl_load_stats *ls)
{
	for (int i = 0; i < ls->nr_progs; i++) {
		const struct wl_prog_load *p = &ls->prog[i];
		struct json_object *o = bpftool_show(p->id);

		CHECK(p->id > 0);
		CHECK(o != NULL);
		if (!o)
			return;
		CHECK_INT(json_int(o, "bytes_xlated"), p->v[LF_XLATED_SIZE]);
		CHECK_INT(json_int(o, "bytes_jited"), p->v[LF_JITED_SIZE]);
		if (json_int(o, "verified_insns") >= 0)
			CHECK_INT(json_int(o, "verified_insns"), p->v[LF_TOTAL_INSNS]);
		else
			printf("NOTE %s: bpftool shows no verified_insns: not compared\n",
			       p->name);
		CHECK(p->v[LF_TOTAL_INSNS] != METRIC_UNKNOWN && p->v[LF_TOTAL_INSNS] > 0);
		json_object_put(o);
		/* the log's figures are there too */
		CHECK(p->v[LF_TOTAL_STATES] != METRIC_UNKNOWN && p->v[LF_TOTAL_STATES] > 0);
		CHECK(p->v[LF_PEAK_STATES] != METRIC_UNKNOWN);
		CHECK(p->v[LF_STACK_DEPTH] != METRIC_UNKNOWN);
		CHECK(p->v[LF_VERIFY_US] != METRIC_UNKNOWN);
	}
}

/* Two set-ups of wl's default point: bpftool's figures, then the same counts twice. */
static void check_loads(const struct workload *wl, int nr_progs)
{
	struct wl_load_stats a, b;
	struct wl_threads thr;
	struct point pt;
	char why[512] = "";
	void *st;

	pt = (struct point){ 0 };
	CHECK(point_set(wl, &pt.wp, NULL));
	CHECK_INT(wl->setup(&pt.wp, &st, &thr, why, sizeof(why)), 0);
	CHECK(wl_load_stats_of(wl, st) != NULL);
	a = *wl_load_stats_of(wl, st);
	CHECK_INT(a.nr_progs, nr_progs);
	check_against_bpftool(&a);
	wl->teardown(st);
	CHECK_INT(wl->setup(&pt.wp, &st, &thr, why, sizeof(why)), 0);
	CHECK(wl_load_stats_of(wl, st) != NULL);
	b = *wl_load_stats_of(wl, st);
	wl->teardown(st);
	for (int f = 0; f < NR_LOAD_FIELDS; f++)
		if (f != LF_VERIFY_US && f != LF_LOAD_US)
			CHECK_INT(a.total[f], b.total[f]);
	CHECK(a.total[LF_LOAD_US] != METRIC_UNKNOWN && a.total[LF_LOAD_US] > 0);
}

TEST(ringbuf_as_bpftool_shows)
{
	NEED_ROOT();
	check_loads(&ringbuf_workload, 1);
}

/* two programs: the run and the known-input check; the point's figures are their sum */
TEST(csum_diff_as_bpftool_shows)
{
	NEED_ROOT();
	check_loads(&csum_diff_workload, 2);
}

/* Two repetitions through the runner: one value each, no interval, no "varied". */
TEST(repetitions_identical)
{
	const struct workload *wl = &csum_diff_workload;
	struct experiment exp = { .title = "load", .group = -1 };
	struct sweep_cfg cfg = {
		.name = "loadstats", .wl = wl, .warmup_ns = 0, .duration_ns = 200000000,
		.interval_ns = 100000000, .repeat = 2, .affinity = true, .exps = &exp, .nr_exps = 1,
	};
	struct point pt = { 0 };
	struct plan pl = { .pts = &pt, .nr_pts = 1, .nr_runnable = 1 };
	struct point_result *res = NULL;
	int nr_run;

	NEED_ROOT();
	CHECK(point_set(wl, &pt.wp, NULL));
	CHECK_INT(runner_run(&cfg, &pl, &pt, 1, NULL, NULL, &res, &nr_run), 0);
	CHECK_INT(res[0].status, PS_OK);
	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct summary *s = &res[0].stat[m];

		if (!wl->metrics[m].deterministic)
			continue;
		CHECK_INT(s->n, 4);
		CHECK(s->min == s->max);
		CHECK(isnan(s->ci95));
	}
	CHECK(!(res[0].quality.flags & QF_VARIED));
	point_result_free_intervals(&res[0]);
	free(res);
}

/*
 * A kernel before 5.16 has no verified_insns: total_insns is then the
 * log's "processed N insns" (progload.c).  Where the kernel gives both,
 * they are one count (env->insn_processed): checked here for each program
 * of csum_diff, so that a 5.10 guest's figure means what a 6.x one's does.
 */
#define LOG_BYTES	(64 * 1024)

TEST(log_processed_is_verified_insns)
{
	struct csum_diff_bpf *skel;
	struct bpf_program *prog;
	char *log[2];
	int i = 0;

	NEED_ROOT();
	log[0] = calloc(1, LOG_BYTES);
	log[1] = calloc(1, LOG_BYTES);
	skel = csum_diff_bpf__open();
	CHECK(skel != NULL && log[0] && log[1]);
	if (!skel || !log[0] || !log[1])
		goto out;
	bpf_object__for_each_program(prog, skel->obj) {
		if (i == 2)
			break;
		bpf_program__set_log_buf(prog, log[i++], LOG_BYTES);
		bpf_program__set_log_level(prog, 4);	/* BPF_LOG_STATS, as progload.c */
	}
	CHECK_INT(i, 2);
	CHECK_INT(csum_diff_bpf__load(skel), 0);
	i = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		struct wl_prog_load p = { .v = { [LF_TOTAL_INSNS] = METRIC_UNKNOWN } };

		if (i == 2)
			break;
		wl_load_parse_log(log[i++], &p);
		CHECK_INT(bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len), 0);
		if (len < offsetof(struct bpf_prog_info, verified_insns) + sizeof(__u32)) {
			printf("NOTE %s: this kernel has no verified_insns: not compared\n",
			       bpf_program__name(prog));
			continue;
		}
		CHECK(info.verified_insns > 0);
		CHECK_INT(p.v[LF_TOTAL_INSNS], info.verified_insns);
	}
out:
	csum_diff_bpf__destroy(skel);
	free(log[0]);
	free(log[1]);
}

/* A one-point sweep of csum_diff's default point, rep repetitions of 200 ms. */
struct one_point {
	struct experiment exp;
	struct sweep_cfg cfg;
	struct point pt;
	struct plan pl;
};

static void one_point(struct one_point *o, int repeat)
{
	const struct workload *wl = &csum_diff_workload;

	*o = (struct one_point){
		.exp = { .title = "load", .group = -1 },
		.cfg = { .name = "loadstats", .wl = wl, .duration_ns = 200000000,
			 .interval_ns = 100000000, .repeat = repeat, .affinity = true,
			 .nr_exps = 1 },
		.pl = { .nr_pts = 1, .nr_runnable = 1 },
	};
	o->cfg.exps = &o->exp;
	o->pl.pts = &o->pt;
	CHECK(point_set(wl, &o->pt.wp, NULL));
}

/* The cell of t's row r in column name, as a number; -1 if empty or missing. */
static long long cell_num(const struct csv_table *t, int r, const char *name)
{
	int c = csv_column(t, name);
	const char *s = c >= 0 ? t->rows[r][c] : "";

	return *s ? strtoll(s, NULL, 10) : -1;
}

/* programs.csv's rows of a point while its programs are loaded: bpftool's figures. */
TEST(programs_csv_as_bpftool_shows)
{
	struct one_point o;
	struct point_result r = { 0 };
	struct wl_load_stats ls;
	struct wl_threads thr;
	struct csv_table t = { 0 };
	const char *names[PROGRAMS_MAX_COLS];
	char why[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	void *st;

	NEED_ROOT();
	one_point(&o, 1);
	r.pt = &o.pt;
	CHECK_INT(o.cfg.wl->setup(&o.pt.wp, &st, &thr, why, sizeof(why)), 0);
	CHECK_INT(load_read(o.cfg.wl, st, 0, &ls, &r), 0);
	CHECK_INT(csv_write_row(f, names, programs_header(&o.cfg, names)), 0);
	CHECK_INT(programs_write_point(f, &o.cfg, &r), 0);
	fclose(f);
	CHECK_INT(csv_read_string(text, &t), 0);
	CHECK_INT(t.nr_rows, 1 + 2);
	for (int i = 1; i < t.nr_rows; i++) {
		struct json_object *js = bpftool_show(cell_num(&t, i, "prog_id"));

		CHECK(js != NULL);
		if (!js)
			continue;
		CHECK_STR(t.rows[i][csv_column(&t, "prog_type")], "sched_cls");
		CHECK_INT(cell_num(&t, i, "xlated_size"), json_int(js, "bytes_xlated"));
		CHECK_INT(cell_num(&t, i, "jited_size"), json_int(js, "bytes_jited"));
		if (json_int(js, "verified_insns") >= 0)
			CHECK_INT(cell_num(&t, i, "total_insns"), json_int(js, "verified_insns"));
		CHECK(cell_num(&t, i, "total_insns") > 0 && cell_num(&t, i, "total_states") > 0);
		CHECK_STR(t.rows[i][csv_column(&t, "reason")], "");
		json_object_put(js);
	}
	o.cfg.wl->teardown(st);
	csv_table_free(&t);
	free(text);
	point_result_free_intervals(&r);
}

static int append_point(const struct point_result *r, void *ctx)
{
	return results_append(ctx, r);
}

/* dir/name read whole into *t (row 0 the header). */
static void read_table(const char *dir, const char *name, struct csv_table *t)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_INT(csv_read_file(path, t), 0);
}

/*
 * Figure name of repetition rep's rows summed (or their largest, peak):
 * what summary.csv's gauge of the point was in that repetition.
 */
static long long rep_figure(const struct csv_table *t, int rep, const char *name, bool peak)
{
	long long v = 0;

	for (int i = 1; i < t->nr_rows; i++)
		if (cell_num(t, i, "rep") == rep)
			v = peak ? (cell_num(t, i, name) > v ? cell_num(t, i, name) : v) :
				   v + cell_num(t, i, name);
	return v;
}

/* Two repetitions through the runner into a result directory: programs.csv sums to summary.csv. */
TEST(programs_csv_sums_to_summary)
{
	static const char *const summed[] = { "total_insns", "total_states", "xlated_size",
					      "jited_size", "verify_time" };
	static const char *const peaks[] = { "peak_states", "stack_depth" };
	const char *tmp = getenv("TMPDIR");
	char dir[256], stat[64];
	struct csv_table prog = { 0 }, sum = { 0 };
	struct point_result *res = NULL;
	struct results *rs = NULL;
	struct one_point o;
	int nr_run;

	NEED_ROOT();
	one_point(&o, 2);
	/* a guest's /tmp is the host's, read-only: its TMPDIR is its own tmpfs */
	snprintf(dir, sizeof(dir), "%s/test_loadstats.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(results_create(dir, &o.cfg, &rs), 0);
	CHECK_INT(runner_run(&o.cfg, &o.pl, &o.pt, 1, append_point, rs, &res, &nr_run), 0);
	results_close(rs);
	read_table(dir, PROGRAMS_CSV, &prog);
	read_table(dir, "summary.csv", &sum);
	CHECK_INT(prog.nr_rows, 1 + 2 * 2);
	CHECK_INT(sum.nr_rows, 2);
	for (int k = 0; k < 7; k++) {
		const char *name = k < 5 ? summed[k] : peaks[k - 5];
		long long a = rep_figure(&prog, 0, name, k >= 5), b = rep_figure(&prog, 1, name,
										  k >= 5);

		snprintf(stat, sizeof(stat), "%s_min", name);
		CHECK_INT(cell_num(&sum, 1, stat), a < b ? a : b);
		snprintf(stat, sizeof(stat), "%s_max", name);
		CHECK_INT(cell_num(&sum, 1, stat), a < b ? b : a);
	}
	csv_table_free(&prog);
	csv_table_free(&sum);
	point_result_free_intervals(&res[0]);
	free(res);
	resultdir_remove_tree(dir);
}

RUN_TESTS(ringbuf_as_bpftool_shows, csum_diff_as_bpftool_shows, repetitions_identical,
	  log_processed_is_verified_insns, programs_csv_as_bpftool_shows,
	  programs_csv_sums_to_summary)
