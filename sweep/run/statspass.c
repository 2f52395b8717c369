// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics pass.  While the kernel's BPF run-time statistics are
 * on, it reads the clock around every BPF program run on the machine:
 * measured on this host, that doubled the attach cost of a raw
 * tracepoint over the base (+359 ns against +154 ns) and halved the
 * in-kernel trigger rate.  So the rates are measured with them off, and
 * ns_per_run comes from a repetition of its own: the same point set up
 * again, with the statistics on only for it.  Its intervals go nowhere
 * but into r->per_run: samples.csv holds the measured intervals only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progrun.h"
#include "repetition.h"
#include "statspass.h"

bool stats_pass_wanted(const struct sweep_cfg *cfg)
{
	int runs, ns;

	/* a workload that measures itself (exec) has no programs of ours */
	return cfg->bpf_stats && !cfg->wl->run && cfg->wl->prog_stats &&
	       prog_metrics(cfg->wl, &runs, &ns);
}

/*
 * A spec's repetitions measure a second and more: its pass measures one.
 * A shorter run (a test's, a quick look) gets a pass as long as its
 * repetitions, of two intervals at least: a 1 s pass after 0.3 s of
 * measuring would be most of the point's time.
 */
uint64_t stats_pass_duration_ns(const struct sweep_cfg *cfg)
{
	if (cfg->duration_ns < STATS_PASS_MIN_NS)
		return STATS_PASS_MIN_NS;
	return cfg->duration_ns > STATS_PASS_NS ? STATS_PASS_NS : cfg->duration_ns;
}

/*
 * Intervals of 100 ms after two of warmup: a spread of ns per run (the
 * run's own intervals, of a second, would give one value).
 */
static void pass_times(struct sweep_cfg *pc)
{
	pc->interval_ns = STATS_PASS_INTERVAL_NS;
	pc->warmup_ns = 2 * STATS_PASS_INTERVAL_NS;
	pc->duration_ns = stats_pass_duration_ns(pc);
}

uint64_t stats_pass_ns(const struct sweep_cfg *cfg)
{
	struct sweep_cfg pc = *cfg;

	if (!stats_pass_wanted(cfg))
		return 0;
	pass_times(&pc);
	return pc.warmup_ns + pc.duration_ns;
}

/* "ns_per_run: the statistics pass failed: ..." as r's caveat, unless it has one. */
static void note_failure(struct point_result *r, const char *why)
{
	if (!r->reason[0])
		snprintf(r->reason, sizeof(r->reason),
			 "ns_per_run: the statistics pass failed: %.200s", why);
}

int stats_pass_run(const struct sweep_cfg *cfg, const struct point *pt,
		   const struct rep_watch *w, struct point_result *r)
{
	struct sweep_cfg pc = *cfg;
	struct point_result pass = { .pt = pt };
	char how[256];
	int err;

	if (!stats_pass_wanted(cfg))
		return 0;
	pc.repeat = 1;
	pc.profile = false;	/* the profile is of the measured repetitions only */
	pass_times(&pc);
	err = wl_bpf_stats_on(how, sizeof(how));
	if (err) {
		/* meta's bpf_stats line says why for the whole run */
		return 0;
	}
	err = rep_run(&pc, pt, 0, w, &pass);
	/* at once, before anything else runs: the switch is the whole machine's */
	wl_bpf_stats_off();
	if (!err)
		err = prog_summarize(&pass);
	if (!err)
		r->per_run = pass.per_run;
	else if (err != -EINTR)
		note_failure(r, pass.reason[0] ? pass.reason : strerror(-err));
	point_result_free_intervals(&pass);
	free(pass.cpus);
	return err == -EINTR ? err : 0;
}
