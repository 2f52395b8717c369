// SPDX-License-Identifier: GPL-2.0
/*
 * A chart's model (plotchart.h): its ok points in series along x, sorted,
 * the series with no ok point, the slug its files are named by.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plotchart.h"
#include "scaling.h"
#include "table.h"

/* What y shows: a metric, or ns_per_run (the kernel's ns per program run, progrun.h). */
const char *chart_y_name(const struct chart *c)
{
	return c->req->per_run ? "ns_per_run" : c->v->metrics[c->req->y].name;
}

const struct summary *chart_y_summary(const struct chart *c, const struct view_row *r)
{
	return c->req->per_run ? &r->exact.per_run : &r->exact.stat[c->req->y];
}

/*
 * The units an error bar may stand on: the metric's independent units, or
 * none for ns_per_run, whose statistics pass has only its intervals
 * (their naive interval is what the bars must not draw).
 */
const struct units *chart_y_units(const struct chart *c, const struct view_row *r)
{
	return c->req->per_run ? NULL : &r->exact.unit[c->req->y];
}

bool chart_y_err(const struct chart *c, const struct view_row *r, double *half)
{
	const struct units *u = chart_y_units(c, r);
	bool bar = u && u->kind != UK_NONE && u->n >= 2 && isfinite(u->ci95);

	*half = bar ? u->ci95 : 0;
	return bar;
}

const struct metric_unit *chart_y_unit(const struct chart *c)
{
	return c->req->per_run ? metric_per_run_unit() :
				 metric_default_unit(&c->v->metrics[c->req->y]);
}

/* Lowercase ASCII letters and digits; every other run of bytes becomes one '-'. */
static void slugify(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; *src && n < len - 1; src++) {
		char c = *src;

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			dst[n++] = c;
		else if (n && dst[n - 1] != '-')
			dst[n++] = '-';
	}
	while (n && dst[n - 1] == '-')
		n--;
	dst[n] = '\0';
}

/*
 * "<experiment number>-<y>-vs-<x>[-by-<z>]": short, the same in every run
 * of a spec, and unique but for two identical plot lines (then "-2").
 */
void chart_slug(struct chart *c, char (*taken)[SLUG_LEN], int nr_taken)
{
	const struct workload *wl = &c->v->schema;
	char raw[512], base[SLUG_LEN - 12];	/* room for "-<dup>" */
	int n, dup = 1;

	n = snprintf(raw, sizeof(raw), "%d %s vs %s", (int)(c->e - c->v->exps) + 1,
		     chart_y_name(c), wl->params[c->req->x].name);
	if (c->req->by >= 0 && n < (int)sizeof(raw))
		n += snprintf(raw + n, sizeof(raw) - n, " by %s", wl->params[c->req->by].name);
	if (c->per >= 0 && n < (int)sizeof(raw))
		n += snprintf(raw + n, sizeof(raw) - n, " per %s", wl->params[c->per].name);
	if (c->po->relative && n < (int)sizeof(raw))
		snprintf(raw + n, sizeof(raw) - n, " relative");
	slugify(base, sizeof(base), raw);
	snprintf(c->slug, sizeof(c->slug), "%s", base);
	for (int i = 0; i < nr_taken; i++) {
		if (strcmp(taken[i], c->slug))
			continue;
		snprintf(c->slug, sizeof(c->slug), "%s-%d", base, ++dup);
		i = -1;		/* the new name may be taken too */
	}
}

/* Numbers plot as themselves; on/off and enum values by their place on the axis. */
static double x_of(const struct chart *c, const struct view_row *r)
{
	int x = c->req->x;
	long long v = r->v[x];

	for (int i = 0; c->names && c->e->vals[x] && i < c->e->nr_vals[x]; i++)
		if (c->e->vals[x][i] == v)
			return i;
	return v;
}

/* " name=value" at buf[n], without the space at the start; returns the new n. */
static size_t put_param(const struct chart *c, const struct view_row *r, int p,
			char *buf, size_t n, size_t len)
{
	char val[128];

	if (n >= len)
		return n;
	param_format(&c->v->params[p], r->v[p], val, sizeof(val));
	return n + snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", c->v->params[p].name,
			    val);
}

