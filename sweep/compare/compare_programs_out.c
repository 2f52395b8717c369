// SPDX-License-Identifier: GPL-2.0
/*
 * The programs section (compare_programs.h) in text, markdown and JSON
 * (its CSV rows are compare_print.c's, in compare's one table).  Text and
 * markdown show the deterministic figures, and by default only the
 * programs that differ, as `veristat -C` read for a change is: a sweep's
 * points load the same programs, and their equal rows would bury the one
 * that moved.  JSON carries every program and figure, verify_time too.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare_print.h"
#include "compare_programs.h"
#include "outfmt.h"

/* One line of the section. */
struct prow {
	char prog[300];
	const char *fig;	/* NULL: the program is on one side only */
	char change[64], delta[64];
	const char *verdict;
};

/* A side's figure, or n/a where the kernel did not give it. */
static void side_text(const struct prog_fig_side *s, char *buf, size_t len)
{
	if (s->known)
		snprintf(buf, len, "%" PRIu64, s->first);
	else
		snprintf(buf, len, "n/a");
}

static void fig_row(const struct prog_cmp *pc, const struct prog_figs *pf, int k,
		    struct prow *r)
{
	uint64_t b = pc->f[0][k].first, n = pc->f[1][k].first;
	double d = (double)n - (double)b;

	r->fig = pf->name[k];
	r->verdict = prog_fig_verdict(pc, pf, k);
	r->change[0] = r->delta[0] = '\0';
	side_text(&pc->f[0][k], r->change, sizeof(r->change) / 2);
	snprintf(r->change + strlen(r->change), sizeof(r->change) / 2, " → ");
	side_text(&pc->f[1][k], r->change + strlen(r->change), sizeof(r->change) / 2);
	if (!pc->f[0][k].known || !pc->f[1][k].known || b == n)
		return;
	if (b)
		snprintf(r->delta, sizeof(r->delta), "%+.0f (%+.1f %%)", d, d / (double)b * 100);
	else
		snprintf(r->delta, sizeof(r->delta), "%+.0f", d);
}

static void prog_name(const struct prog_cmp *pc, char *buf, size_t len)
{
	if (pc->nth)
		snprintf(buf, len, "%s#%d", pc->name, pc->nth + 1);
	else
		snprintf(buf, len, "%s", pc->name);
}

/* The rows of p's programs to show; returns how many (rows has room for all). */
static int point_rows(const struct comparison *c, const struct point_cmp *p, struct prow *rows)
{
	int nr = 0;

	for (int i = 0; i < p->nr_progs; i++) {
		const struct prog_cmp *pc = &p->progs[i];

		if (!pc->differs && !c->all_programs)
			continue;
		if (!pc->on[0] || !pc->on[1]) {
			rows[nr] = (struct prow){ .verdict = prog_state_text(pc) };
			prog_name(pc, rows[nr++].prog, sizeof(rows[0].prog));
			continue;
		}
		for (int k = 0; k < c->pfigs->nr; k++) {
			if (!c->pfigs->exact[k])
				continue;
			fig_row(pc, c->pfigs, k, &rows[nr]);
			if (!c->all_programs && !strcmp(rows[nr].verdict, "same"))
				continue;
			prog_name(pc, rows[nr++].prog, sizeof(rows[0].prog));
		}
	}
	return nr;
}

/* Column widths of the text's rows. */
struct pwidths {
	int prog, fig, change, delta;
};

static void widths_of(const struct prow *rows, int nr, struct pwidths *w)
{
	*w = (struct pwidths){ 0 };
	for (int i = 0; i < nr; i++) {
		w->prog = fmax(w->prog, compare_text_width(rows[i].prog));
		w->fig = fmax(w->fig, compare_text_width(rows[i].fig ?: ""));
		w->change = fmax(w->change, compare_text_width(rows[i].change));
		w->delta = fmax(w->delta, compare_text_width(rows[i].delta));
	}
}

/* s left-aligned in width characters, then two spaces. */
static void cell(FILE *f, const char *s, int width)
{
	fprintf(f, "%s%*s  ", s, width - compare_text_width(s), "");
}

static void text_rows(FILE *f, const struct prow *rows, int nr)
{
	struct pwidths w;

	widths_of(rows, nr, &w);
	for (int i = 0; i < nr; i++) {
		fputs("  ", f);
		cell(f, rows[i].prog, w.prog);
		if (rows[i].fig) {
			cell(f, rows[i].fig, w.fig);
			fprintf(f, "%*s%s  ", w.change - compare_text_width(rows[i].change), "",
				rows[i].change);
			fprintf(f, "%*s%s  ", w.delta - compare_text_width(rows[i].delta), "",
				rows[i].delta);
		}
		fprintf(f, "%s\n", rows[i].verdict);
	}
}

