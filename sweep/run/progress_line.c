// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal's progress line, fitted to its width: a line that wraps
 * leaves its first row behind when the next "\r\033[K" erases only the
 * last, so the line never reaches the last column.  Pure: no I/O.
 */
#include <stdio.h>
#include <string.h>

#include "progress.h"

#define BAR_WIDTH	20
#define ELLIPSIS	"\u2026"	/* "…", one column */

/* Columns of UTF-8 text: one per code point (what names and titles hold). */
static int cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

struct out {
	char *p, *end;		/* end: where the NUL goes */
};

static void put_byte(struct out *o, char c)
{
	if (o->p < o->end)
		*o->p++ = c;
}

/*
 * s into o, at most max columns: a cut text ends in "…" within them.  A
 * tab (which a spec allows in a title) is a space here, since it would
 * take the terminal's columns, not one.
 */
static void put_cut(struct out *o, const char *s, int max)
{
	bool cut = cols(s) > max;
	int n = 0;

	if (max <= 0)
		return;
	for (; *s; s++) {
		bool starts = ((unsigned char)*s & 0xc0) != 0x80;

		if (starts && n == max - cut)
			break;
		n += starts;
		put_byte(o, *s == '\t' ? ' ' : *s);
	}
	for (const char *e = cut ? ELLIPSIS : ""; *e; e++)
		put_byte(o, *e);
}

static void put(struct out *o, const char *s)
{
	put_cut(o, s, cols(s));
}

/*
 * What the point waits for, then the ETA: " rep 2/3 warmup ETA 1m02s";
 * the pass is the point's, no repetition's, and one repetition needs no count.
 */
static void put_phase(char *tail, size_t len, const struct progress_view *v)
{
	static const char *const word[] = {
		[PROGRESS_MEASURING] = "", [PROGRESS_SETUP] = " setup",
		[PROGRESS_WARMUP] = " warmup", [PROGRESS_STATS_PASS] = " statistics pass",
	};
	size_t n = 0;

	if (v->nr_reps > 1 && v->phase != PROGRESS_STATS_PASS)
		n = snprintf(tail, len, " rep %d/%d", v->rep + 1, v->nr_reps);
	snprintf(tail + n, len - n, "%s ETA %um%02us", word[v->phase], v->eta_s / 60,
		 v->eta_s % 60);
}

/*
 * What gives way when the line is too long: first the bar, then the
 * experiment's title (cut, then gone), then the point's name (cut); the
 * counter and the ETA stay, and only a width narrower than those cuts
 * the whole line.
 */
const char *progress_line(char *buf, size_t len, int width, const struct progress_view *v)
{
	char bar[64], counter[32], tail[128], line[1024];
	int filled = v->nr_points ? v->done * BAR_WIDTH / v->nr_points : 0;
	int usable = width > 0 ? width - 1 : 1 << 20;
	struct out o = { line, line + sizeof(line) - 1 }, b = { buf, buf + len - 1 };
	int fixed, bar_cols = 0, title_cols, room;

	if (filled < 0 || filled > BAR_WIDTH)
		filled = filled < 0 ? 0 : BAR_WIDTH;
	snprintf(bar, sizeof(bar), "[%.*s%*s]", filled, "####################",
		 BAR_WIDTH - filled, "");
	snprintf(counter, sizeof(counter), "%d/%d", v->done + 1, v->nr_points);
	put_phase(tail, sizeof(tail), v);

	fixed = cols(counter) + 1 + cols(tail);
	title_cols = v->title && v->title[0] ? cols(v->title) + 2 : 0;	/* "title: " */
	if (cols(bar) + 1 + fixed + title_cols + cols(v->name) <= usable) {
		bar_cols = cols(bar) + 1;
		put(&o, bar);
		put_byte(&o, ' ');
	}
	put(&o, counter);
	put_byte(&o, ' ');
	room = usable - fixed - bar_cols - cols(v->name);
	/* cut to fewer than 4 columns, a title says nothing: then none */
	if (title_cols && room < title_cols)
		title_cols = room >= 2 + 4 ? room : 0;
	if (title_cols) {
		put_cut(&o, v->title, title_cols - 2);
		put(&o, ": ");
	}
	room = usable - fixed - bar_cols - title_cols;
	put_cut(&o, v->name, room > 4 ? room : 4);
	put(&o, tail);
	*o.p = '\0';
	put_cut(&b, line, usable);
	*b.p = '\0';
	return buf;
}
