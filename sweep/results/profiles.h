/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point's profiles in its result directory (docs/profile.md):
 * profiles/<point>-r<rep>.folded (folded stacks) and .top (the top symbols
 * by self and total share) for each profiled repetition of the try kept.
 */
#ifndef SWEEP_PROFILES_H
#define SWEEP_PROFILES_H

#include "model.h"
#include "result.h"

#define PROFILES_DIR	"profiles"
#define PROFILES_TOP_N	25

/*
 * Write pr's profiles into dir/profiles (made if missing), each file whole
 * or not at all, one of a killed run's replaced: written before the point's
 * rows, so that no row claims a profile that is not there.  Repetitions
 * the kernel refused to profile get no files (summary.csv's profile column
 * says why).  Nothing without cfg->profile.  0 or -errno.
 */
int profiles_write(const char *dir, const struct sweep_cfg *cfg, const struct point_result *pr);

/*
 * The point's profile counts over its repetitions, for summary.csv: the
 * samples, those lost, and in status "ok", or of the first repetition
 * not profiled "unsupported: " and the kernel's words, or a caveat (the
 * symbols hidden).  False when no repetition was profiled.
 */
bool profiles_sum(const struct point_result *pr, uint64_t *samples, uint64_t *lost,
		  char *status, size_t len);

#endif
