/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress on stderr.  On a terminal: one bar line, redrawn only between
 * measurements (never while producers run), with point i/N, the
 * experiment's title, the point's parameters and the ETA, fitted to the
 * terminal's width (TIOCGWINSZ, read at every redraw).  Otherwise, and on
 * a terminal above the bar: one line per finished point, whole, and with
 * several experiments a line when the next one starts.  A run of
 * consecutive points unsupported for the same reason is one line.
 */
#ifndef SWEEP_PROGRESS_H
#define SWEEP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* Consecutive unsupported points with one reason, not printed yet. */
struct progress_run {
	int nr;
	int first;		/* 1-based number of its first point */
	char first_name[256];
	char last_name[256];
	char reason[256];
};

struct progress {
	bool tty;
	const char *title;	/* of the current point's experiment */
	int exp;		/* its index, -1 before the first point */
	int nr_points;
	int done;
	int nr_runnable;	/* points expected to run (the probe passed them) */
	int done_runnable;	/* of those, finished */
	bool running;		/* the current point started a repetition */
	uint64_t point_ns;	/* estimated run time of one point */
	uint64_t start_ns;	/* monotonic, when the sweep started */
	struct progress_run run;
};

void progress_init(struct progress *p, int nr_points, int nr_runnable, uint64_t point_ns);

/*
 * The next point is of experiment exp (of nr_exps), titled title (it must
 * outlive the point): a sweep of several says so in a line when it changes.
 */
void progress_experiment(struct progress *p, int exp, int nr_exps, const char *title);

/* Before a repetition's threads start. */
void progress_begin(struct progress *p, const char *name, int rep, int nr_reps);

/* A noisy or stalled point is about to run again: why, and which try comes. */
void progress_retry(struct progress *p, const char *name, const struct point_result *r,
		    int max_tries);

/*
 * After a point ends: its outcome, one line (or part of a run's line), with
 * "noisy (flags)" when it has any.
 */
void progress_end(struct progress *p, const char *name, const struct point_result *r);

/* Print what is pending and clear the bar at the end of the sweep. */
void progress_finish(struct progress *p);

/* What the terminal's line shows. */
struct progress_view {
	int done, nr_points;	/* the line counts point done + 1 of nr_points */
	const char *title;	/* the experiment's; NULL: none */
	const char *name;	/* the point's */
	int rep, nr_reps;
	unsigned int eta_s;
};

/*
 * The line for a terminal of width columns (0: no limit) into buf, in at
 * most width - 1 columns, so that it never wraps; see progress_line.c for
 * what gives way.  Returns buf.
 */
const char *progress_line(char *buf, size_t len, int width, const struct progress_view *v);

#endif
