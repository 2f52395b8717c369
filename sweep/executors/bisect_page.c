// SPDX-License-Identifier: GPL-2.0
/* The page of a bisect: see bisect_page.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "axischart.h"
#include "bisect_page.h"
#include "html.h"
#include "resultdir.h"

/* A status bisect's levels: the ends' two, then what else the steps ran with */
#define MAX_LEVELS	8

static const char *const colour[] = {
	[BV_UNTESTED] = "#ffffff", [BV_GOOD] = "#2a7d2e", [BV_BAD] = "#c0392b",
	[BV_UNDECIDED] = "#d68910", [BV_SKIP] = "#7f8c8d",
};

static const enum axis_shape step_shape[] = {
	[BV_UNTESTED] = AXIS_DOT, [BV_GOOD] = AXIS_DOT, [BV_BAD] = AXIS_DOT,
	[BV_UNDECIDED] = AXIS_DIAMOND, [BV_SKIP] = AXIS_CROSS,
};

/* What the chart is drawn from, and the strings its marks point at. */
struct page_chart {
	struct axis_chart c;
	struct axis_mark *marks;
	const char *levels[MAX_LEVELS];
	char (*titles)[PATH_MAX + 640];	/* a mark's: its kernel, verdict, figure, why */
	char (*tags)[16];
	double rules[2];
	char y_label[64];
};

/* The point whose ends say how steps are judged: the first that does (as bisect.txt's). */
static const struct bisect_point *judging(const struct bisect_page *pg)
{
	for (int i = 0; pg->pts && i < pg->nr_pts; i++)
		if (pg->pts[i].by != BB_NONE)
			return &pg->pts[i];
	return NULL;
}

static void fact(FILE *f, const char *term, const char *value)
{
	fputs("<dt>", f);
	html_text(f, term);
	fputs("</dt><dd>", f);
	html_text(f, value);
	fputs("</dd>\n", f);
}

/* A kernel as the table and the facts name it: its label, its release in brackets. */
static void kernel_fact(FILE *f, const char *term, const struct bisect_kernel *k)
{
	char text[PATH_MAX + 160];

	snprintf(text, sizeof(text), "%s%s%s%s", k->label, k->release[0] ? " (" : "", k->release,
		 k->release[0] ? ")" : "");
	fact(f, term, text);
}

/* How the bisect ended, as bisect.txt says it, a fact a line. */
static void outcome(FILE *f, const struct bisect_page *pg)
{
	const struct bisect *b = pg->b;
	char term[64], text[256];

	switch (b->outcome) {
	case BO_FOUND:
	case BO_UNDECIDED:
		snprintf(term, sizeof(term), "first %s%s", pg->t->bad,
			 b->outcome == BO_FOUND ? "" : " that ran");
		kernel_fact(f, term, &pg->l->k[b->first_bad]);
		snprintf(term, sizeof(term), "last %s", pg->t->good);
		kernel_fact(f, term, &pg->l->k[b->last_good]);
		if (b->outcome == BO_UNDECIDED) {
			snprintf(text, sizeof(text), "the first %s kernel may be one of the %d "
				 "between them, none of which was decided", pg->t->bad,
				 b->first_bad - b->last_good - 1);
			fact(f, "undecided", text);
		}
		break;
	case BO_NO_STEP:
		fact(f, "no step to bisect", b->ends_why);
		break;
	default:
		fact(f, "the bisect stopped", b->err == -EINTR ? "interrupted" : strerror(-b->err));
	}
}

static void facts(FILE *f, const struct bisect_page *pg)
{
	char text[64];

	fputs("<dl class=\"facts\">\n", f);
	outcome(f, pg);
	if (pg->b->outcome != BO_NO_STEP && pg->b->ends_why[0])
		fact(f, "the ends", pg->b->ends_why);
	snprintf(text, sizeof(text), "%d, of which %d ran as steps (about %d with none skipped)",
		 pg->l->n, pg->b->nr_steps, bisect_steps_needed(pg->l->n));
	fact(f, "kernels", text);
	fputs("</dl>\n", f);
}

