// SPDX-License-Identifier: GPL-2.0
/*
 * What check and expand print of a plan (planshow.h) beside plan_report()'s
 * verdicts: expand's list of points, the kernels a sweep runs them on,
 * and what the points will take.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "planshow.h"
#include "precision.h"
#include "satmath.h"
#include "statspass.h"
#include "timing.h"

static void print_duration(FILE *f, unsigned long long ns)
{
	unsigned long long s = ns / 1000000000ULL + !!(ns % 1000000000ULL);

	if (ns == UINT64_MAX)	/* saturated (plan.h): "about ..." reads on */
		fprintf(f, "%llu years or more", s / (365ULL * 86400));
	else if (s >= 3600)
		fprintf(f, "%lluh%02llum%02llus", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		fprintf(f, "%llum%02llus", s / 60, s % 60);
	else if (ns % 1000000000ULL)
		fprintf(f, "%gs", ns / 1e9);
	else
		fprintf(f, "%llus", s);
}

void plan_show_points(FILE *f, const struct sweep_cfg *cfg, const struct plan *pl,
		      const struct point *pts, int nr)
{
	char name[256], why[8];
	int err;

	for (int i = 0; i < nr; i++) {
		const struct point *pt = &pts[i];

		if (i == 0 || pt->exp != pts[i - 1].exp)
			fprintf(f, "%s%s\n", i ? "\n" : "", cfg->exps[pt->exp].title);
		err = plan_verdict(pl, pt->id, why, sizeof(why));
		point_name(cfg, pt, name, sizeof(name));
		fprintf(f, "%5d  %s%s\n", pt->id, name, !err ? "" :
			wl_err_is_unsupported(err) ? "  (unsupported)" : "  (will fail)");
	}
	fprintf(f, "\n");
}

/* A sweep over kernels: each is a run of every point; the probe spoke for this kernel only. */
void plan_show_kernels(FILE *f, const struct kernel_axis *ka, int nr_pts)
{
	const struct kernel_list *kl = &ka->list;

	if (!kl->nr || (kl->nr == 1 && !kernel_axis_has_vm(ka)))
		return;
	fprintf(f, "%d kernel%s, each running all %d points:", kl->nr, kl->nr == 1 ? "" : "s",
		nr_pts);
	for (int k = 0; k < kl->nr; k++)
		fprintf(f, " %s%s", kl->vals[k], kernel_is_host(kl->vals[k]) ? "" : " (VM)");
	fprintf(f, "\nthe verdicts below are this host's kernel's; a VM's kernel gives its own\n");
}

/*
 * What the points will take: the intervals each repetition samples, as
 * timing.c cuts them, and a guess at the setup of each repetition.
 */
void plan_show_time(FILE *f, const struct sweep_cfg *cfg, const struct plan *all,
		    const struct point *pts, int nr)
{
	int least = precision_min_reps(cfg), most = precision_max_reps(cfg);
	/* the estimates of the points listed (--only's), as the plan of them alone */
	struct plan only = *all, *pl = &only;
	char intervals[128];

	only.pts = (struct point *)pts;
	only.nr_pts = nr;
	only.nr_runnable = plan_runnable(all, pts, nr);
	timing_describe(cfg, intervals, sizeof(intervals));
	fprintf(f, "%d point%s × %d", nr, nr == 1 ? "" : "s", least);
	if (most > least)
		fprintf(f, " to %d", most);
	fprintf(f, " repetition%s", most == 1 ? "" : "s");
	if (cfg->precision_pct > 0)
		fprintf(f, " (until ± %g%%)", cfg->precision_pct);
	if (cfg->decide_pct > 0)
		fprintf(f, " (rounds until each point is decided against its baseline, ± %g%%)",
			cfg->decide_pct);
	fprintf(f, ", each %s", intervals);
	if (stats_pass_ns(cfg)) {
		fprintf(f, ", then an ns_per_run pass of ");
		print_duration(f, stats_pass_ns(cfg));
	}
	fprintf(f, ": about ");
	if (plan_estimate_min_ns(cfg, pl) < plan_estimate_ns(cfg, pl)) {
		print_duration(f, plan_estimate_min_ns(cfg, pl));
		fprintf(f, " to ");
	}
	print_duration(f, plan_estimate_ns(cfg, pl));
	if (pl->probed && pl->nr_runnable < nr)
		fprintf(f, " for the %d supported", pl->nr_runnable);
	fprintf(f, ", with about ");
	print_duration(f, timing_setup_ns(cfg));
	fprintf(f, " of setup a repetition%s\n",
		pl->probed ? "" : " (less for unsupported points)");
	/* the probe answered for this host's kernel; each kernel runs every point */
	if (cfg->kernels.list.nr > 1 && cfg->decide_pct > 0) {
		/* one unit at a time across the kernels: the rounds take each kernel's time */
		fprintf(f, "that on the %d kernels at once, each point's units alternating between "
			"them in rounds, each decided against the first: about ", cfg->kernels.list.nr);
		print_duration(f, sat_mul_u64(plan_estimate_ns(cfg, pl), cfg->kernels.list.nr));
		fprintf(f, " in all (in a VM but for host: a boot takes 10-30 s under TCG)\n");
	} else if (cfg->kernels.list.nr > 1) {
		fprintf(f, "that on each of the %d kernels in turn (in a VM but for host: a boot "
			"takes 10-30 s under TCG)\n", cfg->kernels.list.nr);
	} else if (kernel_axis_has_vm(&cfg->kernels)) {
		fprintf(f, "that in a VM (a boot takes 10-30 s under TCG)\n");
	}
}

