/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page of a bisect (docs/kernel.md, "The record"): OUT/bisect.html,
 * one static file beside steps.csv and bisect.txt, through the pages'
 * writer (render/html.h: its escaping, its frame and CSP).  It holds how
 * the ends differ and how the bisect ended (the first bad and the last
 * good kernel, or why none), a chart of the kernels in their order on x
 * and each step's figure on y (render/axischart.h): by metric, its change
 * against the good end with its interval, the bad end's too, the good end
 * at 0; by status, the status each kernel ran with; every step marked by
 * its verdict and numbered, the span between the last good and the first
 * bad shaded; then the steps as a sortable table (steps.csv's columns)
 * and every kernel with its state.  Written at the end of a bisect and of
 * each --resume; the same record gives the same bytes.
 */
#ifndef SWEEP_BISECT_PAGE_H
#define SWEEP_BISECT_PAGE_H

#include <stdio.h>

#include "bisect.h"
#include "bisect_kernels.h"
#include "bisect_record.h"
#include "bisectstep.h"

/* What the page shows: the bisect as walked, and the points as the ends judged them. */
struct bisect_page {
	const struct bisect *b;
	const struct bisect_list *l;
	const struct bisect_terms *t;
	const struct bisect_point *pts;	/* NULL when the ends never ran */
	int nr_pts;
};

/* The page to f.  0, or -errno. */
int bisect_page_html(FILE *f, const struct bisect_page *pg);

/* The page into OUT/bisect.html, put whole in place of what was there.  0 or -errno. */
int bisect_page_write(const char *out, const struct bisect_page *pg);

#endif
