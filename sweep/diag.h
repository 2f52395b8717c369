/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that prints diagnostics.  Messages are lowercase with no
 * final period, as in bpftool: "file:line:col: error: message".
 */
#ifndef SWEEP_DIAG_H
#define SWEEP_DIAG_H

#include <stdio.h>

/* A location in a spec file (or "<command line>" for --set). 1-based. */
struct loc {
	const char *file;
	int line;
	int col;
};

/* "file:line:col: error: ..." on stderr */
void diag_at(const struct loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "bpfsweep: error: ..." on stderr */
void diag_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "bpfsweep: warning: ..." on stderr */
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Number of diag_at()/diag_err() calls so far (tests and callers use it). */
int diag_error_count(void);

/* Where diagnostics go (stderr by default); tests capture them. */
void diag_set_stream(FILE *f);

/* Name used in "NAME: error:" prefixes, defaults to "bpfsweep". */
void diag_set_progname(const char *name);

#endif
