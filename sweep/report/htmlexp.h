/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An experiment's section of the HTML page (htmlpage.h): its charts (each
 * an <img> of gnuplot's SVG as a data: URI), the cover-letter block as table.c writes it, the
 * sortable table (htmltable.h), the points not measured with their
 * reasons, and the top symbols of its profiled points.
 */
#ifndef SWEEP_HTMLEXP_H
#define SWEEP_HTMLEXP_H

#include <stdio.h>

#include "htmlrun.h"

/*
 * The charts dir/plots/<head>*.svg, by name, each an <img> of its bytes as
 * a data: URI (a note for one that cannot be read).
 */
void html_charts(FILE *f, const char *dir, const char *head);

/* Experiment x's section (x -1: the rows of no experiment of the spec, if any); 0 or -ENOMEM. */
int html_exp_section(FILE *f, const struct html_run *run, int x);

#endif
