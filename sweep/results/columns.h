/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.csv's column table (veristat's stat_defs): each column's name,
 * kind, unit, direction, statistic and getter in one row, so the header,
 * every row and columns.csv (what each column is, for the reader) are
 * written from the same list and cannot drift apart.  Layout:
 * docs/results.md.
 */
#ifndef SWEEP_COLUMNS_H
#define SWEEP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bind.h"
#include "colname.h"
#include "result.h"
#include "viewtypes.h"

/*
 * A set no spec describes: rows published elsewhere (import.h).  Its
 * metrics are rates (counters) or levels (gauges) with their unit ("bytes",
 * "ns") in their columns' names (colname_level()).
 */
struct published_metric {
	const char *name;		/* samples.csv's column: letters, digits and '_' */
	enum col_kind kind;		/* CK_COUNTER or CK_GAUGE */
	const char *unit;		/* a level's, "bytes" or "ns"; NULL for a rate */
	enum metric_better better;
	int decimals;			/* of its cells: 0 for whole bytes */
};

struct published_layout {
	const char *const *params;	/* the parameters' names */
	int nr_params;
	const struct published_metric *metrics;
	int nr_metrics;
};

/*
 * One published row: an ok point with the mean and stddev its text gave
 * (NAN where it gave none), everything else of a run unknown.  Text cells
 * as they are to be written (a label a spreadsheet would run already
 * defused).
 */
struct published_row {
	int exp, point;
	const char *experiment;
	const char *const *params;	/* per parameter; NULL: none */
	const double *mean, *stddev;	/* per metric */
};

/* Where a row's cells come from: a run's point (cfg, pr), or a published row (layout, row). */
struct col_src {
	const struct sweep_cfg *cfg;
	const struct point_result *pr;
	const struct published_layout *layout;
	const struct published_row *row;
};

struct col_def;

/* One column of a summary.csv: a definition, for a parameter or metric when it is one's. */
struct column {
	const struct col_def *def;
	int idx;			/* the parameter's or metric's index; -1 */
	char name[96];			/* its header cell */
	const char *metric;		/* its metric's name ("ns_per_run"); NULL */
	const char *stat;		/* the metric's statistic ("mean"); NULL */
	enum col_kind kind;
	const char *unit;		/* of its cells (columns.csv): "1/s", "%", ""; never NULL */
	enum metric_better better;	/* which way its values are better */
	bool has_better;		/* false: no direction (a spread, a count, not a metric) */
};

/*
 * The columns of cfg's summary.csv into a new array *out[0..*nr); with
 * units false, those of a summary.csv from before the units' columns
 * (unit_kind, stop, half_width_pct, M_units, M_unit_sd).  0 or -ENOMEM.
 */
int columns_of(const struct sweep_cfg *cfg, bool units, struct column **out, int *nr);

/*
 * The columns of a summary.csv of published rows: those of a run's from
 * before the units' columns, a parameter's for each of l's, and the
 * statistics of each of l's metrics.  0 or -ENOMEM.
 */
int columns_of_published(const struct published_layout *l, struct column **out, int *nr);

/* Column c's cell of s->pr or s->row: buf, or a string of theirs (cpus, a text cell). */
const char *column_cell(const struct column *c, const struct col_src *s, char *buf, size_t len);

/*
 * Is c relative to a baseline point?  Its cell is empty as a point's row
 * is appended, and filled once the run's whole set is known.
 */
bool column_is_baseline(const struct column *c);

/*
 * Baseline column c's cell of view row r against its baseline row base
 * (NULL: not known), from their unrounded statistics (row->exact): buf,
 * or "".
 */
const char *column_baseline_cell(const struct column *c, const struct view_row *r,
				 const struct view_row *base, char *buf, size_t len);

/* columns.csv: "column,metric,stat,kind,unit,better", then a row per column.  0/-errno. */
int columns_write(FILE *f, const struct column *cols, int nr);

/*
 * summary.csv's n of pr: its measured (non-warmup) intervals, those of no
 * length left out of an ok point as its statistics leave them out.
 */
int point_measured_intervals(const struct point_result *pr);

struct spec;

/*
 * Every parameter of cfg's workload named otherwise than each column of
 * summary.csv that is not a parameter (status, n, quality, hits_per_s_mean,
 * rounds, ...): readers find those by name, and would find the parameter
 * first.  An exec spec declares its parameters' names; a clash is a spec
 * error at its [param "NAME"] section.  0, -EINVAL (said) or -ENOMEM.
 */
int columns_check_params(const struct sweep_cfg *cfg, const struct spec *spec);

#endif
