/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a summary.csv column is, and its name: the one place that spells a
 * metric's statistic as a column name ("hits_per_s_mean", "mem_mean",
 * "ns_per_run_mean", "hits_vs_base_mean") and the one that reads such a
 * name back, for result directories written before columns.csv said what
 * each column is (docs/results.md).  The writer's table is columns.h; the
 * reader is results_read.h.
 */
#ifndef SWEEP_COLNAME_H
#define SWEEP_COLNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "metricdef.h"

/* The derived metric of the program counters (progrun.h), as summary.csv names it. */
#define COLNAME_NS_PER_RUN METRIC_NS_PER_RUN

/* What a column holds. */
enum col_kind {
	CK_ID,		/* which point: exp, point, experiment */
	CK_PARAM,	/* a parameter's value */
	CK_RUN,		/* a fact of the point's run: status, n, quality, ... */
	CK_COUNTER,	/* a statistic of a counter's per-second rates */
	CK_GAUGE,	/* a statistic of a gauge's levels (bytes) */
	CK_RATIO,	/* a statistic of a derived ratio: ns_per_run */
};

/* "id", "param", "run", "counter", "gauge", "ratio". */
const char *col_kind_name(enum col_kind k);

/* The kind called s; false for any other word. */
bool col_kind_parse(const char *s, enum col_kind *k);

/* Is k a metric's kind (counter, gauge, ratio)? */
bool col_kind_is_metric(enum col_kind k);

/*
 * The unit of the cells of statistic stat of a metric of kind k: "1/s"
 * of a counter's rates, "bytes" of a gauge's levels, "ns" of ns_per_run
 * and of the time over a baseline, "ratio" of the ratio to it, "" of a
 * count ("units").
 */
const char *col_unit(enum col_kind k, const char *stat);

/* summary.csv's name of statistic stat of metric of kind k into buf. */
void colname_stat(char *buf, size_t len, const char *metric, enum col_kind k, const char *stat);

/*
 * An imported level's statistic with its unit ("bytes" or "ns") in the
 * name, as the import writes it: "avg_mem_bytes_mean", "latency_ns_mean"
 * (docs/import.md); colname_parse() reads it back as metric's.
 */
void colname_level(char *buf, size_t len, const char *metric, const char *unit,
		   const char *stat);

/* columns.csv's header: a row per summary.csv column follows, in its order. */
#define COLNAME_CSV_COLS 6
extern const char *const colname_csv_header[COLNAME_CSV_COLS];

/* A column name read back as a metric's statistic. */
struct colname {
	char metric[64];
	char stat[32];
	enum col_kind kind;
	char unit[16];		/* of its cells: col_unit()'s, or an imported level's "ns" */
};

/*
 * What name says, for a set without columns.csv: a counter's statistic
 * ("M_per_s_STAT", "M_over_base_ns_mean", "M_vs_base_sd"), ns_per_run's
 * ("ns_per_run_STAT"), or a gauge's ("M_STAT" where is_level(ctx, M) says
 * M is a metric column of samples.csv; "M_bytes_STAT", "M_ns_STAT" of an
 * imported one, colname_level()).  false for any other name.
 */
bool colname_parse(const char *name, bool (*is_level)(const void *ctx, const char *metric),
		   const void *ctx, struct colname *out);

#endif
