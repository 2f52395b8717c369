/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --resume DIR: tie the result set an interrupted (or partly failed) run
 * left in DIR to the points the command line expands to now, so that the
 * sweep runs only the points without a finished row.
 */
#ifndef SWEEP_RESUME_H
#define SWEEP_RESUME_H

#include <stdbool.h>

#include "bind.h"
#include "matrix.h"
#include "meta.h"
#include "result.h"
#include "results_read.h"

struct resume {
	struct result_set *set;
	bool fresh;			/* DIR is empty: a run killed before it wrote anything */
	bool need_meta;			/* a run killed before it wrote meta */
	bool *has_row;			/* per point: a row that stays (not run again) */
	int nr_kept;			/* points with a row that stays */
	const char **tags;		/* the run's --tag values, from meta, NULL-terminated */
};

/*
 * Check that DIR holds a run of this spec (DIR/spec against the spec as
 * the command line gives it now), with the same run options and on the
 * same host and kernel (against meta; any_machine: a run of another
 * kernel, whose rows a kernel sweep completes, see the fail-all setting); tie its summary rows to pts by
 * point id and parameter tuple; drop the rows of points that did not
 * finish (failed, interrupted, or samples without a summary row) and that
 * this run runs again (all, or those of experiment `only`) from both CSVs,
 * each rewritten through a temporary file.  Every refusal is reported;
 * returns 0, -EINVAL when DIR does not match, or -errno.
 */
int resume_prepare(const char *dir, const struct spec *spec, const struct sweep_cfg *cfg,
		   const char *only, const struct point *pts, int nr_pts, bool any_machine,
		   struct resume *out);

/*
 * The spec as the command line gives it now against was, the text of
 * DIR/spec; a difference is reported at its first line.  0, -EINVAL or
 * -errno.
 */
int resume_check_spec(const char *dir, const char *was, const struct spec *spec);

/* The start time and tags the run was begun with, for meta; 0 or -ENOMEM. */
int resume_run_info(struct resume *rs, struct run_info *ri);

void resume_free(struct resume *rs);

#endif
