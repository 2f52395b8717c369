// SPDX-License-Identifier: GPL-2.0
/*
 * The labels of compare's rows.  Where BASE's stored spec (else NEW's) has a
 * label template for the experiment ([report] label, or its [params]
 * section's own: each set's view holds them, viewlabel.h), the row reads as
 * table.txt does ("rb-libbpf nr_prod 8"), so a cover
 * letter's before/after table matches its other tables; a template that
 * gives two points of an experiment the same label is not used, and the
 * parameters that vary among its points are shown instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"
#include "template.h"
#include "viewlabel.h"

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

/* Is the label column one of the parameters both sets are matched by? */
static bool has_label_column(const struct comparison *c)
{
	for (int k = 0; k < c->join.nr_params; k++)
		if (!strcmp(c->join.params[k], LABEL_COLUMN))
			return true;
	return false;
}

/*
 * The experiment's template in BASE's stored spec, else in NEW's (each
 * set's view holds them: viewlabel.h), else the label column's value (a
 * set imported without a spec); filled from p's own row.
 */
static bool template_label(const struct comparison *c, struct point_cmp *p)
{
	const struct row_ref r = { p->base_row > 0 ? c->base : c->new,
				   p->base_row > 0 ? p->base_row : p->new_row };
	const char *tpl = viewlabel_of(&c->base_view->labels, p->experiment) ?:
			  viewlabel_of(&c->new_view->labels, p->experiment);

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
	bool *templated = calloc(c->nr_pts + 1, sizeof(*templated));
	bool *fits = calloc(c->nr_pts + 1, sizeof(*fits));
	int err = templated && fits ? 0 : -ENOMEM;

	for (int i = 0; !err && i < c->nr_pts; i++)
		templated[i] = template_label(c, &c->pts[i]);
	for (int i = 0; !err && i < c->nr_pts; i++)
		fits[i] = template_fits(c, templated, i);
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (!fits[i])
			varying_label(c, &c->pts[i]);
	free(fits);
	free(templated);
	return err;
}
