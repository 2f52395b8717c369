/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile of a repetition (profile = on) kept in its point's result:
 * begun before the set-up, ended before the teardown (profiler.h), with
 * one sampler for the whole run, closed by rep_profile_close().
 */
#ifndef SWEEP_REPPROFILE_H
#define SWEEP_REPPROFILE_H

#include "model.h"
#include "profiler.h"
#include "result.h"

/*
 * With cfg->profile, a new entry of r->prof for repetition rep and the
 * run's sampler, opened if it is not (NULL when the kernel refused: the
 * entry says why, and the repetition runs unprofiled; or when out of
 * memory: no entry).  NULL without cfg->profile.
 */
struct profiler *rep_profile_begin(const struct sweep_cfg *cfg, int rep,
				   struct point_result *r);

/* The sampler's counts into r's last entry, reset, and *p NULL; nothing if NULL. */
void rep_profile_end(struct profiler **p, struct point_result *r);

/* Close the run's sampler, if open: its program, maps and events gone. */
void rep_profile_close(void);

#endif
