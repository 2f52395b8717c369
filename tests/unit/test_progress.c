// SPDX-License-Identifier: GPL-2.0
/*
 * progress_line(): the terminal's progress line in fewer columns than the
 * terminal has, the bar giving way first, then the title, then the name.
 * The bar as a sweep draws it, on a fake clock and stream: its ETA falls
 * while a point runs as planned, it says what the point waits for, and
 * the sampler's wake-ups redraw it at most once a second.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "progress.h"

/* Columns of UTF-8 text, as a terminal counts them for these strings. */
static int cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static const char *line(int width, const char *title, const char *name, int nr_reps)
{
	static char buf[1024];
	struct progress_view v = {
		.done = 4, .nr_points = 48, .title = title, .name = name,
		.rep = 0, .nr_reps = nr_reps, .eta_s = 62,
	};

	return progress_line(buf, sizeof(buf), width, &v);
}

TEST(fits_whole)
{
	CHECK_STR(line(0, "Overwrite", "ringbuf{producers=2}", 1),
		  "[#                   ] 5/48 Overwrite: ringbuf{producers=2} ETA 1m02s");
	CHECK_STR(line(120, "Overwrite", "ringbuf{producers=2}", 3),
		  "[#                   ] 5/48 Overwrite: ringbuf{producers=2} rep 1/3 ETA 1m02s");
	CHECK_STR(line(80, NULL, "null{}", 1), "[#                   ] 5/48 null{} ETA 1m02s");
	CHECK_STR(line(80, "", "null{}", 1), "[#                   ] 5/48 null{} ETA 1m02s");
}

/* The line is at most width - 1 columns: it never wraps. */
TEST(never_wraps)
{
	static const char title[] =
		"Ringbuf, multi-producer contention, overwrite mode, producer only";
	static const char name[] = "ringbuf{bench=rb-prod,overwrite=on,producers=52,batch_cnt=50}";

	for (int w = 1; w <= 200; w++) {
		const char *l = line(w, title, name, 3);

		CHECK(cols(l) <= (w > 1 ? w - 1 : 0) || (w == 1 && !l[0]));
	}
	CHECK_INT(cols(line(200, title, name, 3)),
		  23 + 5 + (int)strlen(title) + 2 + (int)strlen(name) + 18);
}

TEST(bar_gives_way_first)
{
	/* 68 columns whole: at 60 the bar goes, title and name stay */
	CHECK_STR(line(60, "Overwrite", "ringbuf{producers=2}", 1),
		  "5/48 Overwrite: ringbuf{producers=2} ETA 1m02s");
}

TEST(title_then_name)
{
	/* the title is cut ("…" is one column), the name whole */
	CHECK_STR(line(43, "Overwrite mode", "ringbuf{producers=2}", 1),
		  "5/48 Over\u2026: ringbuf{producers=2} ETA 1m02s");
	/* under 4 columns of title: none, the name whole while it fits */
	CHECK_STR(line(40, "Overwrite mode", "ringbuf{producers=2}", 1),
		  "5/48 ringbuf{producers=2} ETA 1m02s");
	CHECK_STR(line(30, "Overwrite mode", "ringbuf{producers=2}", 1),
		  "5/48 ringbuf{produ\u2026 ETA 1m02s");
	/* the counter and the ETA stay while the width allows, then the whole is cut */
	CHECK_STR(line(20, "Overwrite mode", "ringbuf{producers=2}", 1),
		  "5/48 rin\u2026 ETA 1m02s");
	CHECK_STR(line(12, "Overwrite mode", "ringbuf{producers=2}", 1), "5/48 rin\u2026 \u2026");
}

/* A title's UTF-8 counts in characters and is never cut inside one; a tab is a space. */
TEST(utf8_and_tabs)
{
	CHECK_STR(line(42, "R\u00e9sum\u00e9\u00e9\u00e9\u00e9", "null{rate=1}", 1),
		  "5/48 R\u00e9sum\u00e9\u00e9\u00e9\u00e9: null{rate=1} ETA 1m02s");
	CHECK_STR(line(36, "R\u00e9sum\u00e9\u00e9\u00e9\u00e9", "null{rate=1}", 1),
		  "5/48 R\u00e9sum\u2026: null{rate=1} ETA 1m02s");
	CHECK_STR(line(0, "a\tb", "null{}", 1),
		  "[#                   ] 5/48 a b: null{} ETA 1m02s");
}

