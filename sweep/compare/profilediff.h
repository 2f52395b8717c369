/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two profiles of one point side by side (compare --profile): per symbol,
 * its self share of each side's samples (the share of samples with it as
 * the leaf), how far it moved, absolute (percentage points) and relative,
 * and whether the samples are too many for the move to be chance: a
 * two-sided two-proportion z-test (pooled), with too_few where p is at
 * least alpha or a side expects fewer than PROFILE_DIFF_MIN_EXPECTED
 * samples of the symbol or of the rest, where the normal approximation
 * the test stands on does not hold (docs/profile.md).  Symbols meet by
 * name, BPF programs without their tag (folded_untag()).
 */
#ifndef SWEEP_PROFILEDIFF_H
#define SWEEP_PROFILEDIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "folded.h"

#define PROFILE_DIFF_MIN_EXPECTED	5

struct sym_move {
	char *name;
	uint64_t base, new;		/* its self samples on each side */
	double base_pct, new_pct;	/* of each side's samples, in %; 0 for a side with none */
	double delta_pp;		/* new_pct - base_pct, percentage points */
	double rel_pct;			/* delta_pp / base_pct in %; NaN when base_pct is 0 */
	double p;			/* the test's p; NaN when a side has no samples */
	bool too_few;			/* the samples cannot tell this move from chance */
};

/*
 * Every symbol that is a leaf on either side of base and new (their first
 * skip frames left out: 1, the task's name), the largest moves first (by
 * |delta_pp|, then name): *out malloc'd, free with sym_moves_free().
 * The profiles are taken as they are (untag them first to match BPF
 * programs across kernels).  0 or -ENOMEM.
 */
int profile_diff(const struct folded *base, const struct folded *new, int skip, double alpha,
		 struct sym_move **out, int *nr);

void sym_moves_free(struct sym_move *m, int nr);

#endif
