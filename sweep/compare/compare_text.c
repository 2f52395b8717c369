// SPDX-License-Identifier: GPL-2.0
/*
 * compare's tables for people: text (the default, for a cover letter) and
 * markdown, the same rows.  One line per point and metric, read as the
 * kernel bench's line of a point is:
 *
 *   rb-libbpf nr_prod 1  hits   14.970 → 10.319M/s  -31.1 % [-32.0, -30.2]  slower
 *
 * base → new in the metric's own unit, Δ % with its interval, the verdict
 * ("same: ..." and "undecided: ..." keep the bound a cover letter quotes).
 * A metric a side did not record is left out (prog_ns with the BPF
 * statistics off was two rows of "n/a" per point), named in one note,
 * unless -e asked for it.  Columns are as wide as their content.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"

/* One row: a metric of a point compared, or a point that is not. */
struct row {
	const char *label;
	const char *metric;		/* NULL on a point not compared */
	char base[64], new[64];		/* "14.970", "10.319" */
	const char *unit;		/* "M/s", after new: numbers align in their columns */
	char pct[32];			/* "-31.1 %", "n/a" (a base of 0) */
	char ci[64];			/* "[-32.0, -30.2]", "" without an interval */
	char verdict[700];		/* "slower", "same: no change beyond ±1.3 %", "base only" */
};

/* An experiment's rows and their columns' widths. */
struct table {
	struct row *rows;
	int nr;
	int label, metric, base, new, unit, pct, ci;
};

int compare_text_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int pad(const char *s, int width)
{
	return width > compare_text_width(s) ? width - compare_text_width(s) : 0;
}

static bool same_exp(const struct point_cmp *a, const struct point_cmp *b)
{
	return !strcmp(a->experiment, b->experiment);
}

/* Is p the first point of its experiment?  Blocks go in order of first appearance. */
static bool first_of_exp(const struct comparison *c, int i)
{
	for (int k = 0; k < i; k++)
		if (same_exp(&c->pts[k], &c->pts[i]))
			return false;
	return true;
}

/* Does m get a row: picked by -e, or recorded by both sides? */
static bool shown(const struct comparison *c, const struct metric_cmp *m)
{
	return c->picked || m->verdict != CMP_UNKNOWN;
}

/*
 * The verdict beside Δ and its interval: a change by its word alone (the
 * interval is in its own column), the others as compare_verdict_text()
 * says them, their bound or flags with them.
 */
static void verdict_cell(const struct point_cmp *p, const struct metric_cmp *m, char *buf,
			 size_t len)
{
	bool change = m->verdict == CMP_IMPROVED || m->verdict == CMP_REGRESSED ||
		      m->verdict == CMP_CHANGED;

	if (change && m->decision.word != DECIDE_NO_TEST)
		snprintf(buf, len, "%s", cmp_verdict_text(m->verdict, m->info->dir));
	else
		compare_verdict_text(p, m, buf, len);
}

static void metric_row(struct row *r, const struct point_cmp *p, const struct metric_cmp *m)
{
	const struct metric_unit *u = m->info->unit;

	r->label = p->label;
	r->metric = m->metric;
	/* the unit once, after new; after base where new has no number to carry it */
	r->unit = isnan(m->new.mean) ? "" : u->name;
	if (isnan(m->new.mean))
		metric_format(m->base.mean, u, r->base, sizeof(r->base));
	else
		metric_format_bare(m->base.mean, u, r->base, sizeof(r->base));
	metric_format_bare(m->new.mean, u, r->new, sizeof(r->new));
	if (isnan(m->delta_pct))
		snprintf(r->pct, sizeof(r->pct), "n/a");
	else
		snprintf(r->pct, sizeof(r->pct), "%+.1f %%", m->delta_pct);
	r->ci[0] = '\0';
	/*
	 * a deterministic metric's change is exact: no interval around it; a
	 * base of 0 has no percentages: no Δ %, no interval of it
	 */
	if (m->decision.deterministic)
		snprintf(r->ci, sizeof(r->ci), "%s",
			 m->decision.word == DECIDE_DIFFERENT ? "(exact)" : "");
	else if (!isnan(m->delta_pct) && !isnan(m->decision.lo_pct) &&
		 !isnan(m->decision.hi_pct))
		snprintf(r->ci, sizeof(r->ci), "[%+.1f, %+.1f]", m->decision.lo_pct,
			 m->decision.hi_pct);
	verdict_cell(p, m, r->verdict, sizeof(r->verdict));
}

