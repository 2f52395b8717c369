/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress on stderr.  On a terminal: one bar line with point i/N, the
 * experiment's title, the point's parameters, what it waits for (setup,
 * warmup, rep 3/5, the statistics pass) and the ETA, fitted to the
 * terminal's width (TIOCGWINSZ, read at every redraw).  It is redrawn
 * before each repetition and, while one runs, from the sampler's own
 * wake-ups (repetition.h's woke()) at most once a second and when the
 * phase changes: formatting a line and one write is all it does there, no
 * thread or timer of its own.  Otherwise, and on a terminal above the
 * bar: one line per finished point, whole, and with several experiments
 * a line when the next one starts.  A run of consecutive points
 * unsupported for the same reason is one line.
 */
#ifndef SWEEP_PROGRESS_H
#define SWEEP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "repetition.h"
#include "result.h"

/* What the running point waits for. */
enum progress_phase {
	PROGRESS_MEASURING,	/* a repetition's measured intervals */
	PROGRESS_SETUP,		/* a repetition's setup, its threads starting */
	PROGRESS_WARMUP,	/* its warmup intervals */
	PROGRESS_STATS_PASS,	/* the point's ns_per_run pass (statspass.h) */
};

/* Where the progress goes and what it reads the time from; tests fake both. */
struct progress_term {
	FILE *out;
	bool tty;		/* a terminal: the bar line is drawn */
	int width;		/* columns; 0: ask the terminal at each redraw */
	uint64_t (*clock)(void);	/* monotonic ns */
};

/* Consecutive unsupported points with one reason, not printed yet. */
struct progress_run {
	int nr;
	int first;		/* 1-based number of its first point */
	char first_name[256];
	char last_name[256];
	char reason[384];
};

struct progress {
	struct progress_term term;
	bool tty;		/* term.tty */
	const char *title;	/* of the current point's experiment */
	int exp;		/* its index, -1 before the first point */
	int nr_points;
	int done;
	int nr_runnable;	/* points expected to run (the probe passed them) */
	int done_runnable;	/* of those, finished */
	bool running;		/* the current point started a repetition */
	uint64_t point_ns;	/* estimated run time of one point */
	uint64_t start_ns;	/* monotonic, when the sweep started */
	uint64_t point_start_ns;	/* when the running point's first repetition began */
	uint64_t ended_ns;	/* when the last point ended */
	uint64_t drawn_ns;	/* when the bar was last drawn */
	/* the bar's running point, for the redraws from the sampler's wake-ups */
	enum progress_phase phase;
	char name[256];
	int rep, nr_reps;
	struct progress_run run;
};

/* term NULL: stderr, whether it is a terminal, its width, CLOCK_MONOTONIC. */
void progress_init(struct progress *p, int nr_points, int nr_runnable, uint64_t point_ns,
		   const struct progress_term *term);

/*
 * The next point is of experiment exp (of nr_exps), titled title (it must
 * outlive the point): a sweep of several says so in a line when it changes.
 */
void progress_experiment(struct progress *p, int exp, int nr_exps, const char *title);

/* Before a repetition's setup. */
void progress_begin(struct progress *p, const char *name, int rep, int nr_reps);

/*
 * A rep_watch's woke() (repetition.h), ctx the progress: the sampler is
 * up, the next interval warmup or not.  Redraws the bar when the phase
 * changed or a second has passed since it was drawn; nothing else.
 */
void progress_woke(void *ctx, bool warmup);

/* The watch of a repetition run under p: stop_requested, and p's bar kept up to date. */
struct rep_watch progress_watch(struct progress *p, bool (*stop_requested)(void));

/* Before the ns_per_run pass of the point called name (statspass.h). */
void progress_stats_pass(struct progress *p, const char *name);

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
	enum progress_phase phase;
	unsigned int eta_s;
};

/*
 * The line for a terminal of width columns (0: no limit) into buf, in at
 * most width - 1 columns, so that it never wraps; see progress_line.c for
 * what gives way.  Returns buf.
 */
const char *progress_line(char *buf, size_t len, int width, const struct progress_view *v);

#endif
