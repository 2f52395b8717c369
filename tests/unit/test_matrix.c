// SPDX-License-Identifier: GPL-2.0
/* matrix.c: point count and the documented order (first axis outermost). */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "matrix.h"

extern const struct workload null_workload;

/* null's params: producers rate drop_pct value_size mode flag fail */
static long long producers[] = { 1, 2, 4 };
static long long modes[] = { 0, 1 };
static long long one_rate[] = { 1000 };
static long long zero[] = { 0 };

static struct experiment two_axes = {
	.title = "two axes",
	.axes = {
		{ .param = 4, .vals = modes, .nr_vals = 2 },
		{ .param = 0, .vals = producers, .nr_vals = 3 },
		{ .param = 1, .vals = one_rate, .nr_vals = 1 },
		{ .param = 2, .vals = zero, .nr_vals = 1 },
		{ .param = 3, .vals = one_rate, .nr_vals = 1 },
		{ .param = 5, .vals = zero, .nr_vals = 1 },
		{ .param = 6, .vals = zero, .nr_vals = 1 },
	},
	.nr_axes = 7,
};

static struct experiment one_point = {
	.title = "defaults",
	.axes = {
		{ .param = 0, .vals = producers + 2, .nr_vals = 1 },
		{ .param = 1, .vals = one_rate, .nr_vals = 1 },
		{ .param = 2, .vals = zero, .nr_vals = 1 },
		{ .param = 3, .vals = one_rate, .nr_vals = 1 },
		{ .param = 4, .vals = zero, .nr_vals = 1 },
		{ .param = 5, .vals = zero, .nr_vals = 1 },
		{ .param = 6, .vals = zero, .nr_vals = 1 },
	},
	.nr_axes = 7,
};

TEST(order_first_axis_outermost)
{
	struct experiment exps[2] = { two_axes, one_point };
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = exps, .nr_exps = 2 };
	const long long want_mode[] = { 0, 0, 0, 1, 1, 1, 0 };
	const long long want_prod[] = { 1, 2, 4, 1, 2, 4, 4 };
	struct point *pts;
	int nr;

	CHECK_INT(matrix_count(&cfg), 7);
	CHECK_INT(matrix_expand(&cfg, &pts, &nr), 0);
	CHECK_INT(nr, 7);
	for (int i = 0; i < nr; i++) {
		if (pts[i].id != i || pts[i].exp != (i < 6 ? 0 : 1) ||
		    pts[i].wp.v[4] != want_mode[i] || pts[i].wp.v[0] != want_prod[i] ||
		    pts[i].wp.v[1] != 1000 || pts[i].wp.wl != &null_workload) {
			free(pts);
			CHECK_FAIL_("point %d is wrong", i);
		}
	}
	free(pts);
}

TEST(too_many_points_refused)
{
	static long long many[1000];
	struct experiment e = {
		.axes = {
			{ .param = 0, .vals = many, .nr_vals = 1000 },
			{ .param = 1, .vals = many, .nr_vals = 1000 },
			{ .param = 2, .vals = many, .nr_vals = 1000 },
		},
		.nr_axes = 3,
	};
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point *pts;
	int nr;

	CHECK_INT(matrix_expand(&cfg, &pts, &nr), -E2BIG);
	CHECK(pts == NULL);
}

RUN_TESTS(order_first_axis_outermost, too_many_points_refused)
