/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result view's types (view.h builds it): what its columns are, its
 * experiments with their [report] settings, and its rows as typed
 * values.  Types only, so that the builder's parts and the renderers
 * share them without including each other.
 */
#ifndef SWEEP_VIEWTYPES_H
#define SWEEP_VIEWTYPES_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"
#include "result.h"

/*
 * What a view knows of a metric and parameter is held in the descriptor
 * types (param.h, workload.h: name, type and choices; name, kind, unit,
 * per_thread, source and direction), gathered in a `schema` that has no
 * callbacks, so that the values-template and label parsers read a set as
 * they read a spec.
 */
struct view_exp {
	const char *title;		/* NULL: the run's */
	/* [report]: parameter indexes are the view's, metric indexes too */
	const char *label;		/* a label template, or NULL */
	const char *values;		/* a values template, or NULL: the schema's */
	bool worker_rows;
	struct baseline_ref baseline;
	int group;			/* parameter, or -1 */
	struct plot_req plots[MAX_PLOTS];
	int nr_plots;
	enum plot_logx logx;
	/*
	 * The parameters in nesting order, outermost first (a label names the
	 * varying ones in it), each with its values in the order the spec
	 * lists them, else first seen (groups follow it); varying: two or more.
	 */
	int order[WL_MAX_PARAMS];
	int nr_order;
	const long long *vals[WL_MAX_PARAMS];	/* by parameter, not by order */
	int nr_vals[WL_MAX_PARAMS];
	bool linked[WL_MAX_PARAMS];	/* follows another parameter: one value, no axis */
	long long *own_vals[WL_MAX_PARAMS];	/* of a set without a spec */
};

struct view_row {
	long long id;			/* the point's id in its run */
	int exp;			/* index into view->exps, -1: none of them */
	int line;			/* of summary.csv, 1-based like csv_table rows */
	long long v[WL_MAX_PARAMS];	/* a number, or an enum's index into its choices */
	enum point_status status;
	const char *reason;		/* "" when none */
	const char *cpus;
	int nr_producers, nr_consumers, nr_cpus, tries;
	long long n;			/* measured intervals; 0 unknown (imported) */
	struct quality quality;
	struct summary stat[WL_MAX_METRICS];	/* NaN where a cell is empty */
	/*
	 * What summary.csv's cells say of each metric's independent units
	 * (M_units, M_unit_sd, unit_kind; mean: M_mean): a row without
	 * intervals has no others (a copied summary).  n -1, UK_NONE, sd NaN
	 * without those cells (imported, or written before them).
	 */
	struct units unit[WL_MAX_METRICS];
	struct summary worker_rate;	/* of the per_thread metric's producers */
	struct summary per_run;		/* ns per program run, n = 0 unknown */
	double *thread_rate;		/* [nr_producers], from samples.csv; or NULL */
	/*
	 * The same figures unrounded, as the run computed them: an ok row's
	 * intervals summarized again (viewstats.h), else summary.csv's cells.
	 * The exports and charts show these, the table the cells above.
	 */
	struct view_exact {
		struct summary stat[WL_MAX_METRICS];
		struct summary worker_rate;
		struct summary per_run;
		/* each metric's independent units (UK_NONE without intervals) */
		struct units unit[WL_MAX_METRICS];
		/* ns per run's, of the intervals where a program ran (UK_NONE: none) */
		struct units per_run_unit;
	} exact;
	bool has_intervals;		/* samples.csv holds its intervals (not imported) */
	/* with decide: its ratio to its baseline decided, "different: +5.0 % [...]"; "" none */
	const char *decision;
};

/*
 * The label templates of a set's stored spec (viewlabel.h), for a view
 * described by the set's own columns: NULL none, "" the default label.
 */
struct view_own_label {
	char *title;			/* of a [params "title"] section */
	char *tpl;
};

struct view_labels {
	char *report;			/* [report]'s */
	char *untitled;			/* an untitled [params] section's */
	struct view_own_label *own;	/* the titled sections', in the spec's order */
	int nr_own;
};

struct result_view {
	struct workload schema;		/* name, params, metrics, values; no callbacks */
	struct param_def params[WL_MAX_PARAMS];
	struct metric_def metrics[WL_MAX_METRICS];
	const char *title;		/* the run's, for experiments without their own */
	int max_cv;			/* percent, of the quality notes; 0 none */
	struct view_exp *exps;
	int nr_exps;
	struct view_row *rows;		/* summary.csv's order */
	int nr_rows;
	bool decisions;			/* a run with decide: rows carry their decision */
	/* a set without a spec: its enum values seen, and what meta says of each metric */
	const char **choices[WL_MAX_PARAMS];
	char units[WL_MAX_METRICS][16];	/* each metric's display unit meta gives */
	struct view_labels labels;	/* what its stored spec labels rows by (compare's) */
	/* lines printed under a row of the text table, indented by indent (report --profile) */
	void (*under_row)(FILE *out, const struct view_row *r, int indent, const void *ctx);
	const void *under_ctx;
};

#endif
