/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bisect walked (docs/kernel.md, "Bisect"): the ends run and judged,
 * then each step's kernel fetched and run in rounds (bisect_run.h) until
 * bisectstep.h's verdict or the budget, as bisect.c's driver asks, the
 * record written as it goes (bisect_record.h).  Also the one kernel of
 * `bisect --step`, judged against two result directories.  cmd_bisect.c
 * only parses the options, opens OUT and turns the outcome into a status.
 */
#ifndef SWEEP_BISECT_WALK_H
#define SWEEP_BISECT_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "bisect.h"
#include "bisect_kernels.h"
#include "bisect_record.h"
#include "bisect_run.h"
#include "bisectstep.h"

struct bisect_walk {
	/* given */
	struct bisect_runner br;	/* what every round runs */
	const char *out;		/* OUT, held and locked by the caller */
	struct bisect_list list;	/* freed by bisect_walk_free() */
	struct bisect_terms terms;
	struct bisect_rule rule;	/* bisect_walk_rule()'s */
	bool icount;			/* the spec asks for vm_accel = tcg-icount */
	bool allow_tcg;			/* a timed metric under plain TCG all the same */
	/* the points, as the ends measured them */
	struct bisect_point *pts;
	long long *ids;
	int nr_pts;
	struct bisect_obs *obs;		/* a step's, pooled over its rounds */
	struct bisect bs;		/* the driver's state: the steps, the outcome */
};

/* The rule a step is judged by: the spec's decide (0: none) and whether it runs in icount. */
void bisect_walk_rule(struct bisect_walk *w, double decide_pct, bool icount);

/*
 * The whole bisect of w->list into w->out, its record (steps.csv after
 * each step, bisect.txt and bisect.html at the end) and its table on stdout;
 * how it ended is w->bs.  0, or -ENOMEM.
 */
int bisect_walk_kernels(struct bisect_walk *w);

/*
 * --step's ends: the result directories good and bad, read and judged.
 * 0, -ENODATA (they do not differ: why), -EPERM (the TCG refusal, said)
 * or -errno.
 */
int bisect_walk_step_ends(struct bisect_walk *w, const char *good, const char *bad, char *why,
			  size_t len);

/*
 * Kernel image's rounds into base until its verdict or the budget, into
 * *st (a kernel that did not run: skipped).  0, or -EINTR / -EINVAL.
 */
int bisect_walk_rounds(struct bisect_walk *w, const char *image, const char *base,
		       struct bisect_step *st);

void bisect_walk_free(struct bisect_walk *w);

#endif
