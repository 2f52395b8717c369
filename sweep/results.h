/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result directory: samples.csv and summary.csv, appended and flushed
 * as each point ends, so a crash or Ctrl-C loses nothing finished.
 * Column layout is in docs/results.md.
 */
#ifndef SWEEP_RESULTS_H
#define SWEEP_RESULTS_H

#include "bind.h"
#include "result.h"

struct results;

/*
 * Create dir (and parents), create both CSVs, write their header lines.
 * Returns 0 or -errno; -EEXIST when dir already holds them, since a
 * finished run is never overwritten.  Reports nothing: the caller does.
 */
int results_open(const char *dir, const struct sweep_cfg *cfg, struct results **out);

/* Append the point's rows to both files, fflush() and fsync() them. 0/-errno. */
int results_append(struct results *r, const struct point_result *pr);

void results_close(struct results *r);

#endif
