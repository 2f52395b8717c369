/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load's figures of a repetition (workload.h's WL_LOAD_METRICS):
 * read once after setup, from the workload's state (wl_load_stats_of()),
 * and filled as gauges at every sample, the same level all through the
 * repetition.
 * They are a repetition's, as its load is: a point's repetitions each
 * load again, and their figures are its units (docs/results.md).
 */
#ifndef SWEEP_LOADFILL_H
#define SWEEP_LOADFILL_H

#include <stdint.h>

#include "result.h"
#include "workload.h"

/* How an ok row's reason begins that says which figures the kernel did not give. */
#define LOAD_NOTE	"verifier: "

/*
 * Repetition rep's figures into *ls (all unknown where the workload has
 * none: no load_stats, or a point that loaded no program), what is
 * unknown, as a LOAD_NOTE, into r->reason if it has none yet, and a load
 * of programs kept in r->loads (programs.csv's rows).  0 or -ENOMEM.
 */
int load_read(const struct workload *wl, void *state, int rep, struct wl_load_stats *ls,
	      struct point_result *r);

/* Every MS_LOAD metric of wl into counts, from ls. */
void load_fill(const struct workload *wl, const struct wl_load_stats *ls, uint64_t *counts);

#endif
