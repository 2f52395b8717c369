/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drawing result directories again from their files, running nothing: the
 * table and charts of one directory redrawn in place, or of several runs
 * drawn together into a new directory (a table block per run, a chart
 * series per run, named by a meta fact or tag).  A library call: the
 * report and merge commands, the kernel sweep and the fleet draw through
 * it, each with the options it has, and so does a run at its end.
 */
#ifndef SWEEP_DRAW_H
#define SWEEP_DRAW_H

#include <stdbool.h>

#include "outfmt.h"

/* The HTML page of the one directory drawn (htmlpage.h). */
enum draw_page {
	DRAW_NO_PAGE,
	DRAW_PAGE,		/* DIR/report.html too, after its table and charts */
	DRAW_PAGE_ONLY,		/* report --html: the page alone, nothing else drawn */
};

struct draw_opts {
	const char *const *args;	/* the result directories (a merged set: its runs) */
	int nr_args;
	const char *outdir;		/* several: the new directory; NULL: args[0] in place */
	const char *spec_file;		/* labels, groups and charts from this spec, or NULL */
	const char *const *sets;	/* --set overrides of the spec drawn */
	int nr_sets;
	const char *by;			/* what names each run (run_by_check()), or NULL: picked */
	const char *normalize;		/* "first": charts relative to the first run, or NULL */
	const char *per;		/* charts per unit of this number parameter, or NULL */
	bool no_plots;
	bool no_html;			/* a run's end: no report.html (nor with no_plots) */
	unsigned int plot_timeout_s;	/* 0: the default */
	enum out_format format;		/* the table echoed on stdout */
	bool print_only;		/* the table printed, nothing written (report -f json) */
	bool profile;			/* each point's top symbols under its printed row */
	/*
	 * The page of the one directory (in place), from the runs read for the
	 * table and charts: read once.  It shows the directory as run, so with
	 * spec_file or sets (not sets_as_run) it reads the directory again so.
	 */
	enum draw_page page;
	const char *page_out;		/* DRAW_PAGE_ONLY: into this file; NULL: DIR/report.html */
	bool sets_as_run;		/* sets are the run's own, in its spec as run (a sweep's OUT) */
};

/*
 * Draw as d says, d->page too; an exit status (cli.h: EXIT_OK,
 * EXIT_POINTS_FAILED, EXIT_USAGE): a page not written is EXIT_POINTS_FAILED.
 */
int draw_runs(const struct draw_opts *d);

/* The one result directory dir drawn in place, with d's other options (a merge's OUT). */
int draw_in_place(const struct draw_opts *d, const char *dir);

/*
 * A run's own directory dir drawn at the run's end, read back from its
 * files as report reads it, so that the table a run prints and the one a
 * report of its directory prints come from one path.  The baseline
 * columns of its summary.csv, which need the whole set, are filled first
 * from the rows read back.  Only d's no_plots, plot_timeout_s, format and
 * profile count.  table.txt is created (with replace, a --resume's, it replaces
 * the one there), the charts go straight into plots/, and the table is
 * printed on stdout in d->format unless quiet (a kernel sweep's sub-run).
 * Then each profiled point's flame graph, drawn once into memory, written
 * as profiles/<point>.svg (flamefile.h) and, unless d->no_plots or
 * d->no_html, put on report.html, the page of the directory (htmlpage.h),
 * which takes the runs read for the table: the directory is read, bound
 * and viewed once.  Errors are reported; 0 or -errno.
 */
int draw_run_end(const struct draw_opts *d, const char *dir, bool replace, bool quiet);

#endif
