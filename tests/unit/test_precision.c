// SPDX-License-Identifier: GPL-2.0
/* precision.c: when a point's repetitions are enough, and why they stopped. */
#include <errno.h>
#include <math.h>

#include "check.h"
#include "precision.h"

extern const struct workload null_workload;

static struct point pt = { .wp = { .wl = &null_workload } };

/* A point whose headline mean is 100 with a 95 % half-width of hw (percent, as mean is 100). */
static struct point_result point_with(double hw)
{
	struct point_result r = { .pt = &pt, .status = PS_OK };

	r.stat[0] = (struct summary){ .mean = 100, .ci95 = hw, .n = 50 };
	return r;
}

static struct sweep_cfg cfg_with(double pct, int repeat, int max_repeat, uint64_t max_time_ns)
{
	return (struct sweep_cfg){ .repeat = repeat, .precision_pct = pct,
				   .max_repeat = max_repeat, .max_time_ns = max_time_ns };
}

TEST(parse)
{
	char err[128];
	double v;

	CHECK_INT(precision_parse("2%", "precision", &v, err, sizeof(err)), 0);
	CHECK_NEAR(v, 2, 0);
	CHECK_INT(precision_parse("0.5", "precision", &v, err, sizeof(err)), 0);
	CHECK_NEAR(v, 0.5, 0);
	CHECK_INT(precision_parse("off", "precision", &v, err, sizeof(err)), 0);
	CHECK_NEAR(v, 0, 0);
	CHECK_INT(precision_parse("2%%", "precision", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(precision_parse("-1%", "precision", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(precision_parse("", "precision", &v, err, sizeof(err)), -EINVAL);
	/* strtod()'s other numbers are no percentages; 0 % is no interval (issue 34 N14) */
	CHECK_INT(precision_parse("0x10%", "precision", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(precision_parse("1e1", "decide", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(precision_parse("inf%", "precision", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(precision_parse("0%", "precision", &v, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "precision '0%': no interval is that narrow; 'off' for none");
}

/* At least five repetitions (units) with a precision; repeat alone without one. */
TEST(repetition_bounds)
{
	struct sweep_cfg c = cfg_with(2, 1, 20, 0);

	CHECK_INT(precision_min_reps(&c), PRECISION_MIN_UNITS);
	CHECK_INT(precision_max_reps(&c), 20);
	c.repeat = 8;
	CHECK_INT(precision_min_reps(&c), 8);
	c.max_repeat = 3;	/* below the minimum: the minimum runs */
	CHECK_INT(precision_max_reps(&c), 8);
	c = cfg_with(0, 3, 20, 0);
	CHECK_INT(precision_min_reps(&c), 3);
	CHECK_INT(precision_max_reps(&c), 3);
}

TEST(target_after_the_minimum)
{
	struct sweep_cfg c = cfg_with(2, 1, 20, 0);
	struct point_result r = point_with(1.5);

	CHECK(!precision_stop(&c, &r, 4, 0));		/* four units: not yet */
	CHECK(precision_stop(&c, &r, 5, 0));
	CHECK_STR(r.stop, "target");
	CHECK_NEAR(precision_half_width_pct(&r), 1.5, 1e-12);
}

/* Not within the target: more repetitions, until max_repeat. */
TEST(budget_by_repetitions)
{
	struct sweep_cfg c = cfg_with(2, 1, 7, 0);
	struct point_result r = point_with(3);

	CHECK(!precision_stop(&c, &r, 6, 0));
	CHECK(precision_stop(&c, &r, 7, 0));
	CHECK_STR(r.stop, "budget");
}

/* max_time: stop when one more repetition like the last ones would pass it. */
TEST(budget_by_time)
{
	struct sweep_cfg c = cfg_with(2, 1, 100, 60000000000ULL);
	struct point_result r = point_with(3);

	/* 5 in 45 s: a sixth would end near 54 s */
	CHECK(!precision_stop(&c, &r, 5, 45000000000ULL));
	/* 6 in 54 s: a seventh would end near 63 s */
	CHECK(precision_stop(&c, &r, 6, 54000000000ULL));
	CHECK_STR(r.stop, "budget");
}

/* A trend, two modes or interference veto stopping at the target; the budget still ends it. */
TEST(flags_veto_the_target)
{
	struct sweep_cfg c = cfg_with(2, 1, 8, 0);
	struct point_result r = point_with(1);

	r.quality.flags = QF_TREND | QF_CV;
	r.quality.trend_pct = 12;
	CHECK(!precision_stop(&c, &r, 5, 0));
	CHECK(precision_stop(&c, &r, 8, 0));
	CHECK_STR(r.stop, "vetoed: trend=+12%");
	/* cv alone vetoes nothing */
	r.quality.flags = QF_CV;
	CHECK(precision_stop(&c, &r, 5, 0));
	CHECK_STR(r.stop, "target");
	/* flagged and not within the target: the budget's */
	r = point_with(5);
	r.quality.flags = QF_BIMODAL;
	CHECK(precision_stop(&c, &r, 8, 0));
	CHECK_STR(r.stop, "budget");
}

/* One unit has no interval: never within a target. */
TEST(unknown_half_width_never_meets)
{
	struct sweep_cfg c = cfg_with(2, 1, 6, 0);
	struct point_result r = point_with(NAN);

	CHECK(isnan(precision_half_width_pct(&r)));
	CHECK(!precision_stop(&c, &r, 5, 0));
	CHECK(precision_stop(&c, &r, 6, 0));
	CHECK_STR(r.stop, "budget");
}

RUN_TESTS(parse, repetition_bounds, target_after_the_minimum, budget_by_repetitions,
	  budget_by_time, flags_veto_the_target, unknown_half_width_never_meets)
