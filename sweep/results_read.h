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

struct result_set {
	char *spec;			/* the spec as run; NULL when absent */
	struct result_meta *meta;	/* in file order; keys may repeat (tag, config) */
	int nr_meta;
	bool has_samples, has_summary;	/* the files exist (a kill may keep them from it) */
	struct csv_table samples;	/* row 0 the header; empty when absent */
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
};

/* Column indexes of samples.csv's fixed columns (docs/results.md). */
enum { RS_S_POINT, RS_S_EXPERIMENT, RS_S_REP, RS_S_INTERVAL, RS_S_WARMUP, RS_S_ELAPSED };

/*
 * Read dir.  Missing files are not errors (a run killed at its start has
 * not made them all); malformed ones are -EINVAL with why saying where.
 * Returns 0 or -errno.
 */
int results_read(const char *dir, struct result_set **out, char *why, size_t whylen);

/*
 * dir/meta alone, into a set that holds nothing else (what a run shows
 * of itself when its rows are in memory).  Returns 0 or -errno.
 */
int results_read_meta(const char *dir, struct result_set **out);

/* The value of the first meta line with key, or NULL. */
const char *result_meta(const struct result_set *rs, const char *key);

/* Column index of name in the summary header, or -1. */
int result_summary_col(const struct result_set *rs, const char *name);

/* Summary row's cell METRIC_per_s_STAT ("hits", "mean") as a number; NaN when absent or empty. */
double result_summary_rate(const struct result_set *rs, int row, const char *metric,
			   const char *stat);

/*
 * Is metric a gauge, summarized as levels in columns METRIC_STAT ("mem_mean")
 * rather than as rates in METRIC_per_s_STAT?  So the summary says when metric
 * is a samples column with a METRIC_mean summary column.
 */
bool result_metric_is_gauge(const struct result_set *rs, const char *metric);

/*
 * Summary row's statistic of metric as a number, whatever its kind:
 * METRIC_per_s_STAT of a counter, METRIC_STAT of a gauge; NaN when absent
 * or empty.  stat is one of docs/results.md ("mean", "worker_max").
 */
double result_summary_stat(const struct result_set *rs, int row, const char *metric,
			   const char *stat);

/*
 * The metric whose mean summary column col is: "hits" of "hits_per_s_mean"
 * (*gauge false), "mem" of "mem_mean" when mem is a samples column (*gauge
 * true).  false for any other column ("hits_per_s_worker_mean" too).
 */
bool result_mean_column(const struct result_set *rs, const char *col, char *metric,
			size_t len, bool *gauge);

void result_set_free(struct result_set *rs);

#endif