/* The phase's words, and a one-repetition point's none but the phase. */
TEST(phase_words)
{
	struct progress_view v = { .done = 0, .nr_points = 2, .name = "null{}", .rep = 2,
				   .nr_reps = 5, .phase = PROGRESS_WARMUP, .eta_s = 75 };
	char buf[256];

	CHECK_STR(progress_line(buf, sizeof(buf), 0, &v),
		  "[                    ] 1/2 null{} rep 3/5 warmup ETA 1m15s");
	v.phase = PROGRESS_MEASURING;
	CHECK_STR(progress_line(buf, sizeof(buf), 0, &v),
		  "[                    ] 1/2 null{} rep 3/5 ETA 1m15s");
	v.phase = PROGRESS_SETUP;
	CHECK_STR(progress_line(buf, sizeof(buf), 0, &v),
		  "[                    ] 1/2 null{} rep 3/5 setup ETA 1m15s");
	v.phase = PROGRESS_STATS_PASS;
	CHECK_STR(progress_line(buf, sizeof(buf), 0, &v),
		  "[                    ] 1/2 null{} statistics pass ETA 1m15s");
	v.nr_reps = 1;
	v.phase = PROGRESS_WARMUP;
	CHECK_STR(progress_line(buf, sizeof(buf), 0, &v),
		  "[                    ] 1/2 null{} warmup ETA 1m15s");
}

/* A fake terminal: the time the test says, the bar into a memory stream. */
static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return fake_now;
}

struct fake_term {
	char *buf;
	size_t len;
	size_t seen;		/* what next_draw() has looked at */
	struct progress_term term;
};

static void fake_open(struct fake_term *ft, bool tty)
{
	memset(ft, 0, sizeof(*ft));
	fake_now = 1000 * 1000000000ULL;
	ft->term = (struct progress_term){ .out = open_memstream(&ft->buf, &ft->len),
					   .tty = tty, .width = 200, .clock = fake_clock };
}

static void fake_close(struct fake_term *ft)
{
	fclose(ft->term.out);
	free(ft->buf);
}

/*
 * The last bar line drawn since the last call ("\r" LINE "\033[K"), into
 * line; false when none was.  *nr counts the bars drawn.
 */
static bool next_draw(struct fake_term *ft, char *line, size_t len, int *nr)
{
	const char *from, *end, *cr = NULL;

	fflush(ft->term.out);
	for (from = ft->buf + ft->seen; (from = strstr(from, "\r")); from++)
		if (from[1] != '\033') {
			cr = from;
			(*nr)++;
		}
	ft->seen = ft->len;
	if (!cr || !(end = strstr(cr, "\033[K")))
		return false;
	snprintf(line, len, "%.*s", (int)(end - cr - 1), cr + 1);
	return true;
}

/* The ETA in a bar line, in seconds, or -1. */
static int eta_of(const char *line)
{
	const char *e = strstr(line, " ETA ");
	unsigned int m, s;

	return e && sscanf(e, " ETA %um%us", &m, &s) == 2 ? (int)(m * 60 + s) : -1;
}

#define SEC 1000000000ULL

/*
 * One repetition as the sampler runs it: setup, then warmup_s intervals of
 * warmup and measured_s measured, one a second, each wake-up after one
 * but the last telling the bar; every bar drawn is checked against the
 * one before (*last: its ETA, -1 at a point's start).
 */
static bool run_rep(struct progress *p, struct fake_term *ft, int rep, int warmup_s,
		    int measured_s, int *last, int *nr, bool *saw_phase)
{
	int nr_all = warmup_s + measured_s;
	char line[512];

	progress_begin(p, "null{rate=1}", rep, 3);
	fake_now += SEC / 2;		/* the setup */
	progress_woke(p, warmup_s > 0);
	for (int i = 0; i <= nr_all; i++) {
		if (next_draw(ft, line, sizeof(line), nr)) {
			int eta = eta_of(line);

			if (eta < 0 || (*last >= 0 && eta > *last)) {
				printf("# ETA rose: %d s, then \"%s\"\n", *last, line);
				return false;
			}
			*last = eta;
			*saw_phase |= strstr(line, " warmup ETA") && strstr(line, "rep 2/3");
		}
		if (i == nr_all)
			break;
		fake_now += i + 1 == nr_all ? SEC + SEC / 2 : SEC;	/* the last, and teardown */
		if (i + 1 < nr_all)
			progress_woke(p, i + 1 < warmup_s);
	}
	return true;
}

