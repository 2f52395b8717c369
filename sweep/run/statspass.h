/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ns_per_run without timing the measured intervals: the kernel's BPF
 * run-time statistics stay off while a point's rates are measured, and a
 * short pass of the same point after its repetitions, with them on, gives
 * its ns per program run (statspass.c).
 */
#ifndef SWEEP_STATSPASS_H
#define SWEEP_STATSPASS_H

#include <stdbool.h>
#include <stdint.h>

#include "matrix.h"
#include "progrun.h"
#include "repetition.h"
#include "result.h"

/* Does a point of cfg get the pass (bpf_stats on, a workload with program counters)? */
bool stats_pass_wanted(const struct sweep_cfg *cfg);

/* The pass's share of a point's run time (0 without it), for the ETA. */
uint64_t stats_pass_ns(const struct sweep_cfg *cfg);

/*
 * How long the pass of a point of cfg measures: as long as a repetition,
 * within [STATS_PASS_MIN_NS, STATS_PASS_NS].
 */
uint64_t stats_pass_duration_ns(const struct sweep_cfg *cfg);

/*
 * The pass of pt, whose measured repetitions are in r: statistics on, one
 * repetition of warmup and stats_pass_duration_ns(), statistics off, and r->per_run
 * from its intervals.  r's intervals and rates are left alone.  A pass that
 * fails leaves r->per_run unknown and says why in r->reason when that is
 * empty (the point stays ok: its rates were measured).  Returns 0, or
 * -EINTR when w->stop_requested() ended it.
 */
int stats_pass_run(const struct sweep_cfg *cfg, const struct point *pt,
		   const struct rep_watch *w, struct point_result *r);

#endif
