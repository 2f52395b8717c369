/* SPDX-License-Identifier: GPL-2.0 */
/*
 * programs.csv read back (programs.h writes it): its rows of programs,
 * each figure checked as a count or empty, as results_read.h checks
 * summary.csv's cells, a bad one refused at DIR/programs.csv:LINE:COL.
 * compare reads it to set each program's figures beside the other set's.
 */
#ifndef SWEEP_PROGREAD_H
#define SWEEP_PROGREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csvfile.h"

/* The most figure columns read (programs.csv has seven today). */
#define PROG_MAX_FIGS	16

/* One row that names a program (a point's "no program loaded" row is not kept). */
struct prog_row {
	long long point;
	const char *run;		/* a merged set's run (its `run` column), else "" */
	int rep;			/* -1: empty */
	const char *name;		/* escaped where it held a control character */
	int nth;			/* 0: the first program of this name in its repetition */
	uint64_t v[PROG_MAX_FIGS];
	bool known[PROG_MAX_FIGS];	/* false: an empty cell, the kernel did not give it */
};

struct prog_table {
	bool present;			/* DIR/programs.csv exists */
	struct csv_table csv;
	const char *fig[PROG_MAX_FIGS];	/* the figure columns' names, in file order */
	int nr_figs;
	struct prog_row *rows;
	int nr_rows;
};

/*
 * DIR/programs.csv into *t: no file is t->present false and 0; a
 * malformed one -EINVAL with why saying where ("DIR/programs.csv:3:7:
 * error: ..."), -ENOMEM.  prog_table_free() it either way.
 */
int prog_table_read(const char *dir, struct prog_table *t, char *why, size_t whylen);
void prog_table_free(struct prog_table *t);

/* The index of figure name in t, or -1. */
int prog_table_fig(const struct prog_table *t, const char *name);

#endif
