// SPDX-License-Identifier: GPL-2.0
/* compare --html: see htmlcompare.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "htmlcompare.h"

/* One row of the table: a metric of a point compared. */
struct cmp_row {
	const struct point_cmp *p;
	const struct metric_cmp *m;
	int order;			/* in the comparison, for ties */
};

static const char *const not_compared[] = {
	[PS_COMPARED] = "compared", [PS_BASE_ONLY] = "base only",
	[PS_NEW_ONLY] = "new only", [PS_NOT_COMPARED] = "not compared",
};

/* A row's class, for its colour: one word per verdict. */
static const char *const verdict_class[] = {
	[CMP_UNTESTED] = "untested", [CMP_NO_N] = "untested", [CMP_UNKNOWN] = "unknown",
	[CMP_SAME] = "same", [CMP_IMPROVED] = "improved", [CMP_REGRESSED] = "regressed",
	[CMP_CHANGED] = "changed", [CMP_INCONCLUSIVE] = "inconclusive",
	[CMP_UNDECIDED] = "undecided",
};

/*
 * ns_per_run comes from a separate pass under bpf_stats and moves by tens of
 * percent between runs of the same spec (an A/A pair: -80 % and +220 %):
 * sorted by its Δ % it would lead the table with changes that are not there.
 */
static bool is_per_run(const struct cmp_row *r)
{
	return r->m->info->kind == CMP_PER_RUN;
}

/*
 * Regressions first, then the larger changes (|Δ %|, n/a last), then as
 * compared; ns_per_run's rows after every other metric's, in that order.
 */
static int by_effect(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;
	bool rx = x->m->verdict == CMP_REGRESSED, ry = y->m->verdict == CMP_REGRESSED;
	double dx = fabs(x->m->delta_pct), dy = fabs(y->m->delta_pct);

	if (is_per_run(x) != is_per_run(y))
		return is_per_run(x) - is_per_run(y);
	if (rx != ry)
		return ry - rx;
	if (isnan(dx) != isnan(dy))
		return isnan(dx) - isnan(dy);
	if (!isnan(dx) && dx != dy)
		return dx < dy ? 1 : -1;
	return x->order - y->order;
}

/* A number cell: shown formatted, the value in data-v for the sort (none when NaN). */
static void num(FILE *f, double v, const char *shown)
{
	if (isnan(v))
		fputs("<td class=\"num\">", f);
	else
		fprintf(f, "<td class=\"num\" data-v=\"%.9g\">", v);
	html_text(f, shown);
	fputs("</td>", f);
}

static void row(FILE *f, const struct cmp_row *r)
{
	const struct metric_cmp *m = r->m;
	char buf[640];

	fprintf(f, "<tr class=\"%s\"><td>", verdict_class[m->verdict]);
	html_text(f, r->p->experiment);
	fputs("</td><td>", f);
	html_text(f, r->p->label);
	fputs("</td><td>", f);
	html_text(f, m->metric);
	fputs("</td>", f);
	metric_format_sd(m->base.mean, m->base.sd, m->info->unit, buf, sizeof(buf));
	num(f, m->base.mean, buf);
	metric_format_sd(m->new.mean, m->new.sd, m->info->unit, buf, sizeof(buf));
	num(f, m->new.mean, buf);
	snprintf(buf, sizeof(buf), isnan(m->delta_pct) ? "n/a" : "%+.2f%%", m->delta_pct);
	num(f, m->delta_pct, buf);
	snprintf(buf, sizeof(buf), m->test.done ? "%.3g" : "n/a", m->test.p);
	num(f, m->test.done ? m->test.p : NAN, buf);
	compare_verdict_text(r->p, m, buf, sizeof(buf));
	fputs("<td class=\"verdict\">", f);
	html_text(f, buf);
	fputs("</td><td>", f);
	html_text(f, r->p->flags[0]);
	fputs("</td><td>", f);
	html_text(f, r->p->flags[1]);
	fputs("</td></tr>\n", f);
}