static void state_row(struct row *r, const struct point_cmp *p)
{
	*r = (struct row){ .label = p->label };
	snprintf(r->verdict, sizeof(r->verdict), "%s%s%s", compare_state_text(p->state),
		 *p->reason ? ": " : "", p->reason);
}

/* p's rows into t: its shown metrics, at least one (a point is never dropped). */
static void point_rows(const struct comparison *c, const struct point_cmp *p, struct table *t)
{
	int before = t->nr;

	if (p->state != PS_COMPARED) {
		state_row(&t->rows[t->nr++], p);
		return;
	}
	for (int s = 0; s < c->nr_show; s++)
		if (shown(c, &p->m[c->show[s]]))
			metric_row(&t->rows[t->nr++], p, &p->m[c->show[s]]);
	if (t->nr == before)
		metric_row(&t->rows[t->nr++], p, &p->m[c->show[0]]);
}

static void widen(struct table *t, const struct row *r)
{
	t->label = fmax(t->label, compare_text_width(r->label));
	if (!r->metric)
		return;
	t->metric = fmax(t->metric, compare_text_width(r->metric));
	t->base = fmax(t->base, compare_text_width(r->base));
	t->new = fmax(t->new, compare_text_width(r->new));
	t->unit = fmax(t->unit, compare_text_width(r->unit));
	t->pct = fmax(t->pct, compare_text_width(r->pct));
	t->ci = fmax(t->ci, compare_text_width(r->ci));
}

/* The rows of the experiment of c->pts[first], and their widths.  0 or -ENOMEM. */
static int table_of(const struct comparison *c, int first, struct table *t)
{
	size_t most = 0;

	/* room for the block's own rows: an imported set may hold thousands of blocks */
	for (int i = first; i < c->nr_pts; i++)
		if (same_exp(&c->pts[i], &c->pts[first]))
			most += c->nr_show + 1;
	*t = (struct table){ .rows = calloc(most, sizeof(*t->rows)) };
	if (!t->rows)
		return -ENOMEM;
	for (int i = first; i < c->nr_pts; i++)
		if (same_exp(&c->pts[i], &c->pts[first]))
			point_rows(c, &c->pts[i], t);
	for (int i = 0; i < t->nr; i++)
		widen(t, &t->rows[i]);
	return 0;
}

/*
 * How many of the metrics shown have a row: with one, the metric column
 * goes (the legend names it) and a row reads as the bench's line.
 */
static int metrics_with_rows(const struct comparison *c, int *which)
{
	int nr = 0;

	for (int s = 0; s < c->nr_show; s++) {
		bool any = false;

		for (int i = 0; !any && i < c->nr_pts; i++)
			any = c->pts[i].state == PS_COMPARED && shown(c, &c->pts[i].m[c->show[s]]);
		if (any) {
			*which = c->show[s];
			nr++;
		}
	}
	return nr;
}

static void text_row(FILE *f, const struct row *r, const struct table *t, bool metric_col)
{
	fprintf(f, "%s", r->label);
	if (!r->metric) {
		fprintf(f, "%*s  %s\n", pad(r->label, t->label), "", r->verdict);
		return;
	}
	fprintf(f, "%*s  ", pad(r->label, t->label), "");
	if (metric_col)
		fprintf(f, "%s%*s  ", r->metric, pad(r->metric, t->metric), "");
	fprintf(f, "%*s%s → %*s%s%s%*s  %*s%s", pad(r->base, t->base), "", r->base,
		pad(r->new, t->new), "", r->new, r->unit, pad(r->unit, t->unit), "",
		pad(r->pct, t->pct), "", r->pct);
	if (t->ci)
		fprintf(f, " %s%*s", r->ci, pad(r->ci, t->ci), "");
	fprintf(f, "  %s\n", r->verdict);
}

