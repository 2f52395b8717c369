/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A folded profile summed per symbol: each symbol's samples as the leaf
 * (self: where the CPU was) and anywhere in the stack (total: under it),
 * and the top-N table of both as shares of all samples.
 */
#ifndef SWEEP_FOLDTOP_H
#define SWEEP_FOLDTOP_H

#include <stdint.h>
#include <stdio.h>

#include "folded.h"

struct sym_share {
	char *name;
	uint64_t self, total;
};

/*
 * Every symbol of f with its counts, the first skip frames of each line
 * left out (1: the task's name the profiler puts at the root), sorted by
 * self, then total, descending, then name: *out malloc'd, free with
 * sym_shares_free().  A symbol twice in one line (recursion) counts that
 * line once towards its total.  n log n in the frames.  0, -ENOMEM or
 * -E2BIG (2^31 frames or more).
 */
int folded_shares(const struct folded *f, int skip, struct sym_share **out, int *nr);

void sym_shares_free(struct sym_share *s, int nr);

/* The top n symbols: a "self total samples symbol" line each, shares in %.  0 or -errno. */
int folded_write_top(FILE *out, const struct folded *f, int skip, int n);

#endif