/* Level of status s, added when new; -1 when they are full. */
static int level_of(struct page_chart *pc, const char *s)
{
	for (int i = 0; i < pc->c.nr_levels; i++)
		if (!strcmp(pc->levels[i], s))
			return i;
	if (pc->c.nr_levels == MAX_LEVELS)
		return -1;
	pc->levels[pc->c.nr_levels] = s;
	return pc->c.nr_levels++;
}

/* A mark at kernel k, its value by metric (est, lo, hi) or by status (figure's level): its index. */
static int add_mark(struct page_chart *pc, int k, double est, double lo, double hi,
		    const char *figure)
{
	int i = pc->c.nr_marks++, level = pc->c.levels && figure[0] ? level_of(pc, figure) : -1;

	pc->marks[i] = (struct axis_mark){ .at = k, .y = est, .lo = lo, .hi = hi,
					   .title = pc->titles[i], .tag = pc->tags[i] };
	if (pc->c.levels)
		pc->marks[i].y = level >= 0 ? level : NAN;
	return i;
}

/* The ends: the good one at 0 (the reference) or its status, the bad one as measured. */
static void end_marks(struct page_chart *pc, const struct bisect_page *pg,
		      const struct bisect_point *p)
{
	const struct bisect_kernel *gk = &pg->l->k[0], *bk = &pg->l->k[pg->l->n - 1];
	int g = add_mark(pc, 0, 0, NAN, NAN, p->good.status);
	int b = add_mark(pc, pg->l->n - 1, p->ends.est_pct, p->ends.lo_pct, p->ends.hi_pct,
			 p->bad.status);

	pc->marks[g].shape = pc->marks[b].shape = AXIS_SQUARE;
	pc->marks[g].colour = colour[BV_GOOD];
	pc->marks[b].colour = colour[BV_BAD];
	snprintf(pc->tags[g], sizeof(pc->tags[g]), "%.15s", pg->t->good);
	snprintf(pc->tags[b], sizeof(pc->tags[b]), "%.15s", pg->t->bad);
	if (p->by == BB_STATUS) {
		snprintf(pc->titles[g], sizeof(pc->titles[g]), "%s: the %s end: %s", gk->label,
			 pg->t->good, p->good.status);
		snprintf(pc->titles[b], sizeof(pc->titles[b]), "%s: the %s end: %s", bk->label,
			 pg->t->bad, p->bad.status);
		return;
	}
	snprintf(pc->titles[g], sizeof(pc->titles[g]), "%s: the %s end: 0 %%, the reference",
		 gk->label, pg->t->good);
	snprintf(pc->titles[b], sizeof(pc->titles[b]), "%s: the %s end: %+.1f %% [%+.1f, %+.1f] "
		 "against the %s end", bk->label, pg->t->bad, p->ends.est_pct, p->ends.lo_pct,
		 p->ends.hi_pct, pg->t->good);
}

static void step_marks(struct page_chart *pc, const struct bisect_page *pg)
{
	for (int s = 0; s < pg->b->nr_steps; s++) {
		const struct bisect_step *st = &pg->b->steps[s];
		int i = add_mark(pc, st->kernel, st->est_pct, st->lo_pct, st->hi_pct,
				 st->figure);

		pc->marks[i].shape = step_shape[st->verdict];
		pc->marks[i].colour = colour[st->verdict];
		snprintf(pc->tags[i], sizeof(pc->tags[i]), "%d", s + 1);
		snprintf(pc->titles[i], sizeof(pc->titles[i]), "%s: step %d: %s: %s: %s",
			 pg->l->k[st->kernel].label, s + 1, bisect_term(pg->t, st->verdict),
			 st->figure[0] ? st->figure : "-", st->why);
	}
}