static int text_block(FILE *f, const struct comparison *c, int first, bool metric_col)
{
	struct table t;
	int err = table_of(c, first, &t);

	if (err)
		return err;
	fprintf(f, "\n%s\n", c->pts[first].experiment);
	for (int i = compare_text_width(c->pts[first].experiment); i > 0; i--)
		fputc('=', f);
	fputc('\n', f);
	for (int i = 0; i < t.nr; i++)
		text_row(f, &t.rows[i], &t, metric_col);
	free(t.rows);
	return 0;
}

/*
 * One note for the metrics left out as not recorded by a side, so that
 * "not shown" is never read as "not measured": "prog_ns (on 2 of 5 points)"
 * where only some points lack them.
 */
static void hidden_note(FILE *f, const struct comparison *c, const char *before)
{
	char list[600];
	size_t n = 0;

	for (int s = 0; !c->picked && s < c->nr_show && n < sizeof(list); s++) {
		int hidden = 0, compared = 0;

		for (int i = 0; i < c->nr_pts; i++) {
			if (c->pts[i].state != PS_COMPARED)
				continue;
			compared++;
			hidden += !shown(c, &c->pts[i].m[c->show[s]]);
		}
		if (!hidden)
			continue;
		n += snprintf(list + n, sizeof(list) - n, "%s%s", n ? " " : "",
			      c->metrics[c->show[s]]);
		if (hidden < compared && n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, " (on %d of %d points)", hidden,
				      compared);
	}
	if (n)
		fprintf(f, "%snote: not recorded by both sets, not shown (-e shows them): %s\n",
			before, list);
}

/* The notes before the table: the match's, then what else differs between the sets. */
static void print_notes(FILE *f, const struct comparison *c, const char *before)
{
	char text[700];

	for (int i = 0; i < c->nr_notes; i++)
		fprintf(f, "%snote: %s\n", before, c->notes[i]);
	hidden_note(f, c, before);
	for (int i = 0; i < c->nr_diffs; i++) {
		compare_difference_text(&c->diffs[i], text, sizeof(text));
		fprintf(f, "%snote: %s\n", before, text);
	}
}

int compare_print_text(FILE *f, const struct comparison *c, double alpha, bool first)
{
	char base[512], new[512];
	int one = 0, nr = metrics_with_rows(c, &one), err = 0;

	compare_describe_set(c->base, base, sizeof(base));
	compare_describe_set(c->new, new, sizeof(new));
	fprintf(f, "%sbase: %s%s\nnew:  %s%s\n", first ? "" : "\n", c->base_dir, base,
		c->new_dir, new);
	fprintf(f, "%s%sbase → new: means of the independent units; [lo, hi]: the %g %% "
		"interval of Δ (Welch); same: within --decide\n",
		nr == 1 ? c->metrics[one] : "", nr == 1 ? ": " : "", (1 - alpha) * 100);
	print_notes(f, c, "");
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (first_of_exp(c, i))
			err = text_block(f, c, i, nr != 1);
	return err;
}

static void md_row(FILE *f, const struct row *r)
{
	char change[200];

	md_cell(f, r->label);
	md_cell(f, r->metric ?: "");
	snprintf(change, sizeof(change), "%s → %s%s", r->base, r->new, r->unit);
	md_cell(f, r->metric ? change : "");
	md_cell(f, r->metric ? r->pct : "");
	md_cell(f, r->ci);
	md_cell(f, r->verdict);
	fputs("|\n", f);
}

static int md_block(FILE *f, const struct comparison *c, int first, double alpha)
{
	struct table t;
	int err = table_of(c, first, &t);

	if (err)
		return err;
	fprintf(f, "\n### %s\n\n| point | metric | base → new | Δ | %g %% interval | verdict |\n"
		"| --- | --- | ---: | ---: | --- | --- |\n", c->pts[first].experiment,
		(1 - alpha) * 100);
	for (int i = 0; i < t.nr; i++)
		md_row(f, &t.rows[i]);
	free(t.rows);
	return 0;
}

int compare_print_markdown(FILE *f, const struct comparison *c, double alpha, bool first)
{
	int err = 0;

	fprintf(f, "%sbase: `%s`, new: `%s`; base → new: means of the independent units; "
		"[lo, hi]: the %g %% interval of Δ (Welch)\n", first ? "" : "\n", c->base_dir,
		c->new_dir, (1 - alpha) * 100);
	print_notes(f, c, "\n");
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (first_of_exp(c, i))
			err = md_block(f, c, i, alpha);
	return err;
}
