/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare OUT, one directory: a sweep over kernels that ran in rounds
 * (conductor.h) decided every kernel's points against the first kernel's
 * as it ran, paired round by round, by decide.h's sequential rule.  Its
 * runs are compared as BASE (OUT/runs/1) and NEW (OUT/runs/2, ...), and
 * the headline metric's verdict of each point is the run's own decision,
 * not a Welch test of the rounds' units as if they came from separate
 * runs, which would throw the pairing away.
 */
#ifndef SWEEP_COMPARE_ROUNDS_H
#define SWEEP_COMPARE_ROUNDS_H

#include <limits.h>

#include "compare_print.h"
#include "kernels.h"

/* OUT's runs, OUT/runs/1 first. */
struct rounds_dirs {
	char dir[MAX_KERNELS][PATH_MAX + 32];
	const char *names[MAX_KERNELS];		/* dir[k], as the list compare takes */
	int nr;
};

/*
 * OUT's runs into rd when OUT is a sweep over kernels that ran in rounds
 * (its meta's kernel_sweep and kernel_rounds); else -EINVAL, said: what
 * OUT is, and what to give instead.
 */
int compare_rounds_dirs(const char *out, struct rounds_dirs *rd);

/*
 * Each compared point's headline verdict taken from NEW's row: its
 * decision, interval and rounds (summary.csv's decision columns), with a
 * note saying so.  Points without a decision keep the test's verdict.
 */
void compare_take_rounds(struct comparison *c);

#endif
