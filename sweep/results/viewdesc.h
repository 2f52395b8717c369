/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result set that holds no spec (numbers imported from bench output)
 * described by its own columns and rows, for its view (view.h): its
 * parameters are the columns between `experiment` and `status` (a column
 * of integers an int parameter, any other an enum of the values seen),
 * its metrics the mean columns of counters and gauges, with the unit and
 * direction meta gives them; each experiment title one experiment, with
 * the values seen in row order and a default report: the `label` column
 * as the label, and a chart of the first int parameter that varies
 * against the first metric.
 */
#ifndef SWEEP_VIEWDESC_H
#define SWEEP_VIEWDESC_H

#include <stddef.h>

#include "results_read.h"
#include "spec.h"
#include "viewtypes.h"

/* v's schema from set's columns; 0, -EINVAL (why says why) or -ENOMEM. */
int viewdesc_schema(struct result_view *v, const struct result_set *set, char *why, size_t len);

/* One experiment per title of set, in the order of their first rows; 0 or -ENOMEM. */
int viewdesc_exps(struct result_view *v, const struct result_set *set);

/* Once v's rows are typed: each experiment's values and its default report; 0 or -ENOMEM. */
int viewdesc_axes(struct result_view *v);

/*
 * The [report] section of s (report's --spec and --set: label, values,
 * worker_rows, baseline, group, plot, logx), checked against v's schema,
 * over every experiment's default report; s must outlive v (label and
 * values point into it).  0, or -EINVAL after reporting each error
 * (diag.h, at its file:line:col).
 */
int viewdesc_report(struct result_view *v, const struct spec *s);

#endif