/*
 * A series is the by-parameter's value plus every other parameter that
 * varies besides x: each combination gets its own line, named after it.
 * Charts of several runs put the run's label first: a line per run.
 */
static void series_name(const struct chart *c, const struct view_row *r, int i, char *buf,
			size_t len)
{
	const struct view_exp *e = c->e;
	size_t n = 0;

	buf[0] = '\0';
	if (c->po->run_label)
		n = snprintf(buf, len, "%s", c->po->run_label[i]);
	if (c->req->by >= 0)
		n = put_param(c, r, c->req->by, buf, n, len);
	for (int a = 0; a < e->nr_order; a++) {
		int p = e->order[a];

		if (e->nr_vals[p] > 1 && p != c->req->x && p != c->req->by)
			n = put_param(c, r, p, buf, n, len);
	}
	if (!buf[0])
		snprintf(buf, len, "%s", chart_y_name(c));
}

static int series_index(struct chart *c, const char *name)
{
	for (int i = 0; i < c->nr_series; i++)
		if (!strcmp(c->series[i], name))
			return i;
	snprintf(c->series[c->nr_series], SERIES_LEN, "%s", name);
	return c->nr_series++;
}

/* By series in order of first appearance, then by x: what gnuplot draws. */
static bool entry_before(const struct chart_entry *a, const struct chart_entry *b)
{
	if (a->series != b->series)
		return a->series < b->series;
	if (a->x != b->x)
		return a->x < b->x;
	return a->pos < b->pos;
}

static void sort_entries(struct chart_entry *ent, int nr)
{
	for (int i = 1; i < nr; i++) {
		struct chart_entry cur = ent[i];
		int j = i;

		for (; j > 0 && entry_before(&cur, &ent[j - 1]); j--)
			ent[j] = ent[j - 1];
		ent[j] = cur;
	}
}

static bool has_series(const struct chart *c, const char *name)
{
	for (int i = 0; i < c->nr_series; i++)
		if (!strcmp(c->series[i], name))
			return true;
	for (int i = 0; i < c->nr_absent; i++)
		if (!strcmp(c->absent[i].name, name))
			return true;
	return false;
}

/*
 * A series whose every point was unsupported (or failed) still gets a line
 * in the key, so that a chart of overwrite off/on on a kernel without
 * overwrite mode says why "on" is missing.
 */
static void note_absent(struct chart *c, const struct view_row *r, int i)
{
	struct absent *a = &c->absent[c->nr_absent];

	series_name(c, r, i, a->name, sizeof(a->name));
	if (has_series(c, a->name))
		return;
	a->status = r->status;
	c->nr_absent++;
}

/*
 * The ok points of the experiment; the others have no value to draw, nor
 * has an ok point whose gauge could not be read (no memory controller).
 */
int chart_build(struct chart *c, const struct view_row *const *rows, int nr)
{
	enum param_type xt = c->v->params[c->req->x].type;
	int exp = c->e - c->v->exps;
	char name[SERIES_LEN];

	c->names = xt == PT_BOOL || xt == PT_ENUM;
	c->ent = calloc(nr ? nr : 1, sizeof(*c->ent));
	c->series = calloc(nr ? nr : 1, sizeof(*c->series));
	c->absent = calloc(nr ? nr : 1, sizeof(*c->absent));
	if (!c->ent || !c->series || !c->absent)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		const struct view_row *r = rows[i];
		struct chart_entry *en = &c->ent[c->nr_ent];

		if (r->exp != exp || r->status != PS_OK || isnan(chart_y_summary(c, r)->mean))
			continue;
		series_name(c, r, i, name, sizeof(name));
		*en = (struct chart_entry){ r, series_index(c, name), x_of(c, r), i };
		c->nr_ent++;
	}
	for (int i = 0; i < nr; i++)
		if (rows[i]->exp == exp && rows[i]->status != PS_OK)
			note_absent(c, rows[i], i);
	for (int i = 0; i < c->nr_ent; i++)
		c->flags |= c->ent[i].r->quality.flags;
	for (int i = 0; i < nr; i++)
		c->nr_stalled += rows[i]->exp == exp && rows[i]->status == PS_STALLED;
	sort_entries(c->ent, c->nr_ent);
	return 0;
}

void chart_free(struct chart *c)
{
	free(c->ent);
	free(c->series);
	free(c->absent);
}
