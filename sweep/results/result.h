/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What running one point produces: every interval's raw counts with its
 * real elapsed time, the status, and the summary statistics of the rates.
 * The runner fills it; results.c, table.c and plot.c only read it.
 */
#ifndef SWEEP_RESULT_H
#define SWEEP_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpustat.h"
#include "decide.h"
#include "model.h"
#include "profiler.h"
#include "quality.h"
#include "stats.h"
#include "units.h"
#include "workload.h"

enum point_status {
	PS_OK,
	PS_UNSUPPORTED,		/* the kernel cannot run it; reason says why */
	PS_FAILED,		/* it should have run and did not */
	PS_INTERRUPTED,		/* Ctrl-C or SIGTERM during the point */
	PS_STALLED,		/* it ran, and its counters counted nothing */
	NR_POINT_STATUS
};

const char *point_status_name(enum point_status st);	/* "ok", ... */

struct interval {
	int rep;		/* 0-based repetition (with decide: the round) */
	int slot;		/* with decide: the arm's place in its round, 0-based */
	int idx;		/* 0-based within the repetition, warmup included */
	bool warmup;
	uint64_t elapsed_ns;	/* measured, never assumed */
	/* a counter's increase over the interval, a gauge's level at its end */
	uint64_t value[WL_MAX_METRICS];
	/* each producer's increase of the per_thread metric, or NULL (none) */
	uint64_t *thread_delta;
};

#define THREAD_CPU_UNKNOWN	UINT64_MAX

/* One repetition's load of programs, as the runner read it after setup (loadfill.h). */
struct rep_load {
	int rep;		/* as its intervals' rep */
	struct wl_load_stats ls;	/* each program's figures and their aggregate */
};

struct point_result {
	const struct point *pt;
	enum point_status status;
	char reason[384];	/* "" when ok, or a caveat: why memory is unknown */
	struct interval *iv;
	int nr_iv;
	int nr_producers;
	int nr_consumers;
	int nr_cpus;		/* online CPUs the runner saw */
	char *cpus;		/* "cons 0 prod 1,0,1", "prod (0,1)x512" or "unpinned" */
	int tries;		/* runs of the point, retries of a noisy one included */
	struct cpu_load load;	/* of the point's CPUs over the measured intervals */
	/*
	 * Per metric, over the measured (non-warmup) intervals of all reps: a
	 * counter's per-second rates, a gauge's levels.  ci95 is that of
	 * unit[m]'s independent units, the rest describe the intervals.
	 */
	struct summary stat[WL_MAX_METRICS];
	struct units unit[WL_MAX_METRICS];	/* metric m's independent units */
	/*
	 * Of the per_thread metric, if any: each producer's rate over all the
	 * measured intervals, summarized across producers (min, median, max).
	 */
	struct summary worker_rate;
	double *thread_rate;	/* [nr_producers]: each one's rate, or NULL */
	/*
	 * [nr_producers]: each one's thread CPU time over the measured parts
	 * of the repetitions so far (THREAD_CPU_UNKNOWN where a read failed),
	 * or NULL: what the starved flag says of a worker that counted nothing.
	 */
	uint64_t *thread_cpu_ns;
	/*
	 * [nr_thread_wait]: each worker's (consumers, then producers) run
	 * delay over the measured parts so far (schedstat.h), or NULL: what
	 * the interference flag says.  None for a workload with run().
	 */
	struct thread_wait *thread_wait;
	int nr_thread_wait;
	/*
	 * Of a workload with prog_runs and prog_ns (progrun.h): the kernel's
	 * ns per program run in each measured interval; NaN, n = 0 if unknown.
	 */
	struct summary per_run;
	struct units per_run_unit;	/* their independent units; UK_NONE, n 0 if none */
	struct quality quality;	/* of the headline metric, and of the CPUs */
	char stop[128];		/* why its repetitions stopped (precision.h); "" unknown */
	/* with decide, an arm's ratio to its baseline over the rounds (rounds.h) */
	struct decide_result decision;
	bool has_decision;	/* false for a baseline, or a point with none to compare to */
	bool set_baseline;	/* the baseline of arms that ran in rounds with it */
	unsigned int decision_veto;	/* QUALITY_VETO_FLAGS of it or its baseline: inconclusive */
	/* with profile = on: each repetition's profile of the try kept (profiler.h) */
	struct rep_profile *prof;
	int nr_prof;
	/*
	 * Of a workload that loads BPF programs: each repetition's load of the
	 * try kept that loaded any, in the order they ran (programs.csv).
	 */
	struct rep_load *loads;
	int nr_loads;
};

/*
 * r->stat from every measured interval (counters' per-second rates,
 * gauges' levels: NaN when one is unknown), and of the per_thread metric
 * r->thread_rate and r->worker_rate (NaN without per-producer counts);
 * 0 or -ENOMEM.
 */
int point_result_summarize(struct point_result *r);

/*
 * r->per_run from r's measured intervals (progrun.c): each one's ns per run, those
 * where a program ran; unknown (NaN, n = 0) when none did or the workload
 * has no program counters.  0 or -ENOMEM.
 */
int prog_summarize(struct point_result *r);

/*
 * The kind of the point's units: every metric's is the same (it follows
 * the repetitions), but for a gauge not read (UK_NONE); UK_NONE if all are.
 */
enum unit_kind point_unit_kind(const struct point_result *r);

/* Quality flags of the summarized point into r->quality; 0 or -ENOMEM. */
int point_result_assess(struct point_result *r, int max_cv_pct);

/*
 * Did the assessed point measure nothing: a headline counter that counted
 * nothing in every measured interval, nor any other of the workload's own
 * counters (the kernel's program counters aside: progrun.h)?  The
 * runner's PS_STALLED.
 */
bool point_result_counted_nothing(const struct point_result *r);

/* The measured intervals' summed length: what per-producer figures are over. */
uint64_t point_result_measured_ns(const struct point_result *r);

/*
 * Free r's intervals, their per-producer increases, r->thread_rate,
 * r->thread_cpu_ns, r->thread_wait, r->prof and r->loads.
 */
void point_result_free_intervals(struct point_result *r);

/* Forget one try's intervals and outcome before the point runs again. */
void point_result_reset(struct point_result *r);

/*
 * Metric m's mean over the measured intervals of repetition rep: the unit
 * units.c makes of a repetition, and the side of a round's ratio (rounds.h).
 * NaN when the repetition measured nothing or a value is not known.
 */
double point_result_rep_mean(const struct point_result *r, int m, int rep);

#endif
