/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sortable HTML table of an experiment's rows: a row per point with
 * its label, status, each metric's mean, stddev and 95% CI half-width, n,
 * the quality flags and the reason.  Numbers show in the metric's display
 * unit (metric.h), which the header names; a metric no row has a mean of
 * (the program counters, unread) is left out.  Each cell also keeps
 * summary.csv's own text in data-v, what the sort orders by and a reader
 * (or a test) can match against summary.csv.  Readable without the script: it only sorts.
 */
#ifndef SWEEP_HTMLTABLE_H
#define SWEEP_HTMLTABLE_H

#include <stdio.h>

#include "htmlrun.h"

/* rows[0..nr) of run as a table with id "table-<id>". */
void html_table(FILE *f, const struct html_run *run, const struct view_row *const *rows, int nr,
		const char *id);

#endif
