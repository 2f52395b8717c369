// SPDX-License-Identifier: GPL-2.0
/*
 * progress_line(): the terminal's progress line in fewer columns than the
 * terminal has, the bar giving way first, then the title, then the name.
 */
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

RUN_TESTS(fits_whole, never_wraps, bar_gives_way_first, title_then_name, utf8_and_tabs)
