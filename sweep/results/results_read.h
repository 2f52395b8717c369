/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a result directory back: the result set a run left (spec as run,
 * meta, summary rows and their samples).  It needs no workload table to
 * make sense: columns are found by name (an `exp` index may come first),
 * parameters are the summary columns between `experiment` and
 * `status`, metrics the samples columns after `elapsed_ns` (but a last
 * `thread`), by name (docs/results.md).  A workload with a per-thread
 * metric has thread rows in samples.csv after each interval's row (the
 * `thread` cell the producer's index): they are kept apart from the
 * whole-point rows, which are all that sample_rows holds.  --resume reads one today; report, compare and merge
 * are to read theirs through it too.
 */
#ifndef SWEEP_RESULTS_READ_H
#define SWEEP_RESULTS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "colname.h"
#include "csvfile.h"

/* One "key: value" line of meta. */
struct result_meta {
	char *key;
	char *value;
};

/* One summary row: a point as it finished (or did not). */
struct result_point {
	long long id;
	int row;			/* in summary, 1-based like csv_table rows */
	const char *experiment;
	const char *status;		/* "ok", "unsupported", "failed", "interrupted", "stalled" */
	long long n;			/* measured intervals the row claims; -1 unknown */
	int *sample_rows;		/* its whole-point rows in samples (intervals), file order */
	int nr_samples;
	int *thread_rows;		/* its thread rows (one per producer and interval) */
	int nr_thread_rows;
};

/*
 * What a summary.csv column is: columns.csv's row for it, or, for a set
 * from before columns.csv (or one whose summary.csv another tool rewrote,
 * so that columns.csv no longer names its columns), what its name says
 * (colname_parse()).
 */
struct result_col {
	const char *name;		/* its header cell */
	char metric[64];		/* "" when it is no metric's */
	char stat[32];			/* of the metric: "mean", "unit_sd", "vs_base_mean" */
	enum col_kind kind;
	char unit[16];			/* of its cells: "1/s", "bytes", "ns", "ratio", "%", "" */
	char better[16];		/* "higher", "lower", ...; "" when not said */
};

struct result_set {
	char *dir;			/* as results_read() was given it: for messages */
	char *spec;			/* the spec as run; NULL when absent */
	struct result_meta *meta;	/* in file order; keys may repeat (tag, config) */
	int nr_meta;
	bool has_samples, has_summary;	/* the files exist (a kill may keep them from it) */
	/* row 0 the header; empty when absent; CSV_ROWS_ONLY: cells by csv_cell() */
	struct csv_table samples;
	struct csv_table summary;
	size_t samples_torn;		/* bytes of an unfinished last line, left unread */
	size_t summary_torn;
	struct result_point *points;	/* one per summary row, in file order */
	int nr_points;
	/* columns */
	int point_col, exp_col;		/* in summary: point and experiment, by header name */
	int first_param, nr_params;	/* in summary: the parameters, by header name */
	int first_metric, nr_metrics;	/* in samples: the metrics, by header name */
	int thread_col;			/* in samples: `thread`, or -1 (no per-thread metric) */
	int slot_col;			/* in samples: `slot`, or -1 (no decide) */
	struct result_col *cols;	/* one per summary column */
	bool cols_recorded;		/* read from columns.csv, not from the names */
};

/* Column indexes of samples.csv's fixed columns (docs/results.md). */
enum { RS_S_POINT, RS_S_EXPERIMENT, RS_S_REP, RS_S_INTERVAL, RS_S_WARMUP, RS_S_ELAPSED };

/*
 * Read dir.  Missing files are not errors (a run killed at its start has
 * not made them all); malformed ones are -EINVAL with why saying where, as
 * a spec error does: every numeric cell is checked (docs/results.md
 * "Reading back"), a bad one named as "DIR/samples.csv:LINE:COL: error: ...",
 * a bad row, header or CSV syntax at column 1 (diag_where()).  why is empty
 * for other errors (no memory, a file unreadable).  Returns 0 or -errno.
 */
int results_read(const char *dir, struct result_set **out, char *why, size_t whylen);

/*
 * results_read()'s refusal printed: why when it says where, else "cannot
 * read DIR: " and err's text.  Every reader prints through it, so report,
 * compare, merge and resume refuse a file alike.
 */
void results_read_diag(const char *dir, int err, const char *why);

/*
 * A refusal of set's file at line, col by a reader above results_read()
 * (the result view): into why as results_read()'s own, "DIR/FILE:LINE:COL:
 * error: ...", so it prints through results_read_diag() alike.  -EINVAL.
 */
int results_refuse(char *why, size_t whylen, const struct result_set *set, const char *file,
		   int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/*
 * A refusal of a row (or the header, line 1) of dir/file that the reader
 * took but its caller does not: printed as results_read()'s are,
 * "DIR/FILE:LINE:COL: error: ...".
 */
void results_diag_row(const char *dir, const char *file, int line, int col, const char *fmt,
		      ...) __attribute__((format(printf, 5, 6)));

/*
 * dir/meta alone, into a set that holds nothing else (what a run shows
 * of itself when its rows are in memory).  Returns 0 or -errno.
 */
int results_read_meta(const char *dir, struct result_set **out);

/* A count cell as bpfsweep writes one: digits only (no sign, no space), into *v. */
bool results_count(const char *s, long long *v);

/* The value of the first meta line with key, or NULL. */
const char *result_meta(const struct result_set *rs, const char *key);

/* Column index of name in the summary header, or -1. */
int result_summary_col(const struct result_set *rs, const char *name);

/* Summary row row's cell of column name (1-based rows, as read), "" where it has none. */
const char *result_summary_cell(const struct result_set *rs, int row, const char *name);

/* The summary column of metric's statistic stat ("hits", "mean"), or -1. */
int result_stat_col(const struct result_set *rs, const char *metric, const char *stat);

/* Is metric a gauge, summarized as levels (bytes) rather than as rates? */
bool result_metric_is_gauge(const struct result_set *rs, const char *metric);

/*
 * Summary row's statistic of metric as a number, whatever its kind; NaN
 * when absent or empty.  stat is one of docs/results.md ("mean",
 * "worker_max", "vs_base_mean").
 */
double result_summary_stat(const struct result_set *rs, int row, const char *metric,
			   const char *stat);

/*
 * The metric whose mean summary column col is, a counter's (*gauge false:
 * "hits" of "hits_per_s_mean") or a gauge's (*gauge true: "mem" of
 * "mem_mean").  false for any other column ("hits_per_s_worker_mean",
 * "ns_per_run_mean" too).
 */
bool result_mean_column(const struct result_set *rs, const char *col, char *metric,
			size_t len, bool *gauge);

void result_set_free(struct result_set *rs);

#endif
