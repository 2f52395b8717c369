/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's programs section: where both sets have programs.csv, each
 * point's programs joined by name, their verifier and JIT figures side by
 * side, as `veristat -C` sets them: the deterministic ones (instructions,
 * states, sizes) compared exactly (a change is "different"), verify_time,
 * a time, shown beside without a verdict.  docs/compare.md "Programs".
 */
#ifndef SWEEP_COMPARE_PROGRAMS_H
#define SWEEP_COMPARE_PROGRAMS_H

#include <stdint.h>
#include <stdio.h>

struct json_object;	/* json-c's (compare_programs_out.c includes it) */

#include "progread.h"

/*
 * Declared, not included: compare_print.h's comparison holds this
 * section and compare_print.c calls it (compare_progjoin.c builds it,
 * compare_programs_out.c prints it): this header stays below both.
 */
struct comparison;
struct point_cmp;

/* The figures both programs.csv have, in BASE's order. */
struct prog_figs {
	const char *name[PROG_MAX_FIGS];
	int col[2][PROG_MAX_FIGS];	/* in BASE's, NEW's prog_table */
	bool exact[PROG_MAX_FIGS];	/* deterministic (meta's metric line): compared exactly */
	int nr;
};

/* One side's figure of a program, over the point's repetitions. */
struct prog_fig_side {
	uint64_t first;		/* the first repetition's that gave it */
	bool known;		/* a repetition gave it */
	bool varied;		/* another repetition gave another value */
	double sum;		/* of the repetitions that gave it: a time's mean */
	int n;
};

/* One program of a point, on one side or both. */
struct prog_cmp {
	const char *name;
	int nth;			/* 0: the first of its name in a repetition */
	bool on[2];			/* BASE, NEW loaded it */
	struct prog_fig_side f[2][PROG_MAX_FIGS];
	bool differs;			/* on one side only, or an exact figure not "same" */
};

/*
 * c->pfigs and every compared point's programs, where both sets have
 * programs.csv (compare_set.progs); a note where one has it only.
 * 0 or -ENOMEM.
 */
int compare_programs(struct comparison *c);
void compare_programs_free(struct comparison *c);

/* "same", "different", "varied", "n/a (not recorded)", or "" for a time (no verdict). */
const char *prog_fig_verdict(const struct prog_cmp *pc, const struct prog_figs *pf, int k);

/* A side's figure as a number: an exact one's value, a time's mean; NaN where not known. */
double prog_fig_value(const struct prog_fig_side *s, bool exact);

/* "base only", "new only" or "compared". */
const char *prog_state_text(const struct prog_cmp *pc);

/* The section in text or markdown, after c's table; nothing without programs.  0/-errno. */
int compare_programs_print(FILE *f, const struct comparison *c, bool markdown);

/* p's programs as JSON's "programs" array. */
struct json_object *compare_programs_json(const struct comparison *c, const struct point_cmp *p);

#endif
