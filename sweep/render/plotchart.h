/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chart's model (plotchart.c): for one "plot = X vs Y by Z" of an
 * experiment, its ok points sorted into series along x, the series with
 * no ok point and the quality flags of those drawn.  plotfile.c writes it
 * as .dat and .gp; plot.c runs the charts of a sweep.
 */
#ifndef SWEEP_PLOTCHART_H
#define SWEEP_PLOTCHART_H

#include <stdbool.h>
#include <stddef.h>

#include "gnuplot.h"
#include "metric.h"
#include "viewtypes.h"

struct run_facts;	/* table.h */

/* What a report changes in the charts. */
struct plot_opts {
	const char *const *run_label;	/* per row: its run's label, or NULL for one run */
	const char *per;		/* y per unit of this parameter (its name), or NULL */
	bool relative;			/* y relative to the first point of its series */
};

#define SLUG_LEN	GNUPLOT_SLUG_LEN
#define SERIES_LEN	256
#define TITLE_LEN	GNUPLOT_TITLE_LEN

/* One ok point of a chart: which series it belongs to, and where on x. */
struct chart_entry {
	const struct view_row *r;
	int series;
	double x;
	int pos;		/* point order, keeps the sort stable */
};

struct chart {
	const struct result_view *v;	/* whose experiments and schema are drawn */
	const struct run_facts *facts;	/* may be NULL */
	const struct view_exp *e;
	const struct plot_req *req;
	const struct plot_opts *po;
	int per;		/* po->per's parameter index, or -1 */
	char slug[SLUG_LEN];
	bool names;		/* x is on/off or an enum: plotted by position, named tics */
	struct chart_entry *ent;
	int nr_ent;
	char (*series)[SERIES_LEN];
	int nr_series;
	/* series with no ok point: named in the key with why, e.g. unsupported */
	struct absent {
		char name[SERIES_LEN];
		enum point_status status;
	} *absent;
	int nr_absent;
	unsigned flags;		/* the quality flags of the points drawn (hollow markers) */
	int nr_stalled;		/* stalled points of the experiment: left out, not drawn as 0 */
};

/*
 * What y shows: the metric's (or ns_per_run's) name, r's statistics (its
 * unrounded ones, view_row.exact) and unit.
 */
const char *chart_y_name(const struct chart *c);
const struct summary *chart_y_summary(const struct chart *c, const struct view_row *r);
const struct metric_unit *chart_y_unit(const struct chart *c);

/*
 * r's independent units (units.h) of what y shows, or NULL when it has
 * none (ns_per_run); and whether r has an error bar, its half-width in
 * *half (else 0): the 95 % confidence interval of its mean over 2 or more
 * of them.  Neighbouring intervals correlate, so a spread over intervals
 * is no error bar (docs/statistics.md).
 */
const struct units *chart_y_units(const struct chart *c, const struct view_row *r);
bool chart_y_err(const struct chart *c, const struct view_row *r, double *half);

/* c->slug: a file name from its title and request, unlike the nr_taken before it. */
void chart_slug(struct chart *c, char (*taken)[SLUG_LEN], int nr_taken);

/*
 * The ok points of rows[0..nr) (rows of c->v, or placed on its experiments:
 * viewmap.h) that c draws, in series; 0 or -ENOMEM.
 */
int chart_build(struct chart *c, const struct view_row *const *rows, int nr);

void chart_free(struct chart *c);

/* Chart c as dir/<slug>.dat and .gp from template tpl; 0 or -errno (-EDOM: left out). */
int chart_write(const char *dir, const struct chart *c, const char *tpl);

/* The title and its notes on one line: the SVG's <title>. */
void chart_title(const struct chart *c, char *buf, size_t len);

#endif
