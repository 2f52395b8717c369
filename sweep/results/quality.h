/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Quality flags of one point: does its headline number deserve trust, or
 * does it say why not?  Pure math over the measured intervals' rates, the
 * time the point's threads waited for a CPU and the time the hypervisor
 * took; docs/results.md lists the flags and how each is decided.
 */
#ifndef SWEEP_QUALITY_H
#define SWEEP_QUALITY_H

#include <stdbool.h>
#include <stddef.h>

#include "cpustat.h"
#include "schedstat.h"
#include "model.h"		/* QUALITY_DEFAULT_MAX_CV */

enum quality_flag {
	QF_ZERO		= 1 << 0,	/* intervals at or near zero */
	QF_CV		= 1 << 1,	/* stddev above max_cv percent of the mean */
	QF_TREND	= 1 << 2,	/* significant, large drift: still warming up */
	QF_BIMODAL	= 1 << 3,	/* the intervals form two clusters */
	QF_INTERFERENCE	= 1 << 4,	/* the point's threads waited for a CPU */
	QF_STEAL	= 1 << 5,	/* the hypervisor took them */
	QF_STARVED	= 1 << 6,	/* a worker counted (almost) nothing */
	QF_VARIED	= 1 << 7,	/* a deterministic metric differed: the set-up did */
};

/* Decision thresholds; the constants are explained in quality.c. */
#define QUALITY_NEAR_ZERO_PCT	1.0	/* of the largest interval */
#define QUALITY_TREND_PCT	5.0	/* drift over a repetition, of the mean */
#define QUALITY_TREND_P		0.01	/* two-sided significance of the slope */
#define QUALITY_BIMODAL_SEPARATION 6.0 /* cluster means apart, in within-cluster sd */
#define QUALITY_BIMODAL_GAP_PCT	2.0	/* and at least this much of the mean */
#define QUALITY_INTERFERENCE_PCT 10.0	/* of a thread's measured time, waiting */
#define QUALITY_STEAL_PCT	2.0

struct quality {
	unsigned flags;		/* enum quality_flag */
	int n;			/* measured intervals assessed */
	int nr_zero;
	int nr_starved;		/* workers at or near zero */
	int nr_workers;		/* of this many with counts of their own */
	double starved_cpu_pct;	/* the most CPU a starved one had, % of the time; < 0: unknown */
	double cv_pct;		/* stddev / mean, percent (0 when the mean is 0) */
	double trend_pct;	/* fitted drift over one repetition, percent of mean */
	double wait_pct;	/* most a thread waited for others, % of its time; < 0: unknown */
	double steal_pct;
};

/*
 * Flags from the headline metric's rates of the measured intervals, in
 * time order; rep[i] is the repetition of rates[i] (a trend is fitted
 * within repetitions).  max_cv_pct 0 turns the cv flag off.
 */
void quality_assess(const double *rates, const int *rep, int n, int max_cv_pct,
		    struct quality *q);

/*
 * Did every assessed interval count nothing?  A point that measured
 * nothing has no rate to report: the runner calls it stalled, not ok.
 */
bool quality_all_zero(const struct quality *q);

/*
 * The flags that break a test's assumptions, and so veto a verdict of
 * change: trend (the mean still moving), bimodal (two regimes: a mean of
 * neither), starved (a worker did nothing), zero, varied (the repetitions
 * did not run the same programs: metric_def.deterministic).  Noise alone (cv,
 * interference, steal) does not: it widens the units' spread, and so the
 * interval.
 */
#define QUALITY_VETO_FLAGS	(QF_TREND | QF_BIMODAL | QF_STARVED | QF_ZERO | QF_VARIED)

/*
 * Starved workers from each worker's rate over the measured intervals
 * (the per_thread metric's; n workers, rates NULL: none counted alone),
 * and cpu_pct[i], worker i's CPU time as a percentage of the measured
 * time (< 0 where unknown; cpu_pct NULL: none known).
 */
void quality_assess_workers(const double *rates, const double *cpu_pct, int n,
			    struct quality *q);

/* Steal from the point's CPU load (load->windows 0: unknown). */
void quality_assess_load(const struct cpu_load *load, long ticks_per_s, struct quality *q);

/*
 * Interference from the run delay of the point's n threads (tw NULL or
 * n 0: unknown); nr_cpus, the CPUs unpinned threads may use.
 */
void quality_assess_wait(const struct thread_wait *tw, int n, int nr_cpus, struct quality *q);

/*
 * "cv=37%;zero=4/5;starved=1/8:cpu=2%;trend=+12%;bimodal;interference=23%;steal=5%",
 * "" when clean.
 */
void quality_format(const struct quality *q, char *buf, size_t len);

/*
 * quality_format()'s text back into flags and their figures (a resumed run
 * keeps the verdict of the run that measured the point); 0 or -EINVAL.
 */
int quality_parse(const char *text, struct quality *q);

/* The names of flags (enum quality_flag), "cv, zero, interference"; "" for none. */
void quality_names(unsigned flags, char *buf, size_t len);

/* The same flags as a table row's mark shows them: "cv=37%, zero=4/5". */
void quality_marks(const struct quality *q, char *buf, size_t len);

/*
 * The legend of flags under a table: one entry per flag, each explained
 * once for every row ("[cv=N%] the intervals' stddev is N% of their
 * mean, over 10%"), in the order the marks list them, joined by sep.
 */
void quality_legend(unsigned flags, int max_cv_pct, const char *sep, char *buf, size_t len);

#endif
