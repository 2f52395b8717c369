/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run's part of a rendered table: what render.c draws and export.c
 * writes for programs, in a header of its own so that neither needs the
 * other's.
 */
#ifndef SWEEP_RENDERBLOCK_H
#define SWEEP_RENDERBLOCK_H

#include "results_read.h"
#include "viewtypes.h"

struct run_facts;	/* table.h */

/* One run's part of the table. */
struct render_block {
	const struct result_view *view;	/* what the table shows */
	const struct view_row *const *rows;	/* point order */
	int nr_rows;
	const char *heading;		/* the line naming the run above it, or NULL */
	const struct run_facts *facts;	/* machine line, smoke-run and TCG marks; or NULL */
	const char *dir;		/* the run's directory, for exports; or NULL */
	const struct result_set *set;	/* its meta, for exports; or NULL */
	/* lines under the table ("\n"-ended; markdown: a list), or NULL */
	const char *footer;
};

#endif
