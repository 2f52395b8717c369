/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result set as the renderers see it: what its columns are (parameters,
 * metrics with unit, kind and direction), its experiments with their
 * [report] settings, and its rows as typed values (numbers, not text).
 * One builder makes it from a result set read back (results_read.h) and,
 * when there is one, the spec whose [report] settings apply (the spec as
 * run, or report's --spec and --set); a set without a spec (imported) is
 * described by its own columns and gets a default report.  Nothing of the
 * binder is kept: no points, no plan, no workload callbacks.
 *
 * The table's statistics come from summary.csv's cells, as the run wrote
 * them (three decimals of the base unit).  What the summary does not hold
 * is counted from samples.csv: how many measured intervals each statistic
 * is over (n: a mean over one interval shows "± n/a"), each producer's own
 * rate (a row per producer under a point, [report] worker_rows), and the
 * statistics unrounded (viewstats.h: row->exact), which the exports and
 * charts show, as the run computed them.
 */
#ifndef SWEEP_VIEW_H
#define SWEEP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "results_read.h"
#include "viewtypes.h"

/*
 * The view of set with cfg's experiments and [report] settings (cfg: the
 * spec drawn, bound; NULL for a set described by its own columns, whose
 * experiments are its titles, with a default report, and whose labels are
 * those its stored spec gives: viewlabel.h); set and cfg must outlive it.  Rows
 * of an experiment cfg lacks get exp -1.  0, or -EINVAL with why saying
 * which cell ("summary.csv:LINE: ...") or which point's thread rows
 * ("samples.csv: ..."), or -ENOMEM; free *out with view_free() either way.
 */
int view_build(const struct result_set *set, const struct sweep_cfg *cfg,
	       struct result_view **out, char *why, size_t len);

/*
 * Into the zeroed *v: cfg's schema and experiments, no rows (cfg must
 * outlive v): the part of view_build() that a spec says.  0 or -ENOMEM.
 */
int view_describe_spec(const struct sweep_cfg *cfg, struct result_view *v);

/* The title of experiment e: its own, or the run's. */
const char *view_exp_title(const struct result_view *v, const struct view_exp *e);

void view_free(struct result_view *v);

#endif
