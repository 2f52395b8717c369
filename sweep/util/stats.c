// SPDX-License-Identifier: GPL-2.0
/*
 * Summary statistics of one metric's per-interval rates.  GSL does the
 * arithmetic and supplies Student's t for the confidence interval: a
 * handful of 1 s intervals is far from normal's large-n regime.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

void stats_summarize(const double *x, int n, struct summary *s)
{
	double *sorted;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n <= 0)
		return;
	s->mean = gsl_stats_mean(x, 1, n);
	gsl_stats_minmax(&s->min, &s->max, x, 1, n);
	/* one value: its spread is 0, the interval of its mean is not known */
	s->ci95 = NAN;
	if (n > 1) {
		s->stddev = gsl_stats_sd_m(x, 1, n, s->mean);
		s->ci95 = gsl_cdf_tdist_Pinv(0.975, n - 1) * s->stddev / sqrt(n);
	}
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted) {
		/* the median is the only figure that needs memory; say so with NaN */
		s->median = NAN;
		return;
	}
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	free(sorted);
}
