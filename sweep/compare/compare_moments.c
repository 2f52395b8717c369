// SPDX-License-Identifier: GPL-2.0
/*
 * What one side of a comparison is (compare_build.h): a point's moments of
 * a metric as its set's result view holds them (view.h), the one model
 * report, the charts and the pages read too: the independent units the
 * view made of its measured intervals by the run's own rule (viewstats.h),
 * or, where the set holds no interval of the point, what its summary row
 * says.
 */
#include <math.h>
#include <string.h>

#include "compare_build.h"

int compare_view_metric(const struct result_view *v, const char *name)
{
	for (int m = 0; m < v->schema.nr_metrics; m++)
		if (!strcmp(v->metrics[m].name, name))
			return m;
	return -1;
}

const struct view_row *compare_row(const struct result_view *v, int row)
{
	return row > 0 ? &v->rows[row - 1] : NULL;
}

/* Units made of the intervals: a value not recorded in one of them has none (mean NaN). */
static void of_units(const struct units *u, struct cmp_moments *m)
{
	*m = (struct cmp_moments){ .mean = u->mean, .sd = u->sd, .n = u->n };
}

/*
 * Where the set holds no interval of the point (an imported set, a copied
 * summary, ns_per_run measured apart from the intervals), the summary row:
 * its mean with its independent units' sd and count where the row has
 * them (u), else its stddev with n -1, not known: the bench's own samples
 * are intervals of one run, whose independence nobody measured;
 * ns_per_run's statistics are of one pass's intervals, n not known either.
 */
static void of_cells(const struct summary *s, const struct units *u, struct cmp_moments *m)
{
	*m = (struct cmp_moments){ .mean = s->mean, .sd = s->stddev, .n = -1 };
	if (u && u->n >= 0) {
		m->sd = u->sd;
		m->n = u->n;
	}
}

void compare_point_moments(const struct result_view *v, int row, const char *metric,
			   enum cmp_kind kind, struct cmp_moments *m)
{
	const struct view_row *r = compare_row(v, row);
	int i = kind == CMP_PER_RUN ? -1 : compare_view_metric(v, metric);

	if (kind == CMP_PER_RUN && r->has_intervals && r->exact.per_run_unit.n > 0)
		of_units(&r->exact.per_run_unit, m);
	else if (kind == CMP_PER_RUN)
		of_cells(&r->per_run, NULL, m);
	else if (i < 0)		/* not the view's: compare_common_metrics() takes only its */
		*m = (struct cmp_moments){ .mean = NAN, .sd = NAN, .n = 0 };
	else if (r->has_intervals)
		of_units(&r->exact.unit[i], m);
	else
		of_cells(&r->stat[i], &r->unit[i], m);
}
