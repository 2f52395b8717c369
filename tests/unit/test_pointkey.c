// SPDX-License-Identifier: GPL-2.0
/* pointkey.c: "the same point", by experiment and parameter values by name. */
#include "check.h"
#include "pointkey.h"

static char *head_a[] = { "experiment", "producers", "overwrite" };
static char *head_b[] = { "experiment", "overwrite", "producers", "batch" };

TEST(rows_by_name)
{
	char *a[] = { "rb", "4", "on" }, *b[] = { "rb", "on", "4", "50" };
	char *c[] = { "rb", "off", "4", "50" }, *d[] = { "other", "on", "4", "50" };
	int ca[] = { 1, 2 }, cb[] = { 1, 2 }, cb3[] = { 1, 2, 3 };
	struct point_key ka = point_key_of_row(a[0], head_a, a, ca, 2);
	struct point_key kb = point_key_of_row(b[0], head_b, b, cb, 2);
	struct point_key kc = point_key_of_row(c[0], head_b, c, cb, 2);
	struct point_key kd = point_key_of_row(d[0], head_b, d, cb, 2);
	struct point_key kb3 = point_key_of_row(b[0], head_b, b, cb3, 3);

	/* columns in another order: the same point */
	CHECK(point_same(&ka, &kb, -1));
	CHECK(point_same(&kb, &ka, -1));
	CHECK_INT(point_key_diff(&ka, &kc, -1), 1);
	CHECK_INT(point_key_diff(&ka, &kd, -1), POINT_KEY_EXPERIMENT);
	kd.experiment = NULL;
	CHECK(point_same(&ka, &kd, -1));
	/* a parameter only one side has: not the same point, either way round */
	CHECK_INT(point_key_diff(&ka, &kb3, -1), 2);
	CHECK_INT(point_key_diff(&kb3, &ka, -1), 2);
}

TEST(values_by_place)
{
	long long v[] = { 4, 1, 50 }, base[] = { 4, 0, 50 }, other[] = { 8, 0, 50 };
	struct point_key kv = point_key_of_values(v, 3), kbase = point_key_of_values(base, 3);
	struct point_key kother = point_key_of_values(other, 3);

	CHECK_INT(point_key_diff(&kv, &kbase, -1), 1);
	CHECK(point_same(&kv, &kbase, 1));
	CHECK_INT(point_key_diff(&kv, &kother, 1), 0);
}

RUN_TESTS(rows_by_name, values_by_place);
