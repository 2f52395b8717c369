/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table and the charts of a result set, written into its directory:
 * the one path both run (at its end) and report take, both from the
 * directory's files (draw.h), so that a report of an unchanged directory
 * writes what the run wrote.
 */
#ifndef SWEEP_RENDER_H
#define SWEEP_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "bind.h"
#include "outfmt.h"
#include "plot.h"
#include "renderblock.h"
#include "table.h"

struct render_job {
	const struct render_block *blocks;	/* the table: one block per run */
	int nr_blocks;
	/* the charts: every run's rows on chart_view's experiments (viewmap.h), run after run */
	const struct result_view *chart_view;
	const struct run_facts *chart_facts;	/* title marks, one run's machine; or NULL */
	const struct view_row *const *chart_rows;
	struct plot_opts plot;		/* series labels per chart row, scaling */
	int nr_chart;
	bool replace;			/* table.txt replaces the one in the directory */
	bool swap_charts;		/* plots/ is drawn aside and swapped in (report) */
	bool no_plots;
	unsigned int plot_timeout_s;
	FILE *echo;			/* the table is printed here too, or NULL */
	enum out_format echo_format;	/* in this format (table.txt is always text) */
};

/* The table of every block, blocks a blank line apart; 0, -ENOMEM or -EIO. */
int render_table(FILE *f, const struct render_job *job);

/*
 * The table in fmt: text as render_table(), markdown (a "## heading" per
 * run of several), or every block's points as JSON or CSV (export.h).
 */
int render_print(FILE *f, const struct render_job *job, enum out_format fmt);

/*
 * dir/table.txt and dir/plots/.  A new table.txt is created exclusively;
 * with job->replace it replaces the one there by rename.  With
 * job->swap_charts the charts are drawn into dir/.render.tmp/plots and
 * swapped with dir/plots in one rename (RENAME_EXCHANGE), so a reader sees
 * the old charts or the new, never a mix (a kill while gnuplot draws
 * leaves .render.tmp, which the next report removes).  A run draws
 * straight into plots/ (new, or its own of before a --resume).  Errors are
 * reported; returns 0 or the first -errno.
 */
int render_write(const char *dir, const struct render_job *job);

#endif
