// SPDX-License-Identifier: GPL-2.0
/*
 * compare's programs section built (compare_programs.h): per compared point, its
 * programs of both sets joined by name (and, for names a repetition loads
 * twice, by which of them), each figure taken over the point's
 * repetitions: a deterministic one is the same in each by construction,
 * so its first value is the figure and another value flags it "varied";
 * verify_time, a time, is their mean.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"
#include "compare_programs.h"
#include "metricmeta.h"

/* The figures both tables have, in BASE's; NULL (no section) when they share none. */
static struct prog_figs *common_figs(const struct comparison *c)
{
	struct prog_figs *pf = calloc(1, sizeof(*pf));

	for (int k = 0; pf && k < c->progs[0]->nr_figs; k++) {
		const char *name = c->progs[0]->fig[k];
		int other = prog_table_fig(c->progs[1], name);
		struct metric_info mb, mn;

		if (other < 0)
			continue;
		metricmeta_of(c->base, name, false, &mb);
		metricmeta_of(c->new, name, false, &mn);
		pf->name[pf->nr] = name;
		pf->col[0][pf->nr] = k;
		pf->col[1][pf->nr] = other;
		pf->exact[pf->nr++] = mb.deterministic && mn.deterministic;
	}
	return pf;
}

static struct prog_cmp *find_prog(struct point_cmp *p, const struct prog_row *r)
{
	for (int i = 0; i < p->nr_progs; i++)
		if (p->progs[i].nth == r->nth && !strcmp(p->progs[i].name, r->name))
			return &p->progs[i];
	return NULL;
}

static void take_figs(struct prog_cmp *pc, int s, const struct prog_figs *pf,
		      const struct prog_row *r)
{
	for (int k = 0; k < pf->nr; k++) {
		struct prog_fig_side *f = &pc->f[s][k];
		int col = pf->col[s][k];

		if (!r->known[col])
			continue;
		if (!f->known)
			f->first = r->v[col];
		f->varied |= f->known && f->first != r->v[col];
		f->known = true;
		f->sum += (double)r->v[col];
		f->n++;
	}
}

/*
 * Side s's rows of its summary row row into p->progs (room for every row
 * of both sides): of its point id, and in a merged set of its run too
 * (every run numbers its points from 0).
 */
static void take_side(struct comparison *c, struct point_cmp *p, int s, int row)
{
	const struct result_set *set = s ? c->new : c->base;
	const struct prog_table *t = c->progs[s];
	long long id = set->points[row - 1].id;
	const char *run = result_summary_cell(set, row, "run");

	for (int i = 0; i < t->nr_rows; i++) {
		const struct prog_row *r = &t->rows[i];
		struct prog_cmp *pc;

		if (r->point != id || strcmp(r->run, run))
			continue;
		pc = find_prog(p, r);
		if (!pc) {
			pc = &p->progs[p->nr_progs++];
			*pc = (struct prog_cmp){ .name = r->name, .nth = r->nth };
		}
		pc->on[s] = true;
		take_figs(pc, s, c->pfigs, r);
	}
}

static int point_programs(struct comparison *c, struct point_cmp *p)
{
	p->progs = calloc(c->progs[0]->nr_rows + c->progs[1]->nr_rows + 1, sizeof(*p->progs));
	if (!p->progs)
		return -ENOMEM;
	take_side(c, p, 0, p->base_row);
	take_side(c, p, 1, p->new_row);
	for (int i = 0; i < p->nr_progs; i++) {
		struct prog_cmp *pc = &p->progs[i];

		pc->differs = !pc->on[0] || !pc->on[1];
		for (int k = 0; !pc->differs && k < c->pfigs->nr; k++)
			pc->differs = c->pfigs->exact[k] &&
				strcmp(prog_fig_verdict(pc, c->pfigs, k), "same");
	}
	return 0;
}

int compare_programs(struct comparison *c)
{
	bool on[2] = { c->progs[0] && c->progs[0]->present, c->progs[1] && c->progs[1]->present };
	int err = 0;

	if (on[0] != on[1])
		compare_note(c, "programs.csv only in %s: programs not compared",
			     on[0] ? "BASE" : "NEW");
	if (!on[0] || !on[1])
		return 0;
	c->pfigs = common_figs(c);
	if (!c->pfigs)
		return -ENOMEM;
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (c->pts[i].state == PS_COMPARED)
			err = point_programs(c, &c->pts[i]);
	return err;
}

void compare_programs_free(struct comparison *c)
{
	for (int i = 0; i < c->nr_pts; i++)
		free(c->pts[i].progs);
	free(c->pfigs);
	c->pfigs = NULL;
}

const char *prog_fig_verdict(const struct prog_cmp *pc, const struct prog_figs *pf, int k)
{
	const struct prog_fig_side *b = &pc->f[0][k], *n = &pc->f[1][k];

	if (!pf->exact[k])
		return "";
	if (!b->known || !n->known)
		return "n/a (not recorded)";
	/* the same program loaded otherwise in one repetition: the setup differed */
	if (b->varied || n->varied)
		return "varied";
	return b->first == n->first ? "same" : "different";
}

double prog_fig_value(const struct prog_fig_side *s, bool exact)
{
	if (!s->known)
		return NAN;
	return exact ? (double)s->first : s->sum / s->n;
}

const char *prog_state_text(const struct prog_cmp *pc)
{
	return !pc->on[1] ? "base only" : !pc->on[0] ? "new only" : "compared";
}
