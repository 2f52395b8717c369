/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result directory back as the points it holds: its rows tied to the
 * points of a spec by experiment and parameter tuple: which rows the spec
 * drawn shows (report's --spec, --set), in its point order, and what each
 * is there (its experiment, its values), which the result view the table,
 * charts and exports draw then takes (draw.c), and from which a run's end
 * fills summary.csv's baseline columns (results.h).  A row is its point
 * when rowpoint.h says so.
 */
#ifndef SWEEP_RESULTLOAD_H
#define SWEEP_RESULTLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "bind.h"
#include "matrix.h"
#include "plan.h"
#include "results_read.h"
#include "viewtypes.h"

/* A result directory ready to render. */
struct loaded_run {
	char *dir;
	struct result_set *set;
	struct spec *spec;		/* what is drawn: the spec as run, --spec, --set */
	struct sweep_cfg *cfg;		/* NULL: a set without a spec (its view describes it) */
	struct plan plan;		/* cfg's points */
	const struct point **pts;	/* the rows shown: their points of plan, point order */
	int *idx;			/* the row of pts[i] in set->points (and the view's) */
	int nr_shown;			/* of pts and idx */
	int nr_hidden;			/* rows of points the spec drawn does not have */
	/*
	 * A set written before its workload's load figures (WL_LOAD_METRICS)
	 * existed: the workload as it was then, without them, which cfg
	 * points at; NULL for a set of today's columns.
	 */
	struct workload *older_wl;
};

/*
 * Read dir, bind the spec to draw (spec_path, or the spec as run, with the
 * --set assignments), and tie every summary row to its point: first to the
 * spec as run by point id and parameter tuple, then, when the spec drawn is
 * another, to the point of that spec with the same experiment and tuple.
 * A set without a spec (imported) has no cfg nor pts: its view describes
 * it (viewdesc.h), every row shown in file order, and spec_path and sets
 * give only [report] keys (lr->spec, viewdesc_report()).
 * Errors are reported (spec errors at their location); 0, -EINVAL, -errno.
 */
int resultload_open(const char *dir, const char *spec_path, const char *const *sets,
		    int nr_sets, struct loaded_run *lr);

/*
 * The rows of v (lr's set's view, built with lr->cfg) at their points of
 * the spec drawn: each shown row's id, experiment and values those of its
 * point there (an untitled experiment keeps its place when --set title
 * renames it; an edited spec numbers and orders its points otherwise).
 * The same as the run's for the spec as run.
 */
void resultload_place(const struct loaded_run *lr, struct result_view *v);

/*
 * lr's view (view_build()) as report, a run's end and the HTML page draw
 * it: its rows placed at the points of the spec drawn (resultload_place());
 * a set without a spec described by itself, with --spec's and --set's
 * [report] keys.  A refusal is reported; 0 or -errno.
 */
int resultload_view(const struct loaded_run *lr, struct result_view **v);

/* Free lr, also after resultload_open() failed. */
void resultload_free(struct loaded_run *lr);

#endif
