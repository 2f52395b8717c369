/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of a bisect (docs/kernel.md, "Bisect"): OUT holds meta, the
 * kernels in order (OUT/kernels, what --resume walks again), each step's
 * runs (OUT/steps/<NNN>-<kernel>/<round>, with their log), the steps as a
 * table (OUT/steps.csv, replaced after every step, so a bisect cut short
 * keeps what it found) and, at the end, OUT/bisect.txt: the table as
 * printed, the last good and the first bad kernel.
 */
#ifndef SWEEP_BISECT_RECORD_H
#define SWEEP_BISECT_RECORD_H

#include <stdio.h>

#include "bisect.h"
#include "bisect_kernels.h"
#include "outdir.h"

/* What names the verdicts: good and bad, or old and new. */
struct bisect_terms {
	const char *good, *bad;
};

/*
 * A new OUT in od (outdir.h: out, the user's -o, else
 * results/<name>/<date>-bisect), held and locked, with its meta (the command line, the terms) and OUT/kernels.  The
 * one place a bisect's OUT is made.  0 or -errno (said).
 */
int bisect_out_create(struct outdir *od, const char *out, const char *name,
		      const char *argv_line, const struct bisect_terms *t,
		      const struct bisect_list *l);

/*
 * --resume OUT: held and locked in od, its kernels (OUT/kernels) into l,
 * and its terms.  0 or -errno (said).
 */
int bisect_out_reopen(struct outdir *od, const char *out, struct bisect_list *l,
		      struct bisect_terms *t);

/* OUT/steps/<NNN>-<kernel>: where kernel k's rounds go (created if missing). */
int bisect_step_dir(const char *out, const struct bisect_list *l, int k, char *buf, size_t len);

/* OUT/steps.csv of the steps so far, replaced. */
int bisect_write_steps(const char *out, const struct bisect *b, const struct bisect_list *l,
		       const struct bisect_terms *t);

/* The table and the outcome, to f. */
void bisect_print(FILE *f, const struct bisect *b, const struct bisect_list *l,
		  const struct bisect_terms *t);

/* bisect_print() into OUT/bisect.txt and the outcome into OUT/meta.  0 or -errno. */
int bisect_write_result(const char *out, const struct bisect *b, const struct bisect_list *l,
			const struct bisect_terms *t);

/* The verdict as the terms say it: good/bad, or old/new. */
const char *bisect_term(const struct bisect_terms *t, enum bisect_verdict v);

#endif
