/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result directory back as the points it holds: its rows tied to the
 * points of a spec by experiment and parameter tuple, and rebuilt as
 * point_results (statistics from the raw counts again), the form the table
 * and the charts draw.  --resume ties a directory to the points it is about
 * to complete; report ties one to the spec as run, or to an edited one.
 */
#ifndef SWEEP_RESULTLOAD_H
#define SWEEP_RESULTLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "bind.h"
#include "matrix.h"
#include "plan.h"
#include "result.h"
#include "results_read.h"

/* Is summary row p the point pt: same experiment, same value of every parameter? */
bool resultload_same_point(const struct result_set *set, const struct result_point *p,
			   const struct sweep_cfg *cfg, const struct point *pt, char *why,
			   size_t len);

/* Row p as the point_result of pt, its rates summarized again; 0 or -errno. */
int resultload_rebuild(const struct result_set *set, const struct result_point *p,
		       const struct point *pt, struct point_result *r);

/* A result directory ready to render. */
struct loaded_run {
	char *dir;
	struct result_set *set;
	struct spec *spec;		/* what is drawn: the spec as run, --spec, --set */
	struct sweep_cfg *cfg;		/* NULL: a set without a spec (its view describes it) */
	struct plan plan;		/* cfg's points */
	struct point_result *res;	/* the rows tied to plan's points, point order; or NULL */
	int *idx;			/* the rows shown: res[i]'s in set->points (and the view's) */
	int nr_res;
	int nr_hidden;			/* rows of points the spec drawn does not have */
};

/*
 * Read dir, bind the spec to draw (spec_path, or the spec as run, with the
 * --set assignments), and tie every summary row to its point: first to the
 * spec as run by point id and parameter tuple, then, when the spec drawn is
 * another, to the point of that spec with the same experiment and tuple.
 * A set without a spec (imported) has no cfg nor res: its view describes
 * it (viewdesc.h), every row shown in file order, and spec_path and sets
 * give only [report] keys (lr->spec, viewdesc_report()).
 * Errors are reported (spec errors at their location); 0, -EINVAL, -errno.
 */
int resultload_open(const char *dir, const char *spec_path, const char *const *sets,
		    int nr_sets, struct loaded_run *lr);

/* Free lr, also after resultload_open() failed. */
void resultload_free(struct loaded_run *lr);

#endif