/* Why the table's last rows are ns_per_run's, above it where it has any. */
static void per_run_note(FILE *f, const struct cmp_row *rows, int nr)
{
	if (!nr || !is_per_run(&rows[nr - 1]))
		return;
	fputs("<p>note: ns_per_run rows come last, whatever their \xce\x94 %: "
	      "the kernel's ns per program run comes from a separate pass of each point with "
	      "bpf_stats on, and is not stable between runs (docs/statistics.md).</p>\n", f);
}

/* Every metric of every point compared, sorted by effect. */
static int table(FILE *f, const struct comparison *c, int i)
{
	struct cmp_row *rows = calloc((size_t)c->nr_pts * c->nr_metrics + 1, sizeof(*rows));
	int nr = 0;

	if (!rows)
		return -ENOMEM;
	for (int k = 0; k < c->nr_pts; k++)
		for (int j = 0; c->pts[k].state == PS_COMPARED && j < c->nr_metrics; j++, nr++)
			rows[nr] = (struct cmp_row){ &c->pts[k], &c->pts[k].m[j], nr };
	qsort(rows, nr, sizeof(*rows), by_effect);
	per_run_note(f, rows, nr);
	fprintf(f, "<div class=\"wide\"><table class=\"sortable\" id=\"compare-%d\">\n"
		"<thead><tr><th>experiment</th>"
		"<th>point</th><th>metric</th><th>base</th><th>new</th><th>\xce\x94 %%</th>"
		"<th>p</th><th>verdict</th><th>base flags</th><th>new flags</th></tr></thead>\n"
		"<tbody>\n", i + 1);
	for (int k = 0; k < nr; k++)
		row(f, &rows[k]);
	fputs("</tbody>\n</table></div>\n", f);
	free(rows);
	return 0;
}

/* The points of one side only, or not compared, with why. */
static void others(FILE *f, const struct comparison *c, int i)
{
	bool any = false;

	for (int k = 0; k < c->nr_pts; k++) {
		const struct point_cmp *p = &c->pts[k];

		if (p->state == PS_COMPARED)
			continue;
		if (!any)
			fprintf(f, "<h3>Points not compared</h3>\n<ul id=\"others-%d\">\n", i + 1);
		any = true;
		fputs("<li><b>", f);
		html_text(f, p->label);
		fprintf(f, "</b> (%s)", not_compared[p->state]);
		if (p->reason[0]) {
			fputs(": ", f);
			html_text(f, p->reason);
		}
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
}

static int section(FILE *f, const struct comparison *c, int i, double alpha)
{
	char base[512], new[512];

	compare_describe_set(c->base, base, sizeof(base));
	compare_describe_set(c->new, new, sizeof(new));
	fprintf(f, "<section id=\"cmp-%d\">\n<h2>", i + 1);
	html_text(f, c->base_dir);
	fputs(" \xe2\x86\x92 ", f);
	html_text(f, c->new_dir);
	fputs("</h2>\n<dl class=\"facts\"><dt>base</dt><dd>", f);
	html_text(f, c->base_dir);
	html_text(f, base);
	fputs("</dd><dt>new</dt><dd>", f);
	html_text(f, c->new_dir);
	html_text(f, new);
	fprintf(f, "</dd></dl>\n<p>\xc2\xb1 is 1 stddev of the independent units; Welch t-test, "
		"two-sided, alpha %g; a change of a point either side flagged is "
		"inconclusive.</p>\n",
		alpha);
	for (int k = 0; k < c->nr_notes; k++) {
		fputs("<p class=\"warn\">note: ", f);
		html_text(f, c->notes[k]);
		fputs("</p>\n", f);
	}
	if (table(f, c, i))
		return -ENOMEM;
	others(f, c, i);
	fputs("</section>\n", f);
	return 0;
}

int html_compare(FILE *f, const struct comparison *cs, int nr, double alpha)
{
	int err = 0;

	html_page_begin(f, "bpfsweep compare");
	fputs("<header>\n<h1 id=\"title\">bpfsweep compare</h1>\n</header>\n<main>\n", f);
	for (int i = 0; !err && i < nr; i++)
		err = section(f, &cs[i], i, alpha);
	fputs("</main>\n", f);
	html_page_end(f);
	return err;
}
