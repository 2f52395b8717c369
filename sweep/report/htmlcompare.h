/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare BASE NEW --html: the comparisons cmd_compare.c built, as one
 * static HTML page (docs/html.md): per comparison the two sets, the notes,
 * and a sortable table of every point and metric compared (base, new, Δ %,
 * p, the verdict with why a change is inconclusive), regressions first,
 * then by the size of the change, ns_per_run's rows last with a note why;
 * the points not compared with why.
 */
#ifndef SWEEP_HTMLCOMPARE_H
#define SWEEP_HTMLCOMPARE_H

#include <stdio.h>

#include "compare_print.h"

/* cs[0..nr) to f; 0 or -ENOMEM. */
int html_compare(FILE *f, const struct comparison *cs, int nr, double alpha);

#endif
