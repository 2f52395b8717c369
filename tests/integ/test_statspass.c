// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics pass through the runner (root): while a point's rates
 * are measured the kernel times no BPF program run, and only the pass
 * after its repetitions has the statistics on; ns_per_run comes from the
 * pass, and the sysctl (the fallback's switch) is 0 again after the run,
 * also when a SIGINT comes during the pass.
 *
 * Whether the kernel keeps statistics is asked of the kernel, not of
 * bpfsweep's flag: a probe program (sys_bpf_stats_active(), the system
 * check's), run by BPF_PROG_TEST_RUN at every sample of a wrapped ringbuf
 * workload (the sampler's, at each interval's edge), counts a run only
 * while the statistics' static key is on.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "integ_util.h"
#include "progrun.h"
#include "progstats.h"
#include "runner.h"
#include "sysbpf.h"

extern const struct workload ringbuf_workload;

#define MAX_SAMPLES	64

static struct workload probe_wl;
/* at each sample, in order: did the kernel count the probe's run? */
static bool seen_on[MAX_SAMPLES];
static int nr_seen;
static bool sigint_in_pass;	/* raise SIGINT at the first sample that sees them on */

static int probe_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	bool on = sys_bpf_stats_active() == 1;

	if (nr_seen < MAX_SAMPLES)
		seen_on[nr_seen++] = on;
	if (on && sigint_in_pass) {
		sigint_in_pass = false;
		raise(SIGINT);
	}
	return ringbuf_workload.sample(state, counts, thread_counts);
}

/* ringbuf's default point, sampled through probe_sample(). */
static bool probe_point(struct point *pt)
{
	char err[256];

	probe_wl = ringbuf_workload;
	probe_wl.sample = probe_sample;
	*pt = (struct point){ .wp.wl = &probe_wl };
	for (int i = 0; i < probe_wl.nr_params; i++)
		if (param_parse_scalar(&probe_wl.params[i], probe_wl.params[i].def,
				       strlen(probe_wl.params[i].def), &pt->wp.v[i], err,
				       sizeof(err)))
			return false;
	return true;
}

/* One point, bpf_stats on: 100 ms warmup and three intervals of 100 ms, then its pass. */
static int run_probed(struct point *pt, struct point_result **res)
{
	struct experiment exp = { .title = "pass", .group = -1 };
	struct sweep_cfg cfg = {
		.name = "statspass", .wl = &probe_wl, .warmup_ns = 100000000,
		.duration_ns = 300000000, .interval_ns = 100000000, .repeat = 1,
		.affinity = true, .bpf_stats = true, .exps = &exp, .nr_exps = 1,
	};
	struct plan pl = { .pts = pt, .nr_pts = 1, .nr_runnable = 1 };
	int nr_run;

	nr_seen = 0;
	*res = NULL;
	if (!probe_point(pt))
		return -EINVAL;
	return runner_run(&cfg, &pl, pt, 1, NULL, NULL, res, &nr_run);
}

/* Root, and the kernel's statistics off (nobody else's on): else the test cannot tell. */
static bool ready(void)
{
	return geteuid() == 0 && sys_bpf_stats_active() == 0;
}

/*
 * The measured repetition's samples (its first 1 + 4) saw the statistics
 * off, every later one (the pass's) on, and the pass gave ns_per_run.  The
 * pass measures as long as the repetition, 300 ms (statspass.h): its 1 +
 * 2 of warmup and 3 of 100 ms (a pass of 1 s took 1 + 2 + 10).
 */
static void check_pass(const char *how)
{
	struct point_result *res;
	struct point pt;
	int runs, ns, off = 0, on = 0;

	CHECK_INT(run_probed(&pt, &res), 0);
	if (!res)
		return;
	CHECK_INT(res->status, PS_OK);
	CHECK_INT(nr_seen, 5 + 6);
	for (int i = 0; i < nr_seen; i++)
		*(seen_on[i] ? &on : &off) += 1;
	CHECK_INT(off, 5);
	CHECK_INT(on, 6);
	for (int i = 0; i < 5 && i < nr_seen; i++)
		CHECK(!seen_on[i]);
	/* samples.csv's intervals: the measured ones, without program numbers */
	CHECK(prog_metrics(&probe_wl, &runs, &ns));
	CHECK_INT(res->nr_iv, 4);
	for (int i = 0; i < res->nr_iv; i++)
		CHECK(res->iv[i].value[runs] == METRIC_UNKNOWN);
	CHECK(res->stat[0].mean > 0);
	/* the pass's three intervals of 100 ms */
	CHECK_INT(res->per_run.n, 3);
	CHECK(res->per_run.min > 0 && res->per_run.max < 1e7);
	printf("#   %s: %.1f ns per run from the pass, %d samples off, %d on\n", how,
	       res->per_run.mean, off, on);
	point_results_free(res, 1);
}

TEST(off_while_measuring_enable_stats)
{
	if (!ready())
		SKIP("needs root, a BPF probe, and the statistics off");
	progstats_force_sysctl(false);
	check_pass("BPF_ENABLE_STATS");
	CHECK(sys_bpf_stats_active() == 0);
	wl_bpf_stats_off();
}

TEST(off_while_measuring_sysctl)
{
	if (!ready() || read_stats_sysctl() != 0)
		SKIP("needs root, a BPF probe, and kernel.bpf_stats_enabled 0");
	progstats_force_sysctl(true);
	check_pass("sysctl");
	progstats_force_sysctl(false);
	CHECK_INT(read_stats_sysctl(), 0);
	CHECK(sys_bpf_stats_active() == 0);
	/* a failed check must not leave the machine's sysctl at 1 */
	wl_bpf_stats_off();
}

/* SIGINT in the pass: the measured point stays ok, ns_per_run unknown, the sysctl 0. */
TEST(sysctl_restored_after_sigint_in_pass)
{
	struct point_result *res;
	struct point pt;

	if (!ready() || read_stats_sysctl() != 0)
		SKIP("needs root, a BPF probe, and kernel.bpf_stats_enabled 0");
	progstats_force_sysctl(true);
	sigint_in_pass = true;
	CHECK_INT(run_probed(&pt, &res), -EINTR);
	progstats_force_sysctl(false);
	CHECK(!sigint_in_pass);
	CHECK_INT(read_stats_sysctl(), 0);
	CHECK(sys_bpf_stats_active() == 0);
	wl_bpf_stats_off();
	if (!res)
		return;
	CHECK_INT(res->status, PS_OK);
	CHECK_INT(res->per_run.n, 0);
	CHECK_INT(res->nr_iv, 4);
	point_results_free(res, 1);
}

RUN_TESTS(off_while_measuring_enable_stats, off_while_measuring_sysctl,
	  sysctl_restored_after_sigint_in_pass)
