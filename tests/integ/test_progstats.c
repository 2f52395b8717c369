// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's run time of the workloads' programs through the runner
 * (root): with statistics on, by BPF_ENABLE_STATS or by the sysctl, a
 * ringbuf and a map_perf point have a positive ns per run; the sysctl is
 * what it was after the run; without statistics the point is still ok
 * and its program numbers unknown.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "integ_util.h"
#include "progrun.h"
#include "progstats.h"
#include "runner.h"

extern const struct workload ringbuf_workload;
extern const struct workload map_perf_workload;


/* wl's point with every parameter at its default. */
static bool default_point(const struct workload *wl, struct point *pt)
{
	char err[256];

	*pt = (struct point){ .wp.wl = wl };
	for (int i = 0; i < wl->nr_params; i++)
		if (param_parse_scalar(&wl->params[i], wl->params[i].def,
				       strlen(wl->params[i].def), &pt->wp.v[i], err, sizeof(err)))
			return false;
	return true;
}

/* One point of wl through runner_run(): a 100 ms warmup, three intervals of 100 ms. */
static int run_default(const struct workload *wl, struct point *pt, struct point_result **res)
{
	struct experiment exp = { .title = "stats", .group = -1 };
	struct sweep_cfg cfg = {
		.name = "progstats", .wl = wl, .warmup_ns = 100000000, .duration_ns = 300000000,
		.interval_ns = 100000000, .repeat = 1, .affinity = true, .exps = &exp, .nr_exps = 1,
	};
	struct plan pl = { .pts = pt, .nr_pts = 1, .nr_runnable = 1 };
	int nr_run;

	*res = NULL;
	if (!default_point(wl, pt))
		return -EINVAL;
	return runner_run(&cfg, &pl, pt, 1, NULL, NULL, res, &nr_run);
}

/* An ok point whose programs ran at a positive, plausible cost per run. */
static void check_ns_per_run(const struct workload *wl)
{
	struct point_result *res;
	struct point pt;
	int runs, ns;

	CHECK(prog_metrics(wl, &runs, &ns));
	CHECK_INT(run_default(wl, &pt, &res), 0);
	if (!res)
		return;
	CHECK_STR(res->reason, "");
	CHECK_INT(res->status, PS_OK);
	CHECK_INT(res->per_run.n, 3);
	CHECK(res->per_run.min > 0);
	/* a program run is not a second long: a unit slip would be */
	CHECK(res->per_run.max < 1e7);
	CHECK(res->stat[runs].mean > 0);
	CHECK(res->stat[ns].mean > 0);
	printf("#   %s: %.1f ± %.1f ns per run, %.0f runs/s\n", wl->name, res->per_run.mean,
	       res->per_run.stddev, res->stat[runs].mean);
	point_results_free(res, 1);
}

TEST(enable_stats_ringbuf_and_map_perf)
{
	char how[256];
	int before, fds;

	NEED_ROOT();
	before = read_stats_sysctl();
	fds = count_fds();
	CHECK_INT(wl_bpf_stats_on(how, sizeof(how)), 0);
	CHECK_STR(how, "BPF_ENABLE_STATS");
	CHECK_INT(count_fds(), fds + 1);
	check_ns_per_run(&ringbuf_workload);
	check_ns_per_run(&map_perf_workload);
	wl_bpf_stats_off();
	/* the descriptor's way never touches the sysctl, and off closes it */
	CHECK_INT(read_stats_sysctl(), before);
	CHECK_INT(count_fds(), fds);
}

TEST(sysctl_set_and_restored)
{
	char how[256];

	NEED_ROOT();
	if (read_stats_sysctl() != 0)
		SKIP("kernel.bpf_stats_enabled is not 0 here: nothing of ours to restore");
	CHECK_INT(progstats_on_sysctl(how, sizeof(how)), 0);
	CHECK(strstr(how, "set to 1, restored after") != NULL);
	CHECK_INT(read_stats_sysctl(), 1);
	check_ns_per_run(&ringbuf_workload);
	wl_bpf_stats_off();
	CHECK_INT(read_stats_sysctl(), 0);
}

/* Statistics off: the point runs, its program numbers unknown, not zero. */
TEST(unknown_without_statistics)
{
	struct point_result *res;
	struct point pt;
	int runs, ns;

	NEED_ROOT();
	CHECK(prog_metrics(&ringbuf_workload, &runs, &ns));
	CHECK_INT(run_default(&ringbuf_workload, &pt, &res), 0);
	if (!res)
		return;
	CHECK_INT(res->status, PS_OK);
	CHECK(res->stat[0].mean > 0);
	CHECK_INT(res->per_run.n, 0);
	CHECK(isnan(res->stat[runs].mean));
	CHECK(isnan(res->stat[ns].mean));
	for (int i = 0; i < res->nr_iv; i++)
		CHECK(res->iv[i].value[runs] == METRIC_UNKNOWN);
	point_results_free(res, 1);
}

RUN_TESTS(enable_stats_ringbuf_and_map_perf, sysctl_set_and_restored, unknown_without_statistics)
