/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Charts: for every experiment's "plot = X vs Y by Z", write
 * plots/<name>.dat and plots/<name>.gp (kept, for restyling) and render
 * them with gnuplot to .png and .svg.
 */
#ifndef SWEEP_PLOT_H
#define SWEEP_PLOT_H

#include "bind.h"
#include "result.h"

/* Returns 0, or -errno (e.g. -ENOENT when gnuplot is missing, reported). */
int plot_render(const char *dir, const struct sweep_cfg *cfg,
		const struct point_result *results, int nr);

#endif
