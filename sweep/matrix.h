/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Axes → points.  Pure: no I/O, testable without running anything.
 * Order: experiments in spec order; inside one, the cartesian product with
 * the first axis outermost and the last varying fastest, like nested loops
 * written top to bottom.
 */
#ifndef SWEEP_MATRIX_H
#define SWEEP_MATRIX_H

#include "bind.h"
#include "workload.h"

struct point {
	int id;			/* 0-based, stable for a given spec */
	int exp;		/* index into cfg->exps */
	struct wl_point wp;
};

/* Number of points the sweep expands to. */
long long matrix_count(const struct sweep_cfg *cfg);

/* Allocates *pts (free()); returns 0 or -ENOMEM/-E2BIG. */
int matrix_expand(const struct sweep_cfg *cfg, struct point **pts, int *nr);

#endif