/* The key, k[BV_SKIP + 1]: the ends (in k[0], no verdict's), then a shape a verdict. */
static void keys(struct page_chart *pc, const struct bisect_page *pg, struct axis_key *k)
{
	static const char *const what[] = { "the ends", NULL, NULL, "undecided", "skipped" };

	for (int v = BV_GOOD; v <= BV_SKIP; v++)
		k[v] = (struct axis_key){ .shape = step_shape[v], .colour = colour[v],
					  .text = what[v] ? what[v] : bisect_term(pg->t, v) };
	k[0] = (struct axis_key){ .shape = AXIS_SQUARE, .colour = colour[BV_BAD],
				  .text = what[0] };
	pc->c.keys = k;
	pc->c.nr_keys = BV_SKIP + 1;
}

/* The chart's frame: the kernels on x, the band of the outcome, y by the judging point. */
static void frame(struct page_chart *pc, const struct bisect_page *pg,
		  const struct bisect_point *p, const char **names)
{
	const struct bisect *b = pg->b;

	for (int k = 0; k < pg->l->n; k++)
		names[k] = pg->l->k[k].label;
	pc->c.names = names;
	pc->c.nr_names = pg->l->n;
	pc->c.band_from = pc->c.band_to = -1;
	if (b->outcome == BO_FOUND || b->outcome == BO_UNDECIDED) {
		pc->c.band_from = b->last_good;
		pc->c.band_to = b->first_bad;
		pc->c.band_text = b->outcome == BO_FOUND ? "the change" : "undecided";
	}
	if (p->by == BB_STATUS) {
		pc->c.levels = pc->levels;
		pc->c.y_label = "status";
		return;
	}
	snprintf(pc->y_label, sizeof(pc->y_label), "%% against the %s end", pg->t->good);
	pc->c.y_label = pc->y_label;
	pc->rules[0] = 0;
	pc->rules[1] = p->ends.est_pct;
	pc->c.rules = pc->rules;
	pc->c.nr_rules = 2;
}

static int chart(FILE *f, const struct bisect_page *pg, const struct bisect_point *p)
{
	int nr = pg->b->nr_steps + 2, err = -ENOMEM;
	struct page_chart pc = { .marks = calloc(nr, sizeof(*pc.marks)),
				 .titles = calloc(nr, sizeof(*pc.titles)),
				 .tags = calloc(nr, sizeof(*pc.tags)) };
	const char **names = calloc(pg->l->n, sizeof(*names));
	struct axis_key k[BV_SKIP + 1];

	if (pc.marks && pc.titles && pc.tags && names) {
		frame(&pc, pg, p, names);
		pc.c.marks = pc.marks;
		end_marks(&pc, pg, p);
		step_marks(&pc, pg);
		keys(&pc, pg, k);
		fputs("<figure class=\"chart\">\n", f);
		err = axis_chart_svg(f, &pc.c);
		fputs("<figcaption>", f);
		html_text(f, p->name);
		if (p->by == BB_STATUS)
			fputs(": the status each kernel ran with", f);
		else
			fprintf(f, ": the headline metric against the %s end, with its 95 %% "
				"interval", pg->t->good);
		fputs("</figcaption>\n</figure>\n", f);
	}
	free(pc.marks);
	free(pc.titles);
	free(pc.tags);
	free(names);
	return err;
}

/* A number cell: steps.csv's text, the value in data-v for the sort (none when NaN). */
static void num(FILE *f, double v)
{
	if (isnan(v))
		fputs("<td class=\"num\"></td>", f);
	else
		fprintf(f, "<td class=\"num\" data-v=\"%.3f\">%.3f</td>", v, v);
}

static void cell(FILE *f, const char *text)
{
	fputs("<td>", f);
	html_text(f, text);
	fputs("</td>", f);
}

