/* SPDX-License-Identifier: GPL-2.0 */
/* Which points --only selects: an experiment by title (with --shard: shard_selects(), shard.h). */
#ifndef SWEEP_POINTSEL_H
#define SWEEP_POINTSEL_H

#include <stdbool.h>

#include "matrix.h"
#include "plan.h"

/* --only: the title must name an experiment (a typo gets a suggestion); 0 or -EINVAL. */
int only_check(const struct sweep_cfg *cfg, const char *only);

/*
 * The plan's points of --only's experiment (all without it), copied into
 * *pts (free() it): how many, or -1 (said: a title that names none).
 */
int only_points(const struct sweep_cfg *cfg, const struct plan *pl, const char *only,
		struct point **pts);

#endif
