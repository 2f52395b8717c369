/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table's points as JSON and as CSV, for programs: --format json and
 * csv of run, report and merge (docs/formats.md).  One run per render
 * block; every point with its parameters, status, and per metric its
 * statistics in base units (events/s, bytes, ns), unrounded.
 */
#ifndef SWEEP_EXPORT_H
#define SWEEP_EXPORT_H

#include <stdio.h>

#include "renderblock.h"

/*
 * {"schema": "bpfsweep-summary", "version": 1, "runs": [...]}: each run's
 * directory, workload, meta and points.  Returns 0, -ENOMEM or -EIO.
 */
int export_json(FILE *f, const struct render_block *blocks, int nr);

/*
 * A header, then one row per metric of each ok point (and one of
 * ns_per_run where the kernel kept it), one row with an empty metric per
 * point not ok: run, experiment, point, label, the parameters of every
 * run by name, status, reason, metric, unit, n, mean, stddev, median,
 * min, max, ci95.  Returns 0 or -errno.
 */
int export_csv(FILE *f, const struct render_block *blocks, int nr);

#endif
