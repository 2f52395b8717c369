// SPDX-License-Identifier: GPL-2.0
/* A flame graph as SVG: see flame.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "growarray.h"
#include "html.h"
#include "satmath.h"
#include "symname.h"

#define XPAD		10	/* pixels left and right of the frames */
#define TOP		34	/* above the top frame: the title */
#define BOTTOM		8	/* below the root */
#define FRAME_H		16	/* a frame's row; its rect one pixel less */
#define CHAR_W		7.2	/* a monospace glyph at 12 px: 0.6 em */
#define LABEL_MIN	3	/* characters: a narrower frame gets no label */

/* A frame: a name of the stacks' text (not copied), its samples, its callees. */
struct frame {
	const char *name;
	size_t len;
	uint64_t count;
	int merged;		/* > 0: this many narrow frames merged, no name */
	struct frame *kid;	/* grown by ARRAY_ROOM() */
	int nr;
};

struct flame_draw {
	FILE *f;
	uint64_t total;		/* the root's samples */
	double scale;		/* pixels per sample */
	int height;
};

static void frame_free(struct frame *fr)
{
	for (int i = 0; i < fr->nr; i++)
		frame_free(&fr->kid[i]);
	free(fr->kid);
}

/* fr's callee name[0..len), made when it is not there yet; NULL when out of memory. */
static struct frame *callee(struct frame *fr, const char *name, size_t len)
{
	for (int i = 0; i < fr->nr; i++)
		if (fr->kid[i].len == len && !memcmp(fr->kid[i].name, name, len))
			return &fr->kid[i];
	if (ARRAY_ROOM(fr->kid, fr->nr))
		return NULL;
	fr->kid[fr->nr] = (struct frame){ .name = name, .len = len };
	return &fr->kid[fr->nr++];
}

/* The stack "a;b;c" with count added along its path from root. */
static int add_stack(struct frame *root, const char *stack, uint64_t count)
{
	struct frame *fr = root;
	const char *s = stack;

	root->count = sat_add_u64(root->count, count);
	while (*s) {
		size_t len = strcspn(s, ";");

		fr = callee(fr, s, len);
		if (!fr)
			return -ENOMEM;
		fr->count = sat_add_u64(fr->count, count);
		s += len + (s[len] == ';');
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct frame *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	return c ?: (x->len > y->len) - (x->len < y->len);
}

/*
 * Under FLAME_MIN_PERMILLE of total?  count < ceil(total * permille / 1000),
 * in parts: count * 1000 wrapped for counts near 2^63 (and made them narrow).
 */
static bool narrow(uint64_t count, uint64_t total)
{
	uint64_t least = total / 1000 * FLAME_MIN_PERMILLE +
			 (total % 1000 * FLAME_MIN_PERMILLE + 999) / 1000;

	return count < least;
}

/*
 * fr's callees sorted by name, the narrow ones merged into one frame at
 * the end (or dropped when it is narrow too), and so on up the tree.
 */
static void prune(struct frame *fr, uint64_t total)
{
	struct frame merged = { 0 };
	int kept = 0;

	if (!fr->nr)
		return;		/* a leaf: no array to sort */
	qsort(fr->kid, fr->nr, sizeof(*fr->kid), by_name);
	for (int i = 0; i < fr->nr; i++) {
		if (narrow(fr->kid[i].count, total)) {
			merged.count = sat_add_u64(merged.count, fr->kid[i].count);
			merged.merged++;
			frame_free(&fr->kid[i]);
			continue;
		}
		prune(&fr->kid[i], total);
		fr->kid[kept++] = fr->kid[i];
	}
	if (merged.merged && !narrow(merged.count, total))
		fr->kid[kept++] = merged;	/* a slot freed above */
	fr->nr = kept;
}

static int depth(const struct frame *fr)
{
	int most = 0;

	for (int i = 0; i < fr->nr; i++) {
		int d = depth(&fr->kid[i]);

		most = d > most ? d : most;
	}
	return most + 1;
}

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
static void colour(const struct frame *fr, int lvl, char buf[8])
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

/* fr's name, or what its merged frames are, on d->f (escaped). */
static void put_name(const struct flame_draw *d, const struct frame *fr)
{
	if (fr->merged)
		fprintf(d->f, "%d frames under 0.%d%% each", fr->merged, FLAME_MIN_PERMILLE);
	else
		html_put(d->f, fr->name, fr->len);
}

/* The label: as many characters of the name as fit in w pixels, ".." when cut. */
static void label(const struct flame_draw *d, const struct frame *fr, double x, double y, double w)
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

/* fr at level lvl from x (pixels), then its callees above it. */
static void draw_frame(const struct flame_draw *d, const struct frame *fr, int lvl, double x)
{
	double w = fr->count * d->scale, y = d->height - BOTTOM - (lvl + 1) * FRAME_H;
	char fill[8];

	colour(fr, lvl, fill);
	fputs("<g><title>", d->f);
	put_name(d, fr);
	fprintf(d->f, " (%" PRIu64 " sample%s, %.2f%%)</title>", fr->count,
		fr->count == 1 ? "" : "s", 100.0 * fr->count / d->total);
	fprintf(d->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/>", x, y, w, FRAME_H - 1, fill);
	label(d, fr, x, y, w);
	fputs("</g>\n", d->f);
	for (int i = 0; i < fr->nr; i++) {
		draw_frame(d, &fr->kid[i], lvl + 1, x);
		x += fr->kid[i].count * d->scale;
	}
}

static void draw(FILE *f, const struct frame *root, const struct flame_opts *o)
{
	int width = o && o->width > 0 ? o->width : FLAME_WIDTH;
	struct flame_draw d = {
		.f = f,
		.total = root->count,
		.scale = (double)(width - 2 * XPAD) / root->count,
		.height = TOP + depth(root) * FRAME_H + BOTTOM,
	};

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
	draw_frame(&d, root, 0, XPAD);
	fputs("</svg>\n", f);
}

int flame_svg(FILE *f, const struct folded *fd, const struct flame_opts *o)
{
	struct frame root = { .name = "all", .len = 3 };
	int err = 0;

	for (int i = 0; !err && i < fd->nr; i++)
		err = add_stack(&root, fd->l[i].stack, fd->l[i].count);
	if (!err && !root.count)
		err = -ENODATA;
	if (!err) {
		prune(&root, root.count);
		draw(f, &root, o);
		err = ferror(f) ? -EIO : 0;
	}
	frame_free(&root);
	return err;
}
