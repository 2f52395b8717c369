/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Charts: for every experiment's "plot = X vs Y by Z", write
 * plots/<name>.dat and plots/<name>.gp (kept, for restyling) and render
 * them with gnuplot to .png and .svg.  File formats: docs/results.md.
 */
#ifndef SWEEP_PLOT_H
#define SWEEP_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bind.h"
#include "gnuplot.h"
#include "plotchart.h"
#include "viewtypes.h"

struct run_facts;	/* table.h */

/* How long one gnuplot may take before it is killed, unless the caller says. */
#define PLOT_TIMEOUT_S	60

/*
 * Into dir/plots (created), for each plot request of v's experiments: the
 * .dat and .gp of every chart that has an ok point among rows[0..nr)
 * (v's rows, or rows of other runs placed on v's experiments: viewmap.h),
 * then gnuplot on each, killed after timeout_s seconds (0:
 * PLOT_TIMEOUT_S).  po (NULL: as the run draws): run_label[i] (the run of
 * rows[i]) begins the name of its series, so each run gets its own line
 * of each series; per and relative make scaling charts, " per <param>"
 * and " relative" added to their names.  Every error is reported here; a
 * chart that fails does not stop the others.  Returns 0, or -errno:
 * -ENOENT when the template or gnuplot is missing (the .gp and .dat are
 * still written when only gnuplot is), -EIO when gnuplot fails,
 * -ETIMEDOUT when it had to be killed.
 */
int plot_render_rows(const char *dir, const struct result_view *v, const struct run_facts *facts,
		     const struct view_row *const *rows, int nr, const struct plot_opts *po,
		     unsigned int timeout_s);

/*
 * Before a sweep: when cfg asks for charts, is gnuplot on $PATH?  Reports
 * the error (install it or pass --no-plots) and returns -ENOENT if not.
 */
int plot_check_gnuplot(const struct sweep_cfg *cfg);

#endif
