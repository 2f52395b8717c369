/* SPDX-License-Identifier: GPL-2.0 */
/* Pure math over samples; the only place summary statistics are computed. */
#ifndef SWEEP_STATS_H
#define SWEEP_STATS_H

struct summary {
	double mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double median;
	double min;
	double max;
	/*
	 * Half-width of the 95% confidence interval of the mean, were x
	 * independent samples; NaN for n < 2.  A point's metrics take theirs
	 * from their independent units instead (units.h).
	 */
	double ci95;
	int n;
};

/* x is not modified; n == 0 gives all zeros, n == 1 stddev 0 and ci95 NaN. */
void stats_summarize(const double *x, int n, struct summary *s);

#endif