static struct point_result ok_result(void)
{
	static const struct metric_def metric = { .name = "hits" };
	static const struct workload wl = { .name = "null", .metrics = &metric, .nr_metrics = 1 };
	static struct point pt = { .wp.wl = &wl };

	return (struct point_result){ .pt = &pt, .status = PS_OK };
}

/*
 * Three points of three repetitions, 2 s of warmup and 8 measured, each
 * point taking as long as planned: within each point the ETA never rises
 * (it rose from 10 s to 13 s to 17 s as 10.6, 7.3 and 4.7 s were left,
 * counting the running point whole), and it ends near 0.
 */
TEST(eta_falls_within_a_point)
{
	struct point_result r = ok_result();
	struct fake_term ft;
	struct progress p;
	bool saw_warmup = false;
	char line[512];
	int nr = 0;

	fake_open(&ft, true);
	progress_init(&p, 3, 3, 33 * SEC, &ft.term);
	for (int pt = 0; pt < 3; pt++) {
		int last = -1;

		for (int rep = 0; rep < 3; rep++)
			CHECK(run_rep(&p, &ft, rep, 2, 8, &last, &nr, &saw_warmup));
		/* drawn 1.5 s before the point ended: the points after it and those 1.5 s */
		CHECK(last <= (2 - pt) * 33 + 2);
		progress_end(&p, "null{rate=1}", &r);
		next_draw(&ft, line, sizeof(line), &nr);
	}
	CHECK(saw_warmup);
	/* at most once a second and at each phase change, never at every wake-up's */
	CHECK(nr <= 3 * 3 * (10 + 2));
	fake_close(&ft);
}

/* The statistics pass says so, and the sampler's 100 ms wake-ups redraw once a second. */
TEST(stats_pass_and_redraw_rate)
{
	struct fake_term ft;
	struct progress p;
	char line[512];
	int nr = 0;

	fake_open(&ft, true);
	progress_init(&p, 2, 2, 12 * SEC, &ft.term);
	progress_begin(&p, "null{rate=1}", 0, 1);
	CHECK(next_draw(&ft, line, sizeof(line), &nr));
	CHECK(strstr(line, "null{rate=1} setup ETA 0m24s"));
	fake_now += SEC;
	progress_woke(&p, false);
	CHECK(next_draw(&ft, line, sizeof(line), &nr));
	CHECK(strstr(line, "null{rate=1} ETA 0m23s"));
	nr = 0;
	for (int i = 0; i < 100; i++) {
		fake_now += SEC / 10;
		progress_woke(&p, false);
	}
	next_draw(&ft, line, sizeof(line), &nr);
	CHECK(nr >= 9 && nr <= 10);
	CHECK(strstr(line, "null{rate=1} ETA 0m13s"));
	progress_stats_pass(&p, "null{rate=1}");
	CHECK(next_draw(&ft, line, sizeof(line), &nr));
	CHECK(strstr(line, "null{rate=1} statistics pass ETA 0m13s"));
	/* the pass's own repetition: its warmup is the pass's */
	fake_now += SEC;
	progress_woke(&p, true);
	CHECK(next_draw(&ft, line, sizeof(line), &nr));
	CHECK(strstr(line, "null{rate=1} statistics pass ETA 0m12s"));
	fake_close(&ft);
}

/* Not a terminal: the wake-ups draw nothing (a log gets finished points only). */
TEST(no_bar_in_a_log)
{
	struct fake_term ft;
	struct progress p;

	fake_open(&ft, false);
	progress_init(&p, 1, 1, 10 * SEC, &ft.term);
	progress_begin(&p, "null{}", 0, 1);
	for (int i = 0; i < 30; i++) {
		fake_now += SEC;
		progress_woke(&p, i < 2);
	}
	fflush(ft.term.out);
	CHECK_INT(ft.len, 0);
	fake_close(&ft);
}

RUN_TESTS(fits_whole, never_wraps, bar_gives_way_first, title_then_name, utf8_and_tabs,
	  phase_words, eta_falls_within_a_point, stats_pass_and_redraw_rate, no_bar_in_a_log)
