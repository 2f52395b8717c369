/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine knows of a metric beyond its descriptor (workload.h):
 * the display units it can scale to, and which metric is per thread.
 * Tables, progress lines, charts and compare show numbers through these,
 * so a unit is chosen in one place.
 */
#ifndef SWEEP_METRIC_H
#define SWEEP_METRIC_H

#include <stdbool.h>

#include "workload.h"

/* A display unit: "k/s" divides a per-second rate by 1e3. */
struct metric_unit {
	const char *name;	/* "M/s", "k/s", "/s", "MiB", "KiB", "B" */
	enum metric_kind kind;	/* which kind of metric it can show */
	double div;
};

/* The unit called name for a metric of kind; NULL if there is none. */
const struct metric_unit *metric_unit_find(const char *name, enum metric_kind kind);

/* The metric's own unit (its descriptor's, or the kind's default: M/s, MiB). */
const struct metric_unit *metric_default_unit(const struct metric_def *d);

/* Index of the workload's per_thread metric, or -1. */
int wl_thread_metric(const struct workload *wl);

/* Index of metric name in wl, or -1. */
int wl_metric_index(const struct workload *wl, const char *name);

#endif
