/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a point really runs: the warmup and the duration each cut into
 * equal sampling intervals of at most `interval` (timing.c), and what a
 * repetition costs besides them.  The sampler (repetition.c), meta, expand
 * and the ETA all take their figures from here, so that what they say is
 * what the sampler does.
 */
#ifndef SWEEP_TIMING_H
#define SWEEP_TIMING_H

#include <stdint.h>

#include "model.h"

/*
 * A span (warmup or duration) as nr intervals: interval i (from 0) ends
 * timing_end_ns(s, i) after the span began; the last ends at span_ns
 * exactly.  nr 0 for a span of 0.
 */
struct span_split {
	uint64_t span_ns;
	uint64_t nr;
};

/*
 * span_ns cut into the fewest equal intervals of at most interval_ns, but
 * none shorter than TIMING_MIN_INTERVAL_NS (then fewer, longer ones): 5s
 * by 1s is 5 x 1s, 300ms by 1s is 1 x 300ms, 2.5s by 1s is 3 x 833.3ms.
 */
struct span_split timing_split(uint64_t span_ns, uint64_t interval_ns);

/* Where interval i of s ends, in ns from the start of the span. */
uint64_t timing_end_ns(const struct span_split *s, uint64_t i);

/* The length of s's intervals, in ns (they differ by 1 ns at most). */
double timing_interval_ns(const struct span_split *s);

/*
 * "1 x 100ms warmup + 3 x 333.333ms measured": what a repetition of cfg
 * samples, for meta and expand; of a workload that measures itself (exec),
 * the whole seconds its program is given.
 */
void timing_describe(const struct sweep_cfg *cfg, char *buf, size_t len);

/*
 * A guess at what one repetition costs besides its warmup and duration:
 * the workload's setup and teardown (loading and verifying BPF programs,
 * starting threads) and writing the point's rows.  Measured on a loaded
 * 2-CPU machine; the ETA replaces it with the real time per point once
 * one has finished.
 */
uint64_t timing_setup_ns(const struct sweep_cfg *cfg);

/*
 * One repetition of a point of cfg: warmup + duration + timing_setup_ns()
 * (whole seconds of each for a workload that measures itself).
 */
uint64_t timing_rep_ns(const struct sweep_cfg *cfg);

#endif
