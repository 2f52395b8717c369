/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own run time of a workload's BPF programs (docs/results.md,
 * "ns_per_run"): two engine-filled counters, prog_runs (run_cnt) and
 * prog_ns (run_time_ns), and what they give together, the nanoseconds
 * per run of each interval, Δprog_ns / Δprog_runs, summarized over the
 * measured intervals as a rate is.
 */
#ifndef SWEEP_PROGRUN_H
#define SWEEP_PROGRUN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "metricdef.h"
#include "workload.h"

/*
 * The runner's part: the program counters of wl into counts, from
 * prog_stats(); METRIC_UNKNOWN in both when the kernel keeps no statistics.
 */
void prog_fill(const struct workload *wl, void *state, uint64_t *counts);

/*
 * ns per run over one interval's increases: NaN when either is unknown or
 * no program ran (nothing to divide).
 */
double prog_ns_per_run(uint64_t d_runs, uint64_t d_ns);

/* ns_per_run measured in a pass of its own after the repetitions (statspass.h): */
/*
 * How long the pass measures at most and at least (a repetition's duration
 * between the two: stats_pass_duration_ns()), in intervals of
 * STATS_PASS_INTERVAL_NS after a warmup of two.
 */
#define STATS_PASS_NS		1000000000ULL
#define STATS_PASS_MIN_NS	200000000ULL
#define STATS_PASS_INTERVAL_NS	100000000ULL

/* How meta's bpf_stats line of a run with passes begins (run_facts.per_run_pass). */
#define STATS_PASS_META		"pass:"

#endif
