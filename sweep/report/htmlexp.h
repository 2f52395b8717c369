/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An experiment's section of the HTML page (htmlpage.h): its charts inline
 * (rebuilt by htmlsvg.h), the cover-letter block as table.c writes it, the
 * sortable table (htmltable.h), the points not measured with their
 * reasons, and the top symbols of its profiled points.
 */
#ifndef SWEEP_HTMLEXP_H
#define SWEEP_HTMLEXP_H

#include <stdio.h>

#include "htmlrun.h"

/*
 * The charts dir/plots/<head>*.svg, by name, inline (a note for one that
 * is refused); their ids prefixed by idp and what tells them apart.
 */
void html_charts(FILE *f, const char *dir, const char *head, const char *idp);

/* Experiment x's section (x -1: the rows of no experiment of the spec, if any); 0 or -ENOMEM. */
int html_exp_section(FILE *f, const struct html_run *run, int x);

#endif
