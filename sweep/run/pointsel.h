/* SPDX-License-Identifier: GPL-2.0 */
/* Which points a run selects: --only (an experiment by title) and --shard. */
#ifndef SWEEP_POINTSEL_H
#define SWEEP_POINTSEL_H

#include <stdbool.h>

#include "matrix.h"
#include "plan.h"
#include "shard.h"

/* --only: the title must name an experiment (a typo gets a suggestion); 0 or -EINVAL. */
int only_check(const struct sweep_cfg *cfg, const char *only);

/*
 * Is pt one that --only's experiment (NULL: all) and shard sh select?
 * *nr_sel counts the points --only selects, in order, which shard
 * splits (shard.h); start it at 0 and pass every point in order.
 */
bool point_selected(const struct sweep_cfg *cfg, const char *only, const struct shard *sh,
		    const struct point *pt, int *nr_sel);

/*
 * The plan's points of --only's experiment (all without it), copied into
 * *pts (free() it): how many, or -1 (said: a title that names none).
 */
int only_points(const struct sweep_cfg *cfg, const struct plan *pl, const char *only,
		struct point **pts);

#endif
