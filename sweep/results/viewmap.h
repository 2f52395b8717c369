/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row of one result view placed on another view's experiments, for
 * charts of several runs (report of several directories, a merged set):
 * each run is read as its own view, and the charts draw the first run's
 * experiments.  Experiments match by title, parameters and metrics by
 * name, an enum's values by name: nothing is bound again.
 */
#ifndef SWEEP_VIEWMAP_H
#define SWEEP_VIEWMAP_H

#include <stdbool.h>

#include "viewtypes.h"

/*
 * The same workload, by name and parameters (name and type, in order): an
 * exec descriptor is made anew by every bind of its spec, so pointers differ.
 */
bool view_same_params(const struct workload *a, const struct workload *b);

/*
 * Can rows of `from` be drawn on the charts of `to`: the same workload
 * name, parameters (view_same_params()) and metrics (name and kind)?
 */
bool view_same_schema(const struct result_view *from, const struct result_view *to);

/*
 * Row r of `from` as a row of `to` into *out (a shallow copy: its
 * thread_rate stays r's): the experiment of the same title (or both the
 * run's own title), enum values by name.  false, out unusable, when `to`
 * has no such experiment or value; the schemas must be the same
 * (view_same_schema()).
 */
bool view_row_onto(const struct result_view *from, const struct view_row *r,
		   const struct result_view *to, struct view_row *out);

#endif
