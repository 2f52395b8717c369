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
 */
#define _GNU_SOURCE	/* memfd_create */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <bpf/bpf.h>

#include "check.h"
#include "csum_diff.skel.h"
#include "integ_util.h"
#include "progload.h"
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

RUN_TESTS(ringbuf_as_bpftool_shows, csum_diff_as_bpftool_shows, repetitions_identical,
	  log_processed_is_verified_insns)
