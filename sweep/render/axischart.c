// SPDX-License-Identifier: GPL-2.0
/* Marks along an axis of names: see axischart.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "axischart.h"
#include "html.h"

#define WIDTH		960
#define LEFT		84	/* the y axis's numbers and its label */
#define RIGHT		24
#define TOP		88	/* the title, the key, the tags of marks at the top */
#define KEY_Y		44
#define PLOT_H		300
#define BOTTOM		150	/* the names, slanted */
#define HEIGHT		(TOP + PLOT_H + BOTTOM)
#define PLOT_W		(WIDTH - LEFT - RIGHT)
#define TICKS		5	/* about as many numbers on y */

/* The numeric y axis: its ends and the step between its numbers. */
struct yscale {
	double lo, hi, step;
};

static double x_of(const struct axis_chart *c, int at)
{
	return LEFT + (at + 0.5) * PLOT_W / c->nr_names;
}

/* A value's pixel row; NaN (no value) sits on the x axis. */
static double y_of(const struct axis_chart *c, const struct yscale *s, double v)
{
	if (isnan(v))
		return TOP + PLOT_H;
	if (c->levels)
		return TOP + PLOT_H - (v + 0.5) * PLOT_H / c->nr_levels;
	return TOP + PLOT_H - (v - s->lo) / (s->hi - s->lo) * PLOT_H;
}

static void widen(double *lo, double *hi, double v)
{
	if (isnan(v) || isinf(v))
		return;
	*lo = fmin(*lo, v);
	*hi = fmax(*hi, v);
}

/* Every value and interval drawn, and the rules, within whole steps of 1, 2 or 5 × 10^k. */
static struct yscale scale_of(const struct axis_chart *c)
{
	double lo = INFINITY, hi = -INFINITY, raw, p, m;
	struct yscale s;

	for (int i = 0; i < c->nr_marks; i++) {
		widen(&lo, &hi, c->marks[i].y);
		widen(&lo, &hi, c->marks[i].lo);
		widen(&lo, &hi, c->marks[i].hi);
	}
	for (int i = 0; i < c->nr_rules; i++)
		widen(&lo, &hi, c->rules[i]);
	if (lo > hi)
		lo = hi = 0;
	if (hi - lo < 1e-9 * fmax(1, fabs(hi))) {
		lo -= fmax(1, fabs(lo) * 0.1);
		hi += fmax(1, fabs(hi) * 0.1);
	}
	raw = (hi - lo) / TICKS;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	s.step = p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
	s.lo = floor(lo / s.step) * s.step;
	s.hi = ceil(hi / s.step) * s.step;
	if (s.hi - s.lo < s.step)
		s.hi = s.lo + s.step;
	return s;
}

/* A shape centred at x, y, with its outline. */
static void shape(FILE *f, enum axis_shape sh, double x, double y, const char *colour)
{
	switch (sh) {
	case AXIS_SQUARE:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\"", x - 6, y - 6);
		break;
	case AXIS_DIAMOND:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - 7,
			x + 7, y, x, y + 7, x - 7, y);
		break;
	case AXIS_CROSS:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" fill=\"none\" "
			"stroke-width=\"2.5\" stroke=\"", x - 5, y - 5, x + 5, y + 5, x - 5, y + 5,
			x + 5, y - 5);
		html_text(f, colour);
		fputs("\"/>", f);
		return;
	default:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\"", x, y);
	}
	fputs(" stroke=\"#222\" stroke-width=\"0.8\" fill=\"", f);
	html_text(f, colour);
	fputs("\"/>", f);
}

/* Name under its tick: its last AXIS_NAME_SHOWN characters (UTF-8), "…" before them. */
static void short_name(FILE *f, const char *name)
{
	size_t n = strlen(name), at = n;
	int chars = 0;

	while (at > 0 && chars < AXIS_NAME_SHOWN)
		if (((unsigned char)name[--at] & 0xc0) != 0x80)
			chars++;
	if (at > 0)
		fputs("\u2026", f);
	html_put(f, name + at, n - at);
}

