// SPDX-License-Identifier: GPL-2.0
/* plotaxis.c: linear or log2, and the tics of a log2 axis. */
#include <math.h>

#include "check.h"
#include "plotaxis.h"

#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* "1 2 4" of the axis's tics, for one CHECK_STR. */
static const char *ticks_text(const struct plot_xaxis *ax)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < ax->nr_ticks && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%lld", i ? " " : "", ax->ticks[i]);
	return buf;
}

/* Seed 002's producers: 1..52 spans 52 times, so log2; 48 and 52 crowd, so powers of two. */
TEST(seed_producers)
{
	static const long long v[] = { 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52 };
	struct plot_xaxis ax;

	plot_axis_choose(v, NR(v), LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK(!ax.every_value);
	CHECK_STR(ticks_text(&ax), "1 2 4 8 16 32 52");
}

/* The span decides, not the order or repeats: more than 8 times is log2. */
TEST(span_over_8_is_log)
{
	static const long long span8[] = { 8, 1, 3, 3 };
	static const long long span9[] = { 9, 1, 3 };
	static const long long span16[] = { 16, 1, 2, 4, 8, 8 };
	struct plot_xaxis ax;

	plot_axis_choose(span8, NR(span8), LOGX_AUTO, &ax);
	CHECK(!ax.log);
	plot_axis_choose(span9, NR(span9), LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK(ax.every_value);
	CHECK_STR(ticks_text(&ax), "1 3 9");
	plot_axis_choose(span16, NR(span16), LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK_STR(ticks_text(&ax), "1 2 4 8 16");
}

/* on logs any positive x, and says when it cannot; off never logs. */
TEST(forced)
{
	static const long long two[] = { 1, 2 };
	static const long long zero[] = { 0, 1, 64 };
	static const long long wide[] = { 1, 1024 };
	struct plot_xaxis ax;

	plot_axis_choose(two, NR(two), LOGX_ON, &ax);
	CHECK(ax.log);
	CHECK_STR(ticks_text(&ax), "1 2");
	plot_axis_choose(zero, NR(zero), LOGX_ON, &ax);
	CHECK(!ax.log);
	CHECK(ax.cannot_log);
	plot_axis_choose(zero, NR(zero), LOGX_AUTO, &ax);
	CHECK(!ax.log);
	CHECK(!ax.cannot_log);
	plot_axis_choose(wide, NR(wide), LOGX_OFF, &ax);
	CHECK(!ax.log);
	plot_axis_choose(wide, 1, LOGX_ON, &ax);
	CHECK(!ax.log);
}

/* Values that crowd at the top: powers of two, and the last where it has room. */
TEST(powers_and_last)
{
	long long every[100];
	struct plot_xaxis ax;

	for (int i = 0; i < 100; i++)
		every[i] = i + 1;
	plot_axis_choose(every, 100, LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK_STR(ticks_text(&ax), "1 2 4 8 16 32 64 100");
	/* 3..70: from the first power above 3; 64 and 70 crowd, 70 stays */
	for (int i = 0; i < 68; i++)
		every[i] = i + 3;
	plot_axis_choose(every, 68, LOGX_AUTO, &ax);
	CHECK_STR(ticks_text(&ax), "4 8 16 32 70");
}

/* Sizes from 1 to 2^40 bytes, every power: too many labels, every other power. */
TEST(thinned)
{
	long long v[41];
	struct plot_xaxis ax;

	for (int i = 0; i <= 40; i++)
		v[i] = 1LL << i;
	plot_axis_choose(v, 41, LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK(!ax.every_value);
	CHECK(ax.nr_ticks < 41);
	CHECK_INT(ax.ticks[0], 1);
	CHECK_INT(ax.ticks[ax.nr_ticks - 1], 1LL << 40);
	for (int i = 1; i < ax.nr_ticks; i++)
		CHECK(ax.ticks[i] > ax.ticks[i - 1]);
}

/*
 * A doubling series is log2 whatever its span, so that 1 2 4 8 get equal
 * room; two values, or values that do not double, stay linear.
 */
TEST(doubling_is_log)
{
	static const long long pow2[] = { 8, 1, 2, 4, 4 };
	static const long long from3[] = { 3, 6, 12 };
	static const long long by4[] = { 1, 4, 16 };
	static const long long two[] = { 1, 2 };
	static const long long not_doubling[] = { 2, 4, 6 };
	struct plot_xaxis ax;

	plot_axis_choose(pow2, NR(pow2), LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK_STR(ticks_text(&ax), "1 2 4 8");
	plot_axis_choose(from3, NR(from3), LOGX_AUTO, &ax);
	CHECK(ax.log);
	CHECK_STR(ticks_text(&ax), "3 6 12");
	plot_axis_choose(by4, NR(by4), LOGX_AUTO, &ax);
	CHECK(ax.log);
	plot_axis_choose(two, NR(two), LOGX_AUTO, &ax);
	CHECK(!ax.log);
	plot_axis_choose(not_doubling, NR(not_doubling), LOGX_AUTO, &ax);
	CHECK(!ax.log);
	plot_axis_choose(pow2, NR(pow2), LOGX_OFF, &ax);
	CHECK(!ax.log);
}

/*
 * The end values sit inside the range, 3 % of the span (of its log on
 * log2) from the frame, where their error bars show; one value gets one
 * each side.
 */
TEST(range_padded)
{
	static const long long lin[] = { 1, 2, 3 };
	static const long long pow2[] = { 1, 2, 4, 8 };
	static const long long one[] = { 4, 4 };
	struct plot_xaxis ax;

	plot_axis_choose(lin, NR(lin), LOGX_AUTO, &ax);
	CHECK(ax.has_range);
	CHECK(fabs(ax.lo - 0.94) < 1e-9 && fabs(ax.hi - 3.06) < 1e-9);
	plot_axis_choose(pow2, NR(pow2), LOGX_AUTO, &ax);
	CHECK(fabs(ax.lo - 1 / pow(8, 0.03)) < 1e-9 && fabs(ax.hi - 8 * pow(8, 0.03)) < 1e-9);
	plot_axis_choose(one, NR(one), LOGX_ON, &ax);
	CHECK(!ax.log);
	CHECK(ax.lo == 3 && ax.hi == 5);
	CHECK_STR(ticks_text(&ax), "4");
	plot_axis_choose(one, 0, LOGX_AUTO, &ax);
	CHECK(!ax.has_range);
}

/*
 * Every x is a whole number: a linear axis has its tics at the values, or
 * at whole steps of 1, 2, 5 times a power of ten, never at 1.5.
 */
TEST(linear_integer_tics)
{
	static const long long three[] = { 1, 2, 3 };
	static const long long seed[] = { 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48,
					  52 };
	long long many[100];
	struct plot_xaxis ax;

	plot_axis_choose(three, NR(three), LOGX_AUTO, &ax);
	CHECK(ax.every_value);
	CHECK_STR(ticks_text(&ax), "1 2 3");
	plot_axis_choose(seed, NR(seed), LOGX_OFF, &ax);
	CHECK(!ax.log);
	CHECK_INT(ax.nr_ticks, 0);
	CHECK_INT(ax.step, 5);
	for (int i = 0; i < 100; i++)
		many[i] = i * 1000;
	plot_axis_choose(many, 100, LOGX_OFF, &ax);
	CHECK_INT(ax.step, 10000);
	for (int i = 0; i < 100; i++)
		many[i] = i;
	plot_axis_choose(many, 100, LOGX_OFF, &ax);
	CHECK_INT(ax.step, 10);
	plot_axis_choose(many, 15, LOGX_OFF, &ax);
	CHECK_INT(ax.nr_ticks, 15);
}

RUN_TESTS(seed_producers, span_over_8_is_log, forced, powers_and_last, thinned, doubling_is_log,
	  range_padded, linear_integer_tics)