static void md_rows(FILE *f, const struct point_cmp *p, const struct prow *rows, int nr)
{
	char name[600];

	compare_point_name(p, name, sizeof(name));
	for (int i = 0; i < nr; i++) {
		md_cell(f, name);
		md_cell(f, rows[i].prog);
		md_cell(f, rows[i].fig ?: "");
		md_cell(f, rows[i].change);
		md_cell(f, rows[i].delta);
		md_cell(f, rows[i].verdict);
		fputs("|\n", f);
	}
}

/* How many programs c's points loaded, and how many of them are the same in every figure. */
struct pcount {
	int progs, same;
};

static void section_head(FILE *f, const struct comparison *c, bool markdown)
{
	const char *what = "veristat's figures of each point's programs, base → new, "
			   "compared exactly: a change is a change";

	if (markdown)
		fprintf(f, "\n### Programs\n\n%s.\n\n| point | program | figure | base → new | Δ "
			"| verdict |\n| --- | --- | --- | ---: | ---: | --- |\n", what);
	else
		fprintf(f, "\nprograms: %s -> %s: %s\n", c->base_dir, c->new_dir, what);
}

static void section_tail(FILE *f, const struct comparison *c, const struct pcount *n)
{
	if (!n->progs)
		fprintf(f, "\nno program loaded on a compared point of both\n");
	else if (n->same && !c->all_programs)
		fprintf(f, "\n%d of %d programs the same in every figure, not shown "
			"(--all-programs shows them)\n", n->same, n->progs);
	else if (n->same == n->progs)
		fprintf(f, "\nevery program the same in every figure\n");
}

int compare_programs_print(FILE *f, const struct comparison *c, bool markdown)
{
	struct pcount n = { 0 };
	struct prow *rows;

	if (!c->pfigs)
		return 0;
	section_head(f, c, markdown);
	for (int i = 0; i < c->nr_pts; i++) {
		const struct point_cmp *p = &c->pts[i];
		char name[600];
		int nr;

		rows = calloc((size_t)p->nr_progs * PROG_MAX_FIGS + 1, sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		nr = point_rows(c, p, rows);
		for (int k = 0; k < p->nr_progs; k++)
			n.same += !p->progs[k].differs;
		n.progs += p->nr_progs;
		compare_point_name(p, name, sizeof(name));
		if (nr && markdown)
			md_rows(f, p, rows, nr);
		else if (nr)
			fprintf(f, "%s\n", name);
		if (nr && !markdown)
			text_rows(f, rows, nr);
		free(rows);
	}
	section_tail(f, c, &n);
	return ferror(f) ? -EIO : 0;
}

static struct json_object *json_fig(const struct prog_cmp *pc, const struct prog_figs *pf,
				    int k)
{
	struct json_object *o = json_object_new_object();
	double b = prog_fig_value(&pc->f[0][k], pf->exact[k]);
	double n = prog_fig_value(&pc->f[1][k], pf->exact[k]);

	json_object_object_add(o, "figure", json_object_new_string(pf->name[k]));
	json_object_object_add(o, "exact", json_object_new_boolean(pf->exact[k]));
	json_object_object_add(o, "base", json_num(b));
	json_object_object_add(o, "new", json_num(n));
	json_object_object_add(o, "delta", json_num(n - b));
	json_object_object_add(o, "delta_pct", json_num(b ? (n - b) / b * 100 : NAN));
	json_object_object_add(o, "verdict", pf->exact[k] ?
			       json_object_new_string(prog_fig_verdict(pc, pf, k)) : NULL);
	return o;
}

struct json_object *compare_programs_json(const struct comparison *c, const struct point_cmp *p)
{
	struct json_object *list = json_object_new_array();

	for (int i = 0; i < p->nr_progs; i++) {
		const struct prog_cmp *pc = &p->progs[i];
		struct json_object *o = json_object_new_object(), *figs = json_object_new_array();

		json_object_object_add(o, "program", json_object_new_string(pc->name));
		json_object_object_add(o, "nth", json_object_new_int(pc->nth + 1));
		json_object_object_add(o, "state", json_object_new_string(prog_state_text(pc)));
		json_object_object_add(o, "differs", json_object_new_boolean(pc->differs));
		for (int k = 0; pc->on[0] && pc->on[1] && k < c->pfigs->nr; k++)
			json_object_array_add(figs, json_fig(pc, c->pfigs, k));
		json_object_object_add(o, "figures", figs);
		json_object_array_add(list, o);
	}
	return list;
}
