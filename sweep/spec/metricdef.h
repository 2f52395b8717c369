/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine knows of a metric beyond its descriptor (workload.h):
 * the display units it can scale to, which metric is per thread or the
 * kernel's program counters, and the fields a table row's values template
 * names.  Definitions and their parsing only: the spec is checked against
 * them when it is bound, and metric.h formats numbers through them.
 */
#ifndef SWEEP_METRICDEF_H
#define SWEEP_METRICDEF_H

#include <stdbool.h>
#include <stddef.h>

#include "workload.h"

/*
 * A display unit: "k/s" divides a per-second rate by 1e3 and shows two
 * decimals.  Decimals follow the kernel's benches: three for M/s (the
 * run_bench_*.sh tables), two for k/s and MiB (htab-mem), none for a
 * plain count per second or bytes (map_perf_test).
 */
struct metric_unit {
	const char *name;	/* "M/s", "k/s", "/s", "GiB", "MiB", "KiB", "B" */
	enum metric_kind kind;	/* which kind of metric it can show */
	double div;
	int decimals;
	bool time;		/* ms/s: time per second, for program time (prog_ns) only; ns:
				 * a level of time per operation, for imported sets only */
	/*
	 * A gauge's: what its stored numbers count ("bytes"; "insns",
	 * "states", "us" of a load's figures, workload.h's WL_LOAD_METRICS).
	 * A gauge is shown only in units of its own base.
	 */
	const char *base;
};

/* The unit called name for a metric of kind; NULL if there is none. */
const struct metric_unit *metric_unit_find(const char *name, enum metric_kind kind);

/* The metric's own unit (its descriptor's, or the kind's default: M/s, MiB). */
const struct metric_unit *metric_default_unit(const struct metric_def *d);

/* ns, the unit of ns per program run ({prog_ns.per_run}, ns_per_run charts). */
const struct metric_unit *metric_per_run_unit(void);

/*
 * The unit of a metric's unscaled numbers, as CSV and JSON carry them:
 * "hits/s" for a counter (a rate per second of its own events), "bytes"
 * for a gauge, or the base of its display unit unit ("insns"; NULL: its
 * kind's default).  Beside it, JSON's display_unit is metric_default_unit()'s.
 */
void metric_base_unit(const char *name, enum metric_kind kind, const char *unit, char *buf,
		      size_t len);

/*
 * A field of a table row's values template, "{metric[.stat][:unit]}" as
 * in "{ops.per_worker:k/s}" (docs/spec.md).  Without a stat it shows
 * "mean ± stddev"; the worker stats and per_worker need the per_thread
 * metric, ns_per a counter (and no unit: it is shown in ns).
 */
enum field_stat {
	FS_MEAN_SD,
	FS_MEAN,
	FS_MEDIAN,
	FS_MIN,
	FS_MAX,
	FS_STDDEV,
	FS_CI95,
	FS_PER_WORKER,		/* mean / producers ± stddev / producers: the bench's per-prod */
	FS_WORKER_MIN,		/* of the producers' own rates (point_result.worker_rate) */
	FS_WORKER_MEDIAN,
	FS_WORKER_MAX,
	FS_WORKER_MEAN,
	FS_NS_PER,		/* 1e9 x producers / mean: ns per event of one producer */
	/*
	 * Relative to the point's baseline ([report] baseline, baseline.h):
	 * ns per event over it (counters), and the ratio to it, "± sd" each.
	 */
	FS_OVER_BASE_NS,
	FS_VS_BASE,
	FS_PER_RUN,		/* of prog_ns: the kernel's ns per program run (progrun.h) */
	FS_PER_PROD,		/* a counter's mean / producers: the bench's "(3.742M/prod)" */
};

struct metric_field {
	int metric;
	enum field_stat stat;
	const struct metric_unit *unit;
	bool deterministic;	/* its metric's: "mean ± sd" is the mean alone while sd is 0 */
};

/*
 * text[0..len) ("ops.per_worker:k/s") as a field of wl's metrics into *f.
 * 0, or -EINVAL with the reason in why and *at the offset into text of
 * the word at fault (the metric, the stat or the unit).
 */
int metric_field_parse(const struct workload *wl, const char *text, size_t len,
		       struct metric_field *f, size_t *at, char *why, size_t whylen);

/* Is f relative to a baseline point (over_base_ns, vs_base)? */
bool metric_field_needs_baseline(const struct metric_field *f);

/* Does wl have a producers parameter (whose rows get a rate per producer)? */
bool wl_has_producers(const struct workload *wl);

/* Index of the workload's per_thread metric, or -1. */
int wl_thread_metric(const struct workload *wl);

/* Index of metric name in wl, or -1. */
int wl_metric_index(const struct workload *wl, const char *name);

/* Which metrics of wl are prog_runs and prog_ns; false unless it has both. */
bool prog_metrics(const struct workload *wl, int *runs, int *ns);

/*
 * The source of a metric read back by name (a result set without its
 * workload, viewdesc.c): MS_PROG_RUNS for "prog_runs", ...
 */
enum metric_source prog_source_of_name(const char *name);

/* The derived metric of the program counters (progrun.h), as summary.csv names it. */
#define METRIC_NS_PER_RUN "ns_per_run"

/* "higher", "lower", "neither"; "unknown" for MB_UNSET. */
const char *metric_better_name(enum metric_better b);

/* The direction called word[0..len) ("unknown" is MB_UNSET); false if none is. */
bool metric_better_parse(const char *word, size_t len, enum metric_better *b);

/*
 * The direction of a metric the kernel's benches and bpfsweep's workloads
 * name (hits, drops, events, mem, prog_ns, ns_per_run, latency, ...);
 * MB_UNSET for any other name.
 */
enum metric_better metric_better_known(const char *name);

#endif
