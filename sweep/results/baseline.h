/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Figures relative to a baseline point: [report] baseline = PARAM=VALUE
 * pairs each point of an experiment with the point that has the same value
 * of every other parameter and PARAM=VALUE (docs/spec.md).  A counter's
 * rate r against its baseline's rate b gives the ratio r/b and the time
 * per event over the baseline, 1e9/r - 1e9/b ns: what an attached program
 * or a mode costs each event.  Pure: no I/O.
 */
#ifndef SWEEP_BASELINE_H
#define SWEEP_BASELINE_H

#include <stdbool.h>

#include "model.h"
#include "viewtypes.h"

/*
 * A rate against its baseline rate, each mean ± stddev of independent
 * measurements.  NaN where a figure is unknown: a rate that is not
 * positive, a missing baseline.
 */
struct baseline_delta {
	double ratio;		/* r / b */
	double ratio_sd;
	double over_ns;		/* 1e9 / r - 1e9 / b: ns per event over the baseline */
	double over_ns_sd;
};

/*
 * r (mean ± sd) against b (mean ± sd) into *d.  The two points are
 * measured apart, so their errors are independent and the first-order
 * propagations add in quadrature:
 *   sd(r/b)             = (r/b) · sqrt((sd_r/r)² + (sd_b/b)²)
 *   sd(1e9/r - 1e9/b)   = sqrt((1e9·sd_r/r²)² + (1e9·sd_b/b²)²)
 * An unknown stddev (an imported mean alone) leaves only the sd unknown.
 */
void baseline_delta(double r, double sd_r, double b, double sd_b, struct baseline_delta *d);

/*
 * Is point bv (values per parameter) the baseline of point v under ref:
 * the same value of every parameter but ref->param, which is ref->val?
 */
bool baseline_pairs(const struct baseline_ref *ref, int nr_params, const long long *v,
		    const long long *bv);

/*
 * Row r's baseline among rows[0..nr) of view v (one run's): an ok row of
 * r's experiment that pairs with r.  NULL when the experiment has no
 * baseline, or the point is missing or not ok.  A point may be its own
 * baseline (a ratio of 1, 0 ns over).  A linear search: the table and
 * summary.csv ask it once per row, so a sweep of n points costs n² tuple
 * comparisons, well under a second for the 10^4 points a sweep of
 * seconds-long points reaches in a day.
 */
const struct view_row *baseline_find_row(const struct result_view *v, const struct view_row *r,
					 const struct view_row *const *rows, int nr);

/*
 * Metric m of ok row r against ok row base (NULL: unknown) into *d, from
 * the table's figures (r->stat); the baseline row against itself is 1 and
 * 0 ns exactly.
 */
void baseline_of_row(const struct view_row *r, const struct view_row *base, int m,
		     struct baseline_delta *d);

/* baseline_of_row() of the rows' unrounded figures (row->exact): summary.csv's, the exports'. */
void baseline_of_exact(const struct view_row *r, const struct view_row *base, int m,
		       struct baseline_delta *d);

/* Does any experiment of cfg set a baseline? */
bool cfg_has_baseline(const struct sweep_cfg *cfg);

#endif
