// SPDX-License-Identifier: GPL-2.0
/* A flame graph as SVG: see flame.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "flamelayout.h"
#include "html.h"
#include "symname.h"

#define XPAD		10	/* pixels left and right of the frames */
#define TOP		34	/* above the top frame: the title */
#define BOTTOM		8	/* below the root */
#define FRAME_H		16	/* a frame's row; its rect one pixel less */
#define CHAR_W		7.2	/* a monospace glyph at 12 px: 0.6 em */
#define NOTE_H		16	/* below the title: what was left out, when anything was */
#define LABEL_MIN	3	/* characters: a narrower frame gets no label */

struct flame_draw {
	FILE *f;
	uint64_t total;		/* the root's samples */
	double scale;		/* pixels per sample */
	double min_pct;		/* the share under which frames were merged */
	int height;
};

/* The hash that picks a frame's shade: FNV-1a, the same on every machine. */
static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/*
 * "#rrggbb" of fr at level lvl (0 the root, 1 the task): a hue per kind,
 * the shade from the name's hash.
 */
static void colour(const struct flame_frame *fr, int lvl, char buf[8])
{
	uint32_t h = name_hash(fr->name, fr->len);
	unsigned int a = h & 0xff, b = (h >> 8) & 0xff, c = (h >> 16) & 0xff;
	unsigned int r, g, bl;

	if (fr->merged || !lvl) {
		r = g = bl = fr->merged ? 0xd8 : 0xc8;
	} else if (lvl == 1) {		/* the task (comm): violet */
		r = 170 + a * 40 / 255, g = 150 + b * 40 / 255, bl = 210 + c * 40 / 255;
	} else if (fr->len && fr->name[0] == '[') {	/* [user], [kernel]: aqua */
		r = 80 + a * 50 / 255, g = 170 + b * 40 / 255, bl = 210 + c * 40 / 255;
	} else if (sym_bpf_tagged(fr->name, fr->len)) {	/* a BPF program: green */
		r = 60 + a * 50 / 255, g = 170 + b * 60 / 255, bl = 60 + c * 50 / 255;
	} else {			/* the kernel: flamegraph.pl's "hot" */
		r = 205 + a * 50 / 255, g = b * 230 / 255, bl = c * 55 / 255;
	}
	snprintf(buf, 8, "#%02x%02x%02x", r, g, bl);
}

/* fr's name (its first FLAME_MAX_NAME bytes), or what its merged frames are, on d->f. */
static void put_name(const struct flame_draw *d, const struct flame_frame *fr)
{
	if (fr->merged) {
		fprintf(d->f, "%d frames under %g%% each", fr->merged, d->min_pct);
	} else if (fr->len > FLAME_MAX_NAME) {
		html_put(d->f, fr->name, FLAME_MAX_NAME);
		fputs("..", d->f);
	} else {
		html_put(d->f, fr->name, fr->len);
	}
}

/* The label: as many characters of the name as fit in w pixels, ".." when cut. */
static void label(const struct flame_draw *d, const struct flame_frame *fr, double x, double y,
		  double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	if (fr->merged || fit < LABEL_MIN)
		return;
	fprintf(d->f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
	if (fr->len <= fit) {
		html_put(d->f, fr->name, fr->len);
	} else {
		html_put(d->f, fr->name, fit - 2);
		fputs("..", d->f);
	}
	fputs("</text>", d->f);
}

/* fr from x (pixels), at its level. */
static void draw_frame(const struct flame_draw *d, const struct flame_frame *fr, double x)
{
	double w = fr->count * d->scale, y = d->height - BOTTOM - (fr->depth + 1) * FRAME_H;
	char fill[8];

	colour(fr, fr->depth, fill);
	fputs("<g><title>", d->f);
	put_name(d, fr);
	fprintf(d->f, " (%" PRIu64 " sample%s, %.2f%%)</title>", fr->count,
		fr->count == 1 ? "" : "s", 100.0 * fr->count / d->total);
	fprintf(d->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/>", x, y, w, FRAME_H - 1, fill);
	label(d, fr, x, y, w);
	fputs("</g>\n", d->f);
}

/*
 * The frames in their order (a frame, then its callees): each starts
 * where the one before it on its level ended, and its callees where it
 * starts; at[] holds that per level.
 */
static int draw_frames(const struct flame_draw *d, const struct flame_layout *l)
{
	double *at = calloc(l->levels + 1, sizeof(*at));

	if (!at)
		return -ENOMEM;
	at[0] = XPAD;
	for (int i = 0; i < l->nr; i++) {
		const struct flame_frame *fr = &l->fr[i];

		draw_frame(d, fr, at[fr->depth]);
		at[fr->depth + 1] = at[fr->depth];
		at[fr->depth] += fr->count * d->scale;
	}
	free(at);
	return 0;
}

/* What l does not draw, on one line under the title; nothing when it draws it all. */
static void note(FILE *f, const struct flame_layout *l)
{
	const char *sep = "";

	if (!l->left_out && !l->cut)
		return;
	fprintf(f, "<text x=\"%d\" y=\"%d\">not drawn: ", XPAD, TOP + NOTE_H - 6);
	if (l->left_out) {
		fprintf(f, "%lld frame%s under %g%% of the samples each", l->left_out,
			l->left_out == 1 ? "" : "s", l->min_pct);
		if (l->capped)
			fprintf(f, ", to draw %d at most", FLAME_MAX_FRAMES);
		fputs(" (the grey frames merge them per caller)", f);
		sep = "; ";
	}
	if (l->cut)
		fprintf(f, "%s%lld stack%s cut after %d frames", sep, l->cut,
			l->cut == 1 ? "" : "s", FLAME_MAX_DEPTH);
	fputs("</text>\n", f);
}

static int draw(FILE *f, const struct flame_layout *l, const struct flame_opts *o)
{
	int width = o && o->width > 0 ? o->width : FLAME_WIDTH;
	int top = TOP + (l->left_out || l->cut ? NOTE_H : 0);
	struct flame_draw d = {
		.f = f,
		.total = l->total,
		.scale = (double)(width - 2 * XPAD) / l->total,
		.min_pct = l->min_pct,
		.height = top + l->levels * FRAME_H + BOTTOM,
	};
	int err;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n",
		width, d.height, width, d.height);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n",
		width, d.height);
	if (o && o->title) {
		fprintf(f, "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">",
			width / 2);
		html_text(f, o->title);
		fputs("</text>\n", f);
	}
	note(f, l);
	err = draw_frames(&d, l);
	fputs("</svg>\n", f);
	return err;
}

int flame_svg(FILE *f, const struct folded *fd, const struct flame_opts *o)
{
	struct flame_layout l;
	int err = flame_layout(fd, &l);

	if (!err)
		err = draw(f, &l, o);
	if (!err && ferror(f))
		err = -EIO;
	flame_layout_free(&l);
	return err;
}