/* The y axis: its numbers or its levels, each with a line across, and its label. */
static void y_axis(FILE *f, const struct axis_chart *c, const struct yscale *s)
{
	int n = c->levels ? c->nr_levels : (int)lround((s->hi - s->lo) / s->step) + 1;
	int decimals = s->step >= 1 ? 0 : (int)ceil(-log10(s->step) - 1e-9);

	for (int i = 0; i < n; i++) {
		double v = c->levels ? i : s->lo + i * s->step, y = y_of(c, s, v);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT, y, WIDTH - RIGHT, y,
			LEFT - 6, y + 4);
		if (c->levels)
			html_text(f, c->levels[i]);
		else
			fprintf(f, "%.*f", decimals, fabs(v) < s->step / 2 ? 0.0 : v);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">",
		TOP + PLOT_H / 2);
	html_text(f, c->y_label);
	fputs("</text>\n", f);
}

/* The x axis: a tick and a slanted name for each, the whole name on hover. */
static void x_axis(FILE *f, const struct axis_chart *c)
{
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\"/>\n", LEFT,
		TOP + PLOT_H, WIDTH - RIGHT, TOP + PLOT_H);
	for (int i = 0; i < c->nr_names; i++) {
		double x = x_of(c, i);

		fputs("<g><title>", f);
		html_text(f, c->names[i]);
		fprintf(f, "</title><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#222\"/><text transform=\"translate(%.1f %d) rotate(-50)\" "
			"text-anchor=\"end\">", x, TOP + PLOT_H, x, TOP + PLOT_H + 5, x + 4,
			TOP + PLOT_H + 14);
		short_name(f, c->names[i]);
		fputs("</text></g>\n", f);
	}
}

/* The band, the rules, and the key above the plot. */
static void furniture(FILE *f, const struct axis_chart *c, const struct yscale *s)
{
	double x = LEFT;

	if (c->band_from >= 0 && c->band_to >= c->band_from && c->band_to < c->nr_names) {
		double x0 = x_of(c, c->band_from), x1 = x_of(c, c->band_to);

		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			"fill=\"#fff1c9\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			x0, TOP, x1 - x0, PLOT_H, (x0 + x1) / 2, TOP + 14);
		html_text(f, c->band_text);
		fputs("</text>\n", f);
	}
	for (int i = 0; !c->levels && i < c->nr_rules; i++)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\" "
			"stroke-dasharray=\"5 4\"/>\n", LEFT, y_of(c, s, c->rules[i]),
			WIDTH - RIGHT, y_of(c, s, c->rules[i]));
	for (int i = 0; i < c->nr_keys; i++) {
		shape(f, c->keys[i].shape, x + 7, KEY_Y, c->keys[i].colour);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", x + 18, KEY_Y + 4);
		html_text(f, c->keys[i].text);
		fputs("</text>\n", f);
		x += 36 + 7.2 * strlen(c->keys[i].text);
	}
}

/* A mark: its interval (a bar with caps), its shape, its tag above, its title on hover. */
static void mark(FILE *f, const struct axis_chart *c, const struct yscale *s,
		 const struct axis_mark *m)
{
	double x = x_of(c, m->at), y = y_of(c, s, m->y), top = y;

	fputs("<g>", f);
	if (m->title) {
		fputs("<title>", f);
		html_text(f, m->title);
		fputs("</title>", f);
	}
	if (!c->levels && !isnan(m->y) && !isnan(m->lo) && !isnan(m->hi)) {
		double y0 = y_of(c, s, m->lo), y1 = y_of(c, s, m->hi);

		fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
			"stroke=\"#222\" stroke-width=\"1.2\"/>", x, y0, y1, x - 5, y0, x + 5,
			x - 5, y1, x + 5);
		top = fmin(y, fmin(y0, y1));
	}
	shape(f, m->shape, x, y, m->colour);
	if (m->tag) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"font-weight=\"600\">", x, top - 10);
		html_text(f, m->tag);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
}

int axis_chart_svg(FILE *f, const struct axis_chart *c)
{
	struct yscale s = { 0, 1, 1 };

	if (c->nr_names <= 0 || (c->levels && c->nr_levels <= 0))
		return -EINVAL;
	if (!c->levels)
		s = scale_of(c);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		WIDTH, HEIGHT, WIDTH, HEIGHT);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", WIDTH,
		HEIGHT);
	if (c->title) {
		fprintf(f, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"15\">",
			WIDTH / 2);
		html_text(f, c->title);
		fputs("</text>\n", f);
	}
	furniture(f, c, &s);
	y_axis(f, c, &s);
	x_axis(f, c);
	for (int i = 0; i < c->nr_marks; i++)
		if (c->marks[i].at >= 0 && c->marks[i].at < c->nr_names)
			mark(f, c, &s, &c->marks[i]);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
