// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph's frames from folded stacks: see flamelayout.h.
 *
 * The lines are sorted frame by frame (a ';' below every other byte, so
 * "f;x" comes before "f0": f's callees before f0), which puts every
 * frame's callees right after it, by name.  One walk then keeps the path
 * of open frames (a stack the depth cap bounds) and appends each new
 * frame to the output; when a frame closes and is narrow, it and what was
 * appended after it (its callees) are dropped at once by truncating the
 * output, and its samples go to its caller's merged frame.  The output so
 * holds only frames wide enough to draw, at most 1000 a level at 0.1 %,
 * whatever the input's size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flamelayout.h"
#include "satmath.h"

/* A frame of the path from the root to the line being walked. */
struct open_frame {
	int at;			/* in the output */
	uint64_t merged;	/* its narrow callees' samples */
	int nr_merged;
};

struct walk {
	struct flame_layout *l;
	int cap;		/* of l->fr */
	uint64_t min_count;	/* narrower frames merged */
	struct open_frame path[FLAME_MAX_DEPTH + 1];	/* path[0]: the root */
	int depth;		/* of the deepest open frame */
	long long opened;	/* distinct frames of the stacks (the root not counted) */
};

/* A byte's rank in the frame-by-frame order: the end, then ';', then the rest. */
static int rank(unsigned char c)
{
	return c == '\0' ? 0 : c == ';' ? 1 : c + 1;
}

static int by_frames(const void *a, const void *b)
{
	const struct folded_line *la = *(const struct folded_line *const *)a;
	const struct folded_line *lb = *(const struct folded_line *const *)b;
	const unsigned char *x = (const unsigned char *)la->stack;
	const unsigned char *y = (const unsigned char *)lb->stack;

	while (*x && *x == *y)
		x++, y++;
	return rank(*x) - rank(*y);
}

static int append(struct walk *w, struct flame_frame fr)
{
	struct flame_layout *l = w->l;

	if (l->nr == w->cap) {
		int cap = w->cap ? 2 * w->cap : 64;
		struct flame_frame *p = realloc(l->fr, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->fr = p;
		w->cap = cap;
	}
	l->fr[l->nr++] = fr;
	return 0;
}

/*
 * The deepest open frame closed: dropped with its callees into its
 * caller's merged frame when narrow, else followed by its own merged one
 * (left out when that is narrow too).  The root is never narrow.
 */
static int close_frame(struct walk *w)
{
	struct open_frame *o = &w->path[w->depth];
	const struct flame_frame *fr = &w->l->fr[o->at];
	int depth = w->depth--;

	if (depth && fr->count < w->min_count) {
		struct open_frame *caller = &w->path[depth - 1];

		caller->merged = sat_add_u64(caller->merged, fr->count);
		caller->nr_merged++;
		w->l->nr = o->at;
		return 0;
	}
	if (!o->nr_merged || o->merged < w->min_count)
		return 0;
	return append(w, (struct flame_frame){ .count = o->merged, .depth = depth + 1,
					       .merged = o->nr_merged });
}

static int open_frame(struct walk *w, const char *name, size_t len)
{
	int at = w->l->nr, err;

	err = append(w, (struct flame_frame){ .name = name, .len = len, .depth = w->depth + 1 });
	if (!err)
		w->path[++w->depth] = (struct open_frame){ .at = at };
	w->opened++;
	return err;
}

/* How many of s's first frames match the open path's, from depth 1; s moved past them. */
static int matched(const struct walk *w, const char **s)
{
	int k = 1;

	while (**s && k <= w->depth) {
		const struct flame_frame *fr = &w->l->fr[w->path[k].at];
		size_t len = strcspn(*s, ";");

		if (fr->len != len || memcmp(fr->name, *s, len))
			break;
		*s += len + ((*s)[len] == ';');
		k++;
	}
	return k - 1;
}

/*
 * One line: the frames it does not share with the path before closed, its
 * own opened.  prev: the line walked before it, or NULL (a stack cut is
 * counted once, whatever the repetitions that had it).
 */
static int walk_line(struct walk *w, const struct folded_line *line,
		     const struct folded_line *prev)
{
	const char *s = line->stack;
	int keep = matched(w, &s), err = 0;

	while (!err && w->depth > keep)
		err = close_frame(w);
	while (!err && *s && w->depth < FLAME_MAX_DEPTH) {
		size_t len = strcspn(s, ";");

		err = open_frame(w, s, len);
		s += len + (s[len] == ';');
	}
	if (*s && (!prev || strcmp(prev->stack, line->stack)))
		w->l->cut++;
	for (int d = 0; !err && d <= w->depth; d++) {
		struct flame_frame *fr = &w->l->fr[w->path[d].at];

		fr->count = sat_add_u64(fr->count, line->count);
	}
	return err;
}

/* The sorted lines walked into l, frames under min_count merged. */
static int walk(struct flame_layout *l, const struct folded_line **lines, int nr,
		uint64_t min_count)
{
	struct walk *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	w->l = l;
	w->min_count = min_count;
	l->nr = l->levels = 0;
	l->cut = 0;
	err = append(w, (struct flame_frame){ .name = "all", .len = 3 });
	for (int i = 0; !err && i < nr; i++)
		err = walk_line(w, lines[i], i ? lines[i - 1] : NULL);
	while (!err && w->depth >= 0)
		err = close_frame(w);
	/* of the frames kept: a deep narrow stack opened levels, then was dropped */
	l->left_out = w->opened;
	for (int i = 0; i < l->nr; i++) {
		l->left_out -= i && !l->fr[i].merged;
		if (l->fr[i].depth >= l->levels)
			l->levels = l->fr[i].depth + 1;
	}
	free(w);
	return err;
}

static int by_count_down(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/*
 * The least count that keeps fewer than FLAME_MAX_FRAMES / 2 of l's
 * frames besides the root: one more than the count at that rank, so that
 * every frame drawn is wider than every frame left out.  Each frame kept
 * and the root get one merged frame at most: FLAME_MAX_FRAMES in all.
 */
static int capped_min_count(const struct flame_layout *l, uint64_t *min_count)
{
	uint64_t *c = malloc(l->nr * sizeof(*c));
	int nr = 0;

	if (!c)
		return -ENOMEM;
	for (int i = 1; i < l->nr; i++)
		if (!l->fr[i].merged)
			c[nr++] = l->fr[i].count;
	qsort(c, nr, sizeof(*c), by_count_down);
	/* over FLAME_MAX_FRAMES frames, at most one merged a frame: nr >= FLAME_MAX_FRAMES / 2 */
	*min_count = sat_add_u64(c[(nr < FLAME_MAX_FRAMES / 2 ? nr : FLAME_MAX_FRAMES / 2) - 1], 1);
	free(c);
	return 0;
}

/* ceil(total * FLAME_MIN_PERMILLE / 1000), in parts: the product wraps for counts near 2^64. */
static uint64_t least_count(uint64_t total)
{
	return total / 1000 * FLAME_MIN_PERMILLE + (total % 1000 * FLAME_MIN_PERMILLE + 999) / 1000;
}

static int lay_out(struct flame_layout *l, const struct folded_line **lines, int nr)
{
	uint64_t min_count = least_count(l->total);
	int err = walk(l, lines, nr, min_count);

	l->min_pct = FLAME_MIN_PERMILLE / 10.0;
	if (err || l->nr <= FLAME_MAX_FRAMES)
		return err;
	/* at most 1000 frames a level are wide enough: this walk's are few */
	err = capped_min_count(l, &min_count);
	if (!err)
		err = walk(l, lines, nr, min_count);
	l->capped = true;
	l->min_pct = 100.0 * min_count / l->total;
	return err;
}

int flame_layout(const struct folded *fd, struct flame_layout *l)
{
	const struct folded_line **lines = malloc((fd->nr ? fd->nr : 1) * sizeof(*lines));
	int err = 0;

	*l = (struct flame_layout){ 0 };
	if (!lines)
		return -ENOMEM;
	for (int i = 0; i < fd->nr; i++) {
		lines[i] = &fd->l[i];
		l->total = sat_add_u64(l->total, fd->l[i].count);
	}
	if (!l->total)
		err = -ENODATA;
	if (!err) {
		qsort(lines, fd->nr, sizeof(*lines), by_frames);
		err = lay_out(l, lines, fd->nr);
	}
	free(lines);
	if (err)
		flame_layout_free(l);
	return err;
}

void flame_layout_free(struct flame_layout *l)
{
	free(l->fr);
	*l = (struct flame_layout){ 0 };
}
