// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c: how the warmup and the duration are cut into sampling
 * intervals, worked out by hand; every span ends where it was asked to.
 */
#include <errno.h>

#include "bind.h"
#include "check.h"
#include "timing.h"

#define MS	1000000ULL
#define S	1000000000ULL

TEST(whole_multiples_unchanged)
{
	struct span_split s = timing_split(5 * S, 1 * S);

	CHECK_INT(s.nr, 5);
	for (uint64_t i = 0; i < s.nr; i++)
		CHECK_INT(timing_end_ns(&s, i), (i + 1) * S);
}

/* The issue's -d 0.3 with the default 1s interval: one interval of 300ms, not of 1s. */
TEST(shorter_than_interval_shrinks)
{
	struct span_split s = timing_split(300 * MS, 1 * S);

	CHECK_INT(s.nr, 1);
	CHECK_INT(timing_end_ns(&s, 0), 300 * MS);
	CHECK_NEAR(timing_interval_ns(&s), 300 * MS, 0);
}

/* 2.5s by 1s: three equal intervals, the last ending at 2.5s exactly. */
TEST(no_multiple_cut_evenly)
{
	struct span_split s = timing_split(2500 * MS, 1 * S);

	CHECK_INT(s.nr, 3);
	CHECK_INT(timing_end_ns(&s, 0), 833333333);
	CHECK_INT(timing_end_ns(&s, 1), 1666666666);
	CHECK_INT(timing_end_ns(&s, 2), 2500 * MS);
}

/* Never under 10ms: 15ms by 10ms is one interval of 15ms, not two of 7.5ms. */
TEST(never_below_the_minimum)
{
	struct span_split s = timing_split(15 * MS, 10 * MS);

	CHECK_INT(s.nr, 1);
	CHECK_INT(timing_end_ns(&s, 0), 15 * MS);
	s = timing_split(35 * MS, 10 * MS);
	CHECK_INT(s.nr, 3);
	CHECK(timing_interval_ns(&s) >= TIMING_MIN_INTERVAL_NS);
}

TEST(no_warmup_no_intervals)
{
	struct span_split s = timing_split(0, 1 * S);

	CHECK_INT(s.nr, 0);
}

/* An hour-long duration in 10ms intervals: no overflow, the end exact. */
TEST(long_span_ends_exactly)
{
	struct span_split s = timing_split(3600 * S + 7, 10 * MS);

	CHECK_INT(s.nr, 360000);
	CHECK_INT(timing_end_ns(&s, s.nr - 1), 3600 * S + 7);
}

TEST(described_for_meta_and_expand)
{
	struct sweep_cfg cfg = { .warmup_ns = 100 * MS, .duration_ns = 300 * MS,
				 .interval_ns = 1 * S };
	char buf[128];

	timing_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "1 x 100ms warmup + 1 x 300ms measured");
	cfg.warmup_ns = 0;
	cfg.duration_ns = 2500 * MS;
	timing_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "3 x 833.333ms measured");
	cfg.warmup_ns = 3 * S;
	cfg.duration_ns = 10 * S;
	timing_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "3 x 1s warmup + 10 x 1s measured");
	/* a repetition is its spans and the setup's guess */
	CHECK_INT(timing_rep_ns(&cfg), 13 * S + timing_setup_ns(&cfg));
}

static int own_run(void *state, bool (*stop)(void), struct wl_run_out *out, char *why,
		   size_t len)
{
	return -ENOSYS;
}

/* A program with its own clock (exec) is given whole seconds: meta and expand say so. */
TEST(own_clock_whole_seconds)
{
	static const struct workload prog = { .name = "prog", .run = own_run };
	struct sweep_cfg cfg = { .wl = &prog, .warmup_ns = 250 * MS, .duration_ns = 1 * S,
				 .interval_ns = 250 * MS };
	char buf[128];

	timing_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "{warmup_s} 1 + {duration_s} 1 of the program's own (whole seconds, "
		  "rounded up)");
	CHECK_INT(timing_rep_ns(&cfg), 2 * S + timing_setup_ns(&cfg));
	cfg.warmup_ns = 3 * S;
	cfg.duration_ns = 10 * S;
	timing_describe(&cfg, buf, sizeof(buf));
	CHECK_STR(buf, "{warmup_s} 3 + {duration_s} 10 of the program's own");
}

RUN_TESTS(whole_multiples_unchanged, shorter_than_interval_shrinks, no_multiple_cut_evenly,
	  never_below_the_minimum, no_warmup_no_intervals, long_span_ends_exactly,
	  described_for_meta_and_expand, own_clock_whole_seconds)
