/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What check and expand print of a plan, beside plan_report()'s verdicts
 * (plan.h).  pts[0..nr) are the points listed (--only's), in plan order.
 */
#ifndef SWEEP_PLANSHOW_H
#define SWEEP_PLANSHOW_H

#include <stdio.h>

#include "kernels.h"
#include "plan.h"

/* expand's list: each experiment's title, then its points, a verdict after those that fail. */
void plan_show_points(FILE *f, const struct sweep_cfg *cfg, const struct plan *pl,
		      const struct point *pts, int nr);

/* A sweep over kernels: each is a run of every point; the probe spoke for this kernel only. */
void plan_show_kernels(FILE *f, const struct kernel_axis *ka, int nr_pts);

/*
 * What the points will take: the intervals each repetition samples, as
 * timing.c cuts them, and a guess at the setup of each repetition, on
 * each kernel of a sweep.
 */
void plan_show_time(FILE *f, const struct sweep_cfg *cfg, const struct plan *all,
		    const struct point *pts, int nr);

#endif
