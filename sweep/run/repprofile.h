/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile of a repetition (profile = on) kept in its point's result:
 * begun before the set-up, ended before the teardown (profiler.h).
 */
#ifndef SWEEP_REPPROFILE_H
#define SWEEP_REPPROFILE_H

#include "model.h"
#include "profiler.h"
#include "result.h"

/*
 * With cfg->profile, a new entry of r->prof for repetition rep and its
 * sampler (NULL when the kernel refused: the entry says why, and the
 * repetition runs unprofiled; or when out of memory: no entry).  NULL
 * without cfg->profile.
 */
struct profiler *rep_profile_begin(const struct sweep_cfg *cfg, int rep,
				   struct point_result *r);

/* The sampler's counts into r's last entry, and *p closed and NULL; nothing if NULL. */
void rep_profile_end(struct profiler **p, struct point_result *r);

#endif
