// SPDX-License-Identifier: GPL-2.0
/*
 * The labels of compare's rows.  Where BASE's stored spec (else NEW's) has a
 * label template for the experiment ([report] label, or its [params]
 * section's own), the row reads as table.txt does ("rb-libbpf nr_prod 8"), so a cover
 * letter's before/after table matches its other tables; a template that
 * gives two points of an experiment the same label is not used, and the
 * parameters that vary among its points are shown instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"
#include "spec.h"
#include "template.h"

const char *point_param(const struct comparison *c, const struct point_cmp *p, int param)
{
	if (p->base_row > 0)
		return c->base->summary.rows[p->base_row][c->join.base_col[param]];
	return c->new->summary.rows[p->new_row][c->join.new_col[param]];
}

void compare_point_name(const struct point_cmp *p, char *buf, size_t len)
{
	if (!p->label[0] || !strcmp(p->label, p->experiment))
		snprintf(buf, len, "%s", p->experiment);
	else
		snprintf(buf, len, "%s: %s", p->experiment, p->label);
}

/*
 * An imported set's label column (import.h: the row's label as the bench
 * printed it) sits among its parameters, and the sets are matched by it
 * too, but it is the row's name, not a parameter: shown as it is, never
 * as "label=rb-libbpf nr_prod 1".  report labels such a set by it alike
 * (viewdesc.c).
 */
#define LABEL_COLUMN	"label"

/*
 * "producers=8 overwrite=on": the parameters that vary within p's
 * experiment, a label column's value bare.
 */
static void varying_label(const struct comparison *c, struct point_cmp *p)
{
	size_t n = 0;

	p->label[0] = '\0';
	for (int k = 0; k < c->join.nr_params; k++) {
		bool varies = false, bare = !strcmp(c->join.params[k], LABEL_COLUMN);

		for (int q = 0; q < c->nr_pts && !varies; q++)
			varies = !strcmp(c->pts[q].experiment, p->experiment) &&
				 strcmp(point_param(c, &c->pts[q], k), point_param(c, p, k));
		if (varies && n < sizeof(p->label))
			n += snprintf(p->label + n, sizeof(p->label) - n, "%s%s%s%s",
				      n ? " " : "", bare ? "" : c->join.params[k], bare ? "" : "=",
				      point_param(c, p, k));
	}
	if (!p->label[0])
		snprintf(p->label, sizeof(p->label), "%s", p->experiment);
}

static const char *entry(const struct spec_section *sec, const char *key)
{
	const char *value = NULL;

	for (int i = 0; i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			value = sec->entries[i].value;
	return value;
}

/*
 * The label template of the experiment titled title: its own [params
 * "title"] section's label (an untitled section's for other titles), else
 * [report]'s.  NULL without one; "" asks for the default label.
 */
static const char *template_of(const struct spec *s, const char *title)
{
	const char *report = NULL, *own = NULL, *untitled = NULL;

	for (int i = 0; i < s->nr_sections; i++) {
		const struct spec_section *sec = &s->sections[i];

		if (!strcmp(sec->name, "report"))
			report = entry(sec, "label") ?: report;
		else if (strcmp(sec->name, "params"))
			continue;
		else if (sec->arg && *sec->arg && !strcmp(sec->arg, title))
			own = entry(sec, "label") ?: own;
		else if (!sec->arg || !*sec->arg)
			untitled = entry(sec, "label") ?: untitled;
	}
	return own ?: untitled ?: report;
}

/* One summary row of a result set, whose parameter cells fill a label's {name}. */
struct row_ref {
	const struct result_set *rs;
	int row;
};

static bool cell_value(const char *name, const void *ctx, char *buf, size_t len)
{
	const struct row_ref *r = ctx;
	int col = result_summary_col(r->rs, name);

	if (col < r->rs->first_param || col >= r->rs->first_param + r->rs->nr_params)
		return false;
	snprintf(buf, len, "%s", r->rs->summary.rows[r->row][col]);
	return true;
}

/* The stored spec of rs, or NULL when it has none or it does not parse (said nowhere). */
static struct spec *stored_spec(const struct result_set *rs)
{
	FILE *sink;
	struct spec *s = NULL;

	if (!rs->spec)
		return NULL;
	sink = fopen("/dev/null", "w");
	if (!sink)
		return NULL;
	diag_set_stream(sink);
	if (spec_parse_string("spec", rs->spec, &s))
		s = NULL;
	diag_set_stream(NULL);
	fclose(sink);
	return s;
}

/* Is the label column one of the parameters both sets are matched by? */
static bool has_label_column(const struct comparison *c)
{
	for (int k = 0; k < c->join.nr_params; k++)
		if (!strcmp(c->join.params[k], LABEL_COLUMN))
			return true;
	return false;
}

/*
 * The experiment's template in BASE's spec, else in NEW's, else the label
 * column's value (a set imported without a spec); filled from p's own row.
 */
static bool template_label(const struct comparison *c, struct point_cmp *p,
			   struct spec *base, struct spec *new)
{
	const struct row_ref r = { p->base_row > 0 ? c->base : c->new,
				   p->base_row > 0 ? p->base_row : p->new_row };
	const char *tpl = base ? template_of(base, p->experiment) : NULL;

	if (!tpl && new)
		tpl = template_of(new, p->experiment);
	if (!tpl && has_label_column(c))
		tpl = "{" LABEL_COLUMN "}";
	if (!tpl || !*tpl)
		return false;
	template_expand(tpl, cell_value, &r, p->label, sizeof(p->label));
	return true;
}

/*
 * The template labels of p's experiment are used only when every point of
 * it has one and no two of them are the same.
 */
static bool template_fits(const struct comparison *c, const bool *templated, int p)
{
	const char *experiment = c->pts[p].experiment;

	for (int i = 0; i < c->nr_pts; i++) {
		if (strcmp(c->pts[i].experiment, experiment))
			continue;
		if (!templated[i])
			return false;
		for (int k = i + 1; k < c->nr_pts; k++)
			if (!strcmp(c->pts[k].experiment, experiment) &&
			    !strcmp(c->pts[i].label, c->pts[k].label))
				return false;
	}
	return true;
}

int compare_labels(struct comparison *c)
{
	struct spec *base = stored_spec(c->base), *new = stored_spec(c->new);
	bool *templated = calloc(c->nr_pts + 1, sizeof(*templated));
	bool *fits = calloc(c->nr_pts + 1, sizeof(*fits));
	int err = templated && fits ? 0 : -ENOMEM;

	for (int i = 0; !err && i < c->nr_pts; i++)
		templated[i] = template_label(c, &c->pts[i], base, new);
	for (int i = 0; !err && i < c->nr_pts; i++)
		fits[i] = template_fits(c, templated, i);
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (!fits[i])
			varying_label(c, &c->pts[i]);
	free(fits);
	free(templated);
	spec_free(base);
	spec_free(new);
	return err;
}
