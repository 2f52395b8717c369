/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A view row's statistics unrounded, as the run computed them in memory:
 * its intervals read back from samples.csv and summarized again by the
 * run's own code (result.c), since summary.csv keeps three decimals of
 * the base unit; and each metric's independent units (units.h).  The exports and charts show these; a row without
 * intervals (imported numbers) has only summary.csv's cells.
 */
#ifndef SWEEP_VIEWSTATS_H
#define SWEEP_VIEWSTATS_H

#include <stddef.h>

#include "result.h"
#include "results_read.h"
#include "viewtypes.h"

/*
 * Row p's intervals into r (r->pt->wp.wl names the metrics, by name in
 * samples.csv), with each producer's increases of the per-thread metric
 * from its thread rows.  0, -ENOMEM, or -EINVAL when the thread rows are
 * not one per producer after each interval, in producer order.
 */
int viewstats_intervals(const struct result_set *set, const struct result_point *p,
			struct point_result *r);

/*
 * r->exact, r->has_intervals and r->thread_rate of ok row r (p in set) of
 * view v, whose other fields are filled; 0, -ENOMEM, or -EINVAL with why.
 */
int viewstats_exact(const struct result_view *v, const struct result_set *set,
		    const struct result_point *p, struct view_row *r, char *why, size_t len);

#endif
