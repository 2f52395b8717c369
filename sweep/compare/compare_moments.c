// SPDX-License-Identifier: GPL-2.0
/*
 * What one side of a comparison is (compare_build.h): a point's values of a
 * metric in one result set, made into independent units by the run's own
 * rule (units.c), or its summary row's moments where samples.csv has none.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_build.h"
#include "units.h"

/* A cell as a count; false when empty: a value not recorded (a gauge unread, stats off). */
static bool cell_count(const char *cell, double *x)
{
	if (!*cell)
		return false;
	*x = strtod(cell, NULL);
	return true;
}

/* The columns a metric's value comes from: its own, or ns_per_run's two counters. */
struct value_cols {
	enum cmp_kind kind;
	int col;		/* the metric's; prog_ns for ns_per_run */
	int runs_col;		/* prog_runs, for ns_per_run */
};

/*
 * Metric's value in a measured samples row: a counter's per-second rate,
 * a gauge's level, ns per program run; false for a warmup row, one of no
 * length, an interval where no program ran, or a value not recorded
 * (*unknown set).
 */
static bool measured_value(const char **f, const struct value_cols *vc, double *x,
			   bool *unknown)
{
	double ns = strtod(f[RS_S_ELAPSED], NULL), runs = 0;
	bool per_run = vc->kind == CMP_PER_RUN;

	if (strcmp(f[RS_S_WARMUP], "0") || !(ns > 0))
		return false;
	if (vc->col < 0 || !cell_count(f[vc->col], x) ||
	    (per_run && (vc->runs_col < 0 || !cell_count(f[vc->runs_col], &runs)))) {
		*unknown = true;
		return false;
	}
	if (vc->kind == CMP_RATE)
		*x = *x * 1e9 / ns;
	else if (per_run && runs > 0)
		*x /= runs;
	return !per_run || runs > 0;
}

static void value_cols_of(const struct result_set *rs, const char *metric, enum cmp_kind kind,
			  struct value_cols *vc)
{
	*vc = (struct value_cols){ .kind = kind, .col = csv_column(&rs->samples, metric),
				   .runs_col = -1 };
	if (kind == CMP_PER_RUN) {
		vc->col = csv_column(&rs->samples, "prog_ns");
		vc->runs_col = csv_column(&rs->samples, "prog_runs");
	}
}

/* A summary cell as a number; NaN when absent or empty. */
static double summary_number(const struct result_set *rs, int row, const char *metric,
			     const char *stat)
{
	char col[300];
	int c;

	snprintf(col, sizeof(col), "%s_%s", metric, stat);
	c = result_summary_col(rs, col);
	return c < 0 || !*rs->summary.rows[row][c] ? NAN : strtod(rs->summary.rows[row][c], NULL);
}

/*
 * Where samples.csv holds no value (an imported set, ns_per_run measured
 * apart from the intervals), the summary row: a metric's mean with its
 * independent units' sd and count (units.h) where the row has them, else
 * its mean and stddev with n -1, not known: the bench's own samples are
 * intervals of one run, whose independence nobody measured; ns_per_run's
 * statistics are of one pass's intervals, n not known either.
 */
static void summary_moments(const struct result_set *rs, int row, const char *metric,
			    enum cmp_kind kind, struct cmp_moments *m)
{
	double units;

	if (kind == CMP_PER_RUN) {
		*m = (struct cmp_moments){ .mean = summary_number(rs, row, metric, "mean"),
					   .sd = summary_number(rs, row, metric, "stddev"),
					   .n = -1 };
		return;
	}
	*m = (struct cmp_moments){ .mean = result_summary_stat(rs, row, metric, "mean"),
				   .sd = result_summary_stat(rs, row, metric, "stddev"), .n = -1 };
	units = result_summary_stat(rs, row, metric, "units");
	if (!isnan(units)) {
		m->sd = result_summary_stat(rs, row, metric, "unit_sd");
		m->n = (long)units;
	}
}

/*
 * A point's moments: of the independent units (units.h, the run's own
 * rule) its measured intervals' values in samples.csv make, or, where
 * samples.csv holds none, from its summary row.  A value a side did not
 * record (an empty cell) has none: its mean is NaN, shown as n/a.
 */
int compare_point_moments(const struct result_set *rs, int row, const char *metric,
			  enum cmp_kind kind, struct cmp_moments *m)
{
	const struct result_point *pt = &rs->points[row - 1];
	int *rep = calloc(pt->nr_samples + 1, sizeof(*rep));
	double *x = calloc(pt->nr_samples + 1, sizeof(*x));
	const char **f = calloc(rs->samples.nr_cols + 1, sizeof(*f));
	struct value_cols vc;
	bool unknown = false;
	struct units u;
	int n = 0, err = x && rep && f ? 0 : -ENOMEM;

	if (!err)
		value_cols_of(rs, metric, kind, &vc);
	for (int i = 0; !err && vc.col >= 0 && i < pt->nr_samples; i++) {
		csv_row_cells(&rs->samples, pt->sample_rows[i], f);
		rep[n] = (int)strtol(f[RS_S_REP], NULL, 10);
		n += measured_value(f, &vc, &x[n], &unknown);
	}
	if (!err)
		err = units_of(x, rep, n, &u);
	free(x);
	free(rep);
	free(f);
	if (err)
		return err;
	*m = (struct cmp_moments){ .mean = u.mean, .sd = u.sd, .n = u.n };
	if (n == 0 && pt->n != 0 && (kind == CMP_PER_RUN || !unknown))
		summary_moments(rs, row, metric, kind, m);
	else if (unknown || (kind == CMP_PER_RUN && n == 0))
		*m = (struct cmp_moments){ .mean = NAN, .sd = NAN, .n = n };
	return 0;
}
