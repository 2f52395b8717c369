/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile in Brendan Gregg's folded form: one line per distinct stack,
 * "frame;frame;frame count", root first, as flamegraph.pl, speedscope and
 * inferno read it.  Built from counted stacks (folded_add, then
 * folded_merge), written and parsed back; foldtop.h sums it per symbol.
 */
#ifndef SWEEP_FOLDED_H
#define SWEEP_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct folded_line {
	char *stack;		/* "root;...;leaf" */
	uint64_t count;
};

struct folded {
	struct folded_line *l;
	int nr;
	uint64_t total;		/* the sum of the counts, at most UINT64_MAX (saturated) */
};

/*
 * Append a stack (copied) with its count; duplicates are summed by
 * folded_merge().  Sums (total, a merged line's count) stop at
 * UINT64_MAX: a share of them is never above 100 %.
 */
int folded_add(struct folded *f, const char *stack, uint64_t count);

/* Sort the lines by stack and sum those of one stack: the file's order. */
void folded_merge(struct folded *f);

/* The lines, one "stack count\n" each; 0 or -EIO. */
int folded_write(FILE *out, const struct folded *f);

/*
 * Parse the text of a folded file (len bytes; NUL bytes refused): each
 * non-empty line a stack, a space and a count of at most 2^63 - 1; a
 * line's frames non-empty; the counts adding up to at most 2^63 - 1 (a
 * real profile has thousands: what sums them cannot wrap).  -EINVAL with
 * why "line N: ..." at the first bad line; lines of one stack are merged.
 */
int folded_parse(const char *text, size_t len, struct folded *f, char *why, size_t why_len);

void folded_free(struct folded *f);

#endif
