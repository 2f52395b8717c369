/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Axes → points, and the queries of the model (model.h) they need.  Pure:
 * no I/O, testable without running anything.
 * Order: experiments in spec order; inside one, the cartesian product with
 * the first axis outermost and the last varying fastest, like nested loops
 * written top to bottom.
 */
#ifndef SWEEP_MATRIX_H
#define SWEEP_MATRIX_H

#include <stddef.h>

#include "model.h"

/* e's title, or the sweep's for an experiment built without one; never NULL. */
const char *experiment_title(const struct sweep_cfg *cfg, const struct experiment *e);

/* Whether --only TITLE selects pt: it is of the experiment so titled (TITLE NULL: every point). */
bool point_in_only(const struct sweep_cfg *cfg, const struct point *pt, const char *only);

/* The axis of parameter `param` in e (every parameter has one). */
const struct axis *experiment_axis(const struct experiment *e, int param);

/*
 * Number of points the sweep expands to, or -E2BIG past BIND_MAX_POINTS
 * (bind_spec() refuses such a sweep; a configuration built by hand may not).
 */
long long matrix_count(const struct sweep_cfg *cfg);

/*
 * "producers=4<sep>overwrite=off": the parameters that vary within pt's
 * experiment, outermost first, into buf.  Returns the length written
 * (0 when nothing varies).
 */
size_t point_varying(const struct sweep_cfg *cfg, const struct point *pt, const char *sep,
		     char *buf, size_t len);

/* Label of a point as in runtime messages: "ringbuf{producers=8,overwrite=on}". */
void point_name(const struct sweep_cfg *cfg, const struct point *pt, char *buf, size_t len);

/* Allocates *pts (free()); returns 0 or -ENOMEM/-E2BIG. */
int matrix_expand(const struct sweep_cfg *cfg, struct point **pts, int *nr);

#endif
