// SPDX-License-Identifier: GPL-2.0
/* scaling.c: per-producer and relative series of scaling charts, against worked values. */
#include <errno.h>

#include "check.h"
#include "scaling.h"

/* 1, 2, 4 producers at 10, 16, 20 M/s (error bars 1, 2, 4) */
static void series(struct series_pt *p)
{
	p[0] = (struct series_pt){ 1, 10e6, 1e6 };
	p[1] = (struct series_pt){ 2, 16e6, 2e6 };
	p[2] = (struct series_pt){ 4, 20e6, 4e6 };
}

TEST(nothing_asked_nothing_changed)
{
	struct series_pt p[3];

	series(p);
	CHECK_INT(scaling_apply(p, 3, false, false), 0);
	CHECK_NEAR(p[1].mean, 16e6, 1e-9);
	CHECK_NEAR(p[2].err, 4e6, 1e-9);
}

TEST(per_producer_efficiency)
{
	struct series_pt p[3];

	series(p);
	CHECK_INT(scaling_apply(p, 3, true, false), 0);
	CHECK_NEAR(p[0].mean, 10e6, 1e-9);
	CHECK_NEAR(p[1].mean, 8e6, 1e-9);
	CHECK_NEAR(p[2].mean, 5e6, 1e-9);
	CHECK_NEAR(p[2].err, 1e6, 1e-9);
}

TEST(relative_to_the_first_point)
{
	struct series_pt p[3];

	series(p);
	CHECK_INT(scaling_apply(p, 3, false, true), 0);
	CHECK_NEAR(p[0].mean, 1.0, 1e-12);
	CHECK_NEAR(p[1].mean, 1.6, 1e-12);
	CHECK_NEAR(p[2].mean, 2.0, 1e-12);
	CHECK_NEAR(p[1].err, 0.2, 1e-12);
}

/* Both: per-producer efficiency relative to one producer's, 1.0, 0.8, 0.5. */
TEST(per_producer_relative_is_scaling_efficiency)
{
	struct series_pt p[3];

	series(p);
	CHECK_INT(scaling_apply(p, 3, true, true), 0);
	CHECK_NEAR(p[0].mean, 1.0, 1e-12);
	CHECK_NEAR(p[1].mean, 0.8, 1e-12);
	CHECK_NEAR(p[2].mean, 0.5, 1e-12);
	CHECK_NEAR(p[2].err, 0.1, 1e-12);
}

TEST(zero_divisors_are_refused_untouched)
{
	struct series_pt p[3];

	series(p);
	p[1].per = 0;
	CHECK_INT(scaling_apply(p, 3, true, false), -EDOM);
	CHECK_NEAR(p[0].mean, 10e6, 1e-9);
	CHECK_INT(scaling_apply(p, 3, false, false), 0);	/* per unused */
	series(p);
	p[0].mean = 0;
	CHECK_INT(scaling_apply(p, 3, false, true), -EDOM);
	CHECK_NEAR(p[2].mean, 20e6, 1e-9);
	CHECK_INT(scaling_apply(p, 0, true, true), 0);
}

RUN_TESTS(nothing_asked_nothing_changed, per_producer_efficiency, relative_to_the_first_point,
	  per_producer_relative_is_scaling_efficiency, zero_divisors_are_refused_untouched)
