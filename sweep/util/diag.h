/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that prints diagnostics.  Messages are lowercase with no
 * final period, as in bpftool: "file:line:col: error: message".
 * Everything printed is made safe for a terminal (termsafe.h).
 */
#ifndef SWEEP_DIAG_H
#define SWEEP_DIAG_H

#include <stdio.h>

/* A location in a spec file, or in the set-th --set argument. 1-based. */
struct loc {
	const char *file;
	int line;
	int col;
	int set;		/* n-th --set (printed "--set #n:1:col"), 0 for a file */
};

/* The location off bytes further along the same line. */
static inline struct loc loc_plus(const struct loc *l, size_t off)
{
	return (struct loc){ l->file, l->line, l->col + (int)off, l->set };
}

/* Located errors shown before the rest are only counted, as compilers do. */
#define DIAG_MAX_SHOWN 20

/* "file:line:col: error: ..." on stderr (the first DIAG_MAX_SHOWN of them) */
void diag_at(const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * "file:line:col: error: " into buf, as diag_at() starts a line: a reader
 * that refuses a file says where as text (its why buffer), printed later
 * by diag_located().  Returns what snprintf() returns.
 */
int diag_where(char *buf, size_t len, const char *file, int line, int col);

/* A refusal that starts with diag_where()'s text, printed and counted as diag_at()'s */
void diag_located(const char *text);

/*
 * The n-th --set of the spec (loc.set) came from another option, "-d",
 * and its errors are located at label (copied) instead of "--set #n":
 * the kernel bench's options are --set in disguise (adhoc.h).
 */
void diag_label_set(int n, const char *label);

/* Forget every label: the next spec's --set are numbered afresh. */
void diag_label_sets_clear(void);

/* "bpfsweep: error: ..." on stderr */
void diag_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "bpfsweep: warning: ..." on stderr */
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Number of diag_at()/diag_err() calls so far (tests and callers use it). */
int diag_error_count(void);

/* "bpfsweep: N more errors not shown" if some were not; starts a new count. */
void diag_finish(void);

/* Where diagnostics go (stderr by default), with a new count; tests capture them. */
void diag_set_stream(FILE *f);

/* Name used in "NAME: error:" prefixes, defaults to "bpfsweep". */
void diag_set_progname(const char *name);

#endif
