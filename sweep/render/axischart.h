/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marks along an ordered axis of names, as one inline <svg> element drawn
 * here (no gnuplot, no interpreter: the names are a user's kernel labels):
 * x is the names in their order, evenly spaced, each name cut to
 * AXIS_NAME_SHOWN characters under its tick with the whole name on hover;
 * y is a number with each mark's interval (a bar with caps), or a few
 * words (statuses) as levels.  A band may mark the span between two
 * names, dashed rules values of note, a key the shapes.  Every string goes
 * through html_put(): the markup sits inline in an HTML page and a name
 * of "</svg><script>" is text.  No script, no style element, no id; the
 * same input gives the same bytes.  Used by the bisect's page
 * (executors/bisect_page.c): kernels on x, a step's figure on y.
 */
#ifndef SWEEP_AXISCHART_H
#define SWEEP_AXISCHART_H

#include <stdio.h>

/* Of a name under its tick: its last characters, "…" before them */
#define AXIS_NAME_SHOWN		24

enum axis_shape { AXIS_DOT, AXIS_SQUARE, AXIS_DIAMOND, AXIS_CROSS };

struct axis_mark {
	int at;				/* its name's index on x */
	double y, lo, hi;		/* its value and interval (NaN: none; no y: on the x axis) */
	enum axis_shape shape;
	const char *colour;		/* its fill: "#2a7d2e" */
	const char *tag;		/* written above it ("3", "good"), or NULL */
	const char *title;		/* on hover, or NULL */
};

/* One entry of the key: a shape in a colour and what it means. */
struct axis_key {
	enum axis_shape shape;
	const char *colour;
	const char *text;
};

struct axis_chart {
	const char *title;		/* above the chart, or NULL */
	const char *y_label;		/* along the y axis */
	const char *const *names;	/* x, in order */
	int nr_names;
	/* y as words, bottom up (a mark's y is its level's index), or NULL: y is a number */
	const char *const *levels;
	int nr_levels;
	const double *rules;		/* dashed lines across at these values (numeric y) */
	int nr_rules;
	int band_from, band_to;		/* a band from name to name (-1: none), and its words */
	const char *band_text;
	const struct axis_mark *marks;
	int nr_marks;
	const struct axis_key *keys;
	int nr_keys;
};

/* The chart as a whole <svg> element on f.  0, -EINVAL (no names) or -EIO. */
int axis_chart_svg(FILE *f, const struct axis_chart *c);

#endif
