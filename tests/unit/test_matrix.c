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

/* 10^15 points were counted as 10100000: the count stopped multiplying, not adding. */
TEST(count_past_cap_is_an_error)
{
	static long long many[100000];
	struct experiment e = {
		.axes = {
			{ .param = 0, .vals = many, .nr_vals = 100000 },
			{ .param = 1, .vals = many, .nr_vals = 100000 },
			{ .param = 2, .vals = many, .nr_vals = 100000 },
		},
		.nr_axes = 3,
	};
	struct experiment es[2] = { one_point, one_point };
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };

	CHECK_INT(matrix_count(&cfg), -E2BIG);
	/* and a product that wraps a long long (2^17 to the 4th is 2^68) */
	for (int a = 0; a < 4; a++)
		e.axes[a] = (struct axis){ .param = a, .vals = many, .nr_vals = 1 << 17 };
	e.nr_axes = 4;
	CHECK_INT(matrix_count(&cfg), -E2BIG);
	/* the cap holds for the sum of the experiments too */
	es[0].axes[0] = (struct axis){ .param = 0, .vals = many, .nr_vals = 100000 };
	es[0].axes[1] = (struct axis){ .param = 1, .vals = many, .nr_vals = 10 };
	cfg = (struct sweep_cfg){ .wl = &null_workload, .exps = es, .nr_exps = 2 };
	CHECK_INT(matrix_count(&cfg), -E2BIG);
	cfg.nr_exps = 1;
	CHECK_INT(matrix_count(&cfg), 1000000);
}

RUN_TESTS(order_first_axis_outermost, too_many_points_refused, count_past_cap_is_an_error)
