/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cover-letter table, in the kernel bench's format:
 *
 *   Ringbuf, multi-producer contention, overwrite mode
 *   ==================================================
 *   rb-libbpf nr_prod 1      14.970 ± 0.012M/s (drops 0.000 ± 0.000M/s)
 */
#ifndef SWEEP_TABLE_H
#define SWEEP_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "bind.h"
#include "result.h"
#include "runfacts.h"
#include "view.h"

/*
 * Row r's label.  With a template: "{producers}" → that parameter's value.
 * Without: the parameters that vary in its experiment, "producers=4
 * overwrite=off", or the experiment's title when none does.
 */
void table_label(const struct result_view *v, const struct view_row *r, char *buf, size_t len);

/* table_label() of a point of a bound spec (export.c's, until it reads a view). */
void table_point_label(const struct sweep_cfg *cfg, const struct experiment *e,
		       const struct point *pt, char *buf, size_t len);

/*
 * What titles of the run's tables and charts end in: " (smoke run:
 * --quick)", " (VM under TCG emulation: for function, not performance)"
 * or " (TCG icount: instruction path length, not hardware time)", those
 * that apply, or "" (facts may be NULL).
 */
void table_title_notes(const struct run_facts *facts, char *buf, size_t len);

/*
 * One block per experiment that has results, in spec order, separated by a
 * blank line; rows in point order.  A row's numbers follow the values
 * template of the experiment, else the workload's, else show the headline
 * metric, then the others in parentheses, each "mean ± stddev" in its own
 * unit (metric.h).  With worker_rows, each ok row is followed by a line per
 * producer, "0:label 203983 events per sec" as map_perf_test prints them.
 * Why ok rows show "n/a" (their reason: memory could not be read) follows
 * the block's rows, once per reason: "note: memory: why".  A row with quality
 * flags ends in them, " [cv=37%]"; a legend after the table explains each
 * flag shown once.  The label column is as wide as the table's longest
 * label, at least 20.  With e->group set, rows are ordered by
 * the group parameter's values (as the spec lists them, stable), and groups
 * are told apart by a blank line when the labels name the group value, or
 * else by a block of their own titled "Title (group=value)".  Two or more
 * unsupported points of a block (of a titled group) with the same reason
 * show as one line where the first would be: "overwrite=on: 16 points
 * unsupported: why", led by the varying parameters they share.  A quick
 * run's titles end in "(smoke run: --quick)", a TCG run's in "(VM under TCG
 * emulation: for function, not performance)".
 * Returns 0, -ENOMEM, or -EIO when out has an error.
 */
int table_render(FILE *out, const struct result_view *v, const struct run_facts *facts,
		 const struct view_row *const *rows, int nr);

/*
 * The same blocks as GitHub markdown (docs/formats.md): the machine as a
 * list item, a "### Title" heading per block (per titled group), then a
 * table "| point | hits | drops | prog |" (a column per metric; one
 * "values" column where a values template or the status says it all),
 * rows in the same order; notes and the flags' legend as paragraphs below it.
 */
int table_render_markdown(FILE *out, const struct result_view *v,
			  const struct run_facts *facts, const struct view_row *const *rows,
			  int nr);

#endif
