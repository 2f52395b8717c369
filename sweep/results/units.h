/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The independent units a point's confidence interval and compare's test
 * stand on (docs/statistics.md): neighbouring intervals of one repetition
 * are correlated, so they are not samples of their own.  The units are the
 * repetitions' means when a point has at least UNITS_MIN_REPS of them,
 * else batch means of consecutive intervals within each repetition, the
 * batch long enough for the lag-1 autocorrelation the intervals show.
 */
#ifndef SWEEP_UNITS_H
#define SWEEP_UNITS_H

enum unit_kind {
	UK_NONE,		/* no measured interval */
	UK_REP,			/* a repetition's mean: each has its own setup */
	UK_BATCH,		/* a batch of consecutive intervals of one repetition */
};

/* Repetitions a point needs for them to be its units (compare's minimum, too). */
#define UNITS_MIN_REPS	3

/*
 * Batches are UNITS_BATCH_FACTOR times (1 + rho) / (1 - rho) intervals
 * long, the intervals one independent sample is worth: at rho 0.65, 15 of
 * them, and neighbouring batch means then correlate at about 0.09 (0.29 at
 * factor 1), which keeps the 95 % interval's coverage near 93 % in the
 * simulation of tests/unit/test_units.c (docs/statistics.md).
 */
#define UNITS_BATCH_FACTOR	3

/*
 * Neighbouring pairs of intervals the autocorrelation needs before batches
 * are cut by it: from fewer, its estimate is too rough (at rho 0.65, one
 * repetition of 10 intervals, "95 %" batch intervals covered 74 %), and
 * each repetition is one unit.
 */
#define UNITS_MIN_PAIRS		30

struct units {
	enum unit_kind kind;
	int n;			/* units */
	int batch;		/* intervals per batch aimed at, 0 for repetitions */
	double rho;		/* lag-1 autocorrelation within repetitions; NaN unknown */
	double mean;		/* of the units */
	double sd;		/* sample sd of the units; NaN when n < 2 */
	double ci95;		/* t(0.975, n - 1) * sd / sqrt(n); NaN when n < 2 */
};

/*
 * x[0..n) each measured interval's value in time order, rep[i] the
 * repetition of x[i] (ascending, as the runner records them).  0 or -ENOMEM.
 */
int units_of(const double *x, const int *rep, int n, struct units *u);

/* What is not known (a gauge not read): kind UK_NONE, every number NaN. */
void units_unknown(struct units *u);

/* "rep", "batch" or "" (UK_NONE). */
const char *unit_kind_name(enum unit_kind k);

/* The kind a summary cell names; UK_NONE for "" or anything else. */
enum unit_kind unit_kind_parse(const char *s);

/* t(0.975, n - 1) * sd / sqrt(n): NaN when n < 2 or sd is not known. */
double units_ci95(double sd, long n);

#endif
