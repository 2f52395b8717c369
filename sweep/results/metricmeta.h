/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each metric of a result set is, as its meta says: one line per
 * metric, "metric: hits counter M/s higher" (name, kind, display unit and
 * which way it gets better; docs/results.md), and a fifth word,
 * "deterministic", of one identical in every repetition by construction
 * (metric_def.deterministic; readers before it read four words), written by run and import,
 * read back by compare and by report of a set without its spec, so that
 * none of them guesses a direction from a name.  Sets written before these
 * lines read too: their directions follow the names (metric_better_known()),
 * and say so.
 */
#ifndef SWEEP_METRICMETA_H
#define SWEEP_METRICMETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "colname.h"
#include "results_read.h"
#include "workload.h"

/* A "metric" line for every metric of wl, then ns_per_run's where wl has program counters. */
void metricmeta_print(FILE *f, const struct workload *wl);

/* One "metric" line: name kind ("counter", "gauge", "ratio") unit better [deterministic]. */
void metricmeta_print_one(FILE *f, const char *name, const char *kind, const char *unit,
			  enum metric_better b, bool deterministic);

/* What a result set says of one of its metrics. */
struct metric_info {
	enum metric_better better;
	char unit[16];		/* display unit, "" when not said */
	bool recorded;		/* a metric line of meta said it; else the name did */
	bool deterministic;	/* the same in every repetition by construction */
};

/*
 * Metric name of rs: from its metric line, else (a set from before them)
 * from the name: metric_better_known(), and a gauge lower-better, any
 * other counter higher-better, with recorded false.
 */
void metricmeta_of(const struct result_set *rs, const char *name, bool gauge,
		   struct metric_info *mi);

/* Does rs's meta hold metric lines at all? */
bool metricmeta_recorded(const struct result_set *rs);

#endif
