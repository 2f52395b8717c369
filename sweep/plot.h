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
#include "result.h"

struct run_facts;	/* table.h */

/* How long one gnuplot may take before it is killed, unless the caller says. */
#define PLOT_TIMEOUT_S	60

/*
 * Into dir/plots (created), for each experiment's plot requests: the .dat
 * and .gp of every chart that has an ok point, then gnuplot on each, killed
 * after timeout_s seconds (0: PLOT_TIMEOUT_S).  Every error is reported
 * here; a chart that fails does not stop the others.  Returns 0, or -errno:
 * -ENOENT when the template or gnuplot is missing (the .gp and .dat are
 * still written when only gnuplot is), -EIO when gnuplot fails,
 * -ETIMEDOUT when it had to be killed.
 */
int plot_render(const char *dir, const struct sweep_cfg *cfg, const struct run_facts *facts,
		const struct point_result *results, int nr, unsigned int timeout_s);

/* What a report changes in the charts. */
struct plot_opts {
	const char *const *run_label;	/* per result: its run's label, or NULL for one run */
	const char *per;		/* y per unit of this parameter (its name), or NULL */
	bool relative;			/* y relative to the first point of its series */
};

/*
 * plot_render() with po (NULL: as the run draws).  run_label[i] (the run
 * of results[i], rows of several runs all tied to cfg's experiments)
 * begins the name of its series, so each run gets its own line of each
 * series.  per and relative make scaling charts, " per <param>" and
 * " relative" added to their names.
 */
int plot_render_runs(const char *dir, const struct sweep_cfg *cfg, const struct run_facts *facts,
		     const struct point_result *results, int nr, const struct plot_opts *po,
		     unsigned int timeout_s);

/*
 * Before a sweep: when cfg asks for charts, is gnuplot on $PATH?  Reports
 * the error (install it or pass --no-plots) and returns -ENOENT if not.
 */
int plot_check_gnuplot(const struct sweep_cfg *cfg);

/*
 * Path of chart template `name` into buf, first readable of:
 *   1. <directory of /proc/self/exe>/plots/            the build tree
 *   2. <directory of /proc/self/exe>/../share/bpfsweep/plots/   make install
 *   3. plots/ under the current directory              tests, odd layouts
 * Returns 0, or -ENOENT (buf then holds the last path tried).
 */
int plot_template_find(const char *name, char *buf, size_t len);

/*
 * s as the inside of a gnuplot "..." string that nothing in gnuplot can
 * interpret: letters, digits, space and -_.,:=+/() as they are, control
 * characters as spaces, every other byte as a \ooo octal escape.
 */
void plot_escape(FILE *f, const char *s);

#endif