/* The steps, steps.csv's columns and their rounds, in the order they ran. */
static void steps_table(FILE *f, const struct bisect_page *pg)
{
	fputs("<h2>Steps</h2>\n", f);
	if (!pg->b->nr_steps) {
		fputs("<p>No step ran.</p>\n", f);
		return;
	}
	fputs("<div class=\"wide\"><table class=\"sortable\"><thead><tr><th>step</th>"
	      "<th>kernel</th><th>release</th><th>verdict</th><th>est %</th><th>lo %</th>"
	      "<th>hi %</th><th>figure</th><th>rounds</th><th>why</th></tr></thead>\n<tbody>\n",
	      f);
	for (int i = 0; i < pg->b->nr_steps; i++) {
		const struct bisect_step *st = &pg->b->steps[i];
		const struct bisect_kernel *k = &pg->l->k[st->kernel];

		fprintf(f, "<tr id=\"step-%d\"><td class=\"num\" data-v=\"%d\">%d</td>", i + 1,
			i + 1, i + 1);
		cell(f, k->label);
		cell(f, k->release);
		cell(f, bisect_term(pg->t, st->verdict));
		num(f, st->est_pct);
		num(f, st->lo_pct);
		num(f, st->hi_pct);
		cell(f, st->figure);
		fprintf(f, "<td class=\"num\" data-v=\"%d\">%d</td>", st->rounds, st->rounds);
		cell(f, st->why);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* Kernel k's state: an end, the step that ran it, never run, or not to be fetched. */
static void kernel_state(const struct bisect_page *pg, int k, char *buf, size_t len)
{
	const struct bisect *b = pg->b;

	if (k == 0 || k == pg->l->n - 1) {
		snprintf(buf, len, "the %s end", k ? pg->t->bad : pg->t->good);
		return;
	}
	for (int i = 0; i < b->nr_steps; i++)
		if (b->steps[i].kernel == k) {
			snprintf(buf, len, "step %d: %s", i + 1,
				 bisect_term(pg->t, b->steps[i].verdict));
			return;
		}
	snprintf(buf, len, "%s", pg->l->k[k].incomplete ? "skipped: cannot be fetched" :
		 "not run");
}

static void kernels_table(FILE *f, const struct bisect_page *pg)
{
	char state[64];

	fputs("<h2>Kernels, in the bisect's order</h2>\n<div class=\"wide\"><table><thead><tr>"
	      "<th>#</th><th>kernel</th><th>release</th><th>state</th></tr></thead>\n<tbody>\n",
	      f);
	for (int k = 0; k < pg->l->n; k++) {
		kernel_state(pg, k, state, sizeof(state));
		fprintf(f, "<tr><td class=\"num\">%d</td>", k);
		cell(f, pg->l->k[k].label);
		cell(f, pg->l->k[k].release);
		cell(f, state);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

int bisect_page_html(FILE *f, const struct bisect_page *pg)
{
	const struct bisect_point *p = judging(pg);
	const struct bisect_list *l = pg->l;
	char title[2 * PATH_MAX + 64];
	int err = 0;

	snprintf(title, sizeof(title), "bisect from %s (%s) to %s (%s)", l->k[0].label,
		 pg->t->good, l->k[l->n - 1].label, pg->t->bad);
	html_page_begin(f, title);
	fputs("<h1>", f);
	html_text(f, title);
	fputs("</h1>\n", f);
	facts(f, pg);
	if (p)
		err = chart(f, pg, p);
	else
		fputs("<p>No chart: the ends did not judge any point.</p>\n", f);
	steps_table(f, pg);
	kernels_table(f, pg);
	html_page_end(f);
	return err ?: ferror(f) ? -EIO : 0;
}

static int fill_page(FILE *f, const void *ctx)
{
	return bisect_page_html(f, ctx);
}

int bisect_page_write(const char *out, const struct bisect_page *pg)
{
	return resultdir_write_file(out, "bisect.html", true, fill_page, pg);
}
