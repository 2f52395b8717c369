// SPDX-License-Identifier: GPL-2.0
/*
 * A comparison of BASE with one NEW result set (compare_build.h): points
 * joined by their parameters (compare.c), each side's state, and per
 * metric both sides' units, the test and the decision.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_build.h"
#include "compare_programs.h"
#include "diag.h"
#include "runfacts.h"

/*
 * A deterministic metric (cmp_metric.deterministic) is not tested: its
 * repetitions are identical by construction, so any change of it is one.
 * Only its own "varied" flag vetoes it: the rate's noise is not its.
 */
static void compare_exact(const struct point_cmp *p, struct metric_cmp *m)
{
	long n = m->base.n < m->new.n ? m->base.n : m->new.n;

	decide_deterministic(m->base.mean, m->new.mean, n, &m->decision);
	m->tested = cmp_exact_verdict(&m->base, &m->new, m->info->dir);
	m->verdict = cmp_veto(m->tested, compare_point_varied(p));
}

static int compare_metrics(struct comparison *c, struct point_cmp *p,
			   const struct compare_rule *rule)
{
	p->m = calloc(c->nr_metrics + 1, sizeof(*p->m));
	if (!p->m)
		return -ENOMEM;
	compare_point_flags(c, p);
	for (int i = 0; i < c->nr_metrics; i++) {
		struct metric_cmp *m = &p->m[i];

		m->metric = c->metrics[i];
		m->info = &c->info[i];
		compare_point_moments(c->base_view, p->base_row, m->metric, m->info->kind, &m->base);
		compare_point_moments(c->new_view, p->new_row, m->metric, m->info->kind, &m->new);
		m->delta_pct = cmp_delta_pct(m->base.mean, m->new.mean);
		if (m->info->deterministic) {
			compare_exact(p, m);
			continue;
		}
		cmp_welch(&m->base, &m->new, &m->test);
		decide_welch(&(struct decide_rule){ .alpha = rule->alpha,
						    .bound_pct = rule->bound_pct },
			     m->base.mean, m->base.sd, m->base.n, m->new.mean, m->new.sd,
			     m->new.n, &m->decision);
		m->tested = cmp_verdict_of(&m->base, &m->new, &m->test, rule->alpha,
					   m->info->dir);
		m->tested = cmp_settle(m->tested, &m->decision);
		m->verdict = cmp_veto(m->tested, compare_point_flagged(p));
	}
	return 0;
}

/* "unsupported: why" of a point not ok, "" of one that is. */
static void not_ok_text(const struct view_row *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->status != PS_OK)
		snprintf(buf, len, "%s%s%s", point_status_name(r->status), *r->reason ? ": " : "",
			 r->reason);
}

/* Both sides must be ok to compare; say why not otherwise, the same cause once. */
static void state_of(const struct comparison *c, struct point_cmp *p)
{
	const struct view_row *b = compare_row(c->base_view, p->base_row);
	const struct view_row *n = compare_row(c->new_view, p->new_row);
	char bwhy[200], nwhy[200];

	p->state = !b ? PS_NEW_ONLY : !n ? PS_BASE_ONLY : PS_COMPARED;
	if (p->state != PS_COMPARED)
		return;
	not_ok_text(b, bwhy, sizeof(bwhy));
	not_ok_text(n, nwhy, sizeof(nwhy));
	if (!*bwhy && !*nwhy)
		return;
	p->state = PS_NOT_COMPARED;
	if (!strcmp(bwhy, nwhy))
		snprintf(p->reason, sizeof(p->reason), "both %s", bwhy);
	else
		snprintf(p->reason, sizeof(p->reason), "%s%s%s%s%s", *bwhy ? "base " : "", bwhy,
			 *bwhy && *nwhy ? "; " : "", *nwhy ? "new " : "", nwhy);
}

/* The title of row's experiment in its set's view. */
static const char *experiment_of(const struct result_view *v, int row)
{
	const struct view_row *r = compare_row(v, row);

	return r->exp < 0 ? "" : view_exp_title(v, &v->exps[r->exp]);
}

/* Is name a parameter of the match, or one --ignore leaves out of it? */
static bool matched_or_ignored(const struct comparison *c, const struct compare_rule *rule,
			       const char *name)
{
	for (int p = 0; p < c->join.nr_params; p++)
		if (!strcmp(c->join.params[p], name))
			return true;
	for (int i = 0; i < rule->nr_ignore; i++)
		if (!strcmp(rule->ignore[i], name))
			return true;
	return false;
}

/*
 * Parameters of one set only (constant there, cmp_join checked) are not
 * part of the match: one note per side names them with their values.
 */
static void one_side_note(struct comparison *c, const struct compare_rule *rule,
			  const struct result_set *rs, const char *side)
{
	char list[400];
	size_t n = 0;

	list[0] = '\0';
	for (int k = rs->first_param; rs->summary.nr_rows > 1 &&
	     k < rs->first_param + rs->nr_params && n < sizeof(list); k++)
		if (!matched_or_ignored(c, rule, rs->summary.rows[0][k]))
			n += snprintf(list + n, sizeof(list) - n, "%s%s=%s", n ? " " : "",
				      rs->summary.rows[0][k], rs->summary.rows[1][k]);
	if (n)
		compare_note(c, "only in %s, not part of the match: %s", side, list);
}

static void ignore_note(struct comparison *c, const struct compare_rule *rule)
{
	char list[400];
	size_t n = 0;

	for (int i = 0; i < rule->nr_ignore && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? " " : "", rule->ignore[i]);
	if (n)
		compare_note(c, "left out of the match (--ignore): %s", list);
}

static int build(struct comparison *c, const struct compare_rule *rule)
{
	char why[512];
	int err = cmp_join(&c->base->summary, &c->new->summary, rule->ignore, rule->nr_ignore,
			   &c->join, why, sizeof(why));

	if (err) {
		diag_err("%s vs %s: %s", c->base_dir, c->new_dir, why);
		return err;
	}
	one_side_note(c, rule, c->base, "BASE");
	one_side_note(c, rule, c->new, "NEW");
	ignore_note(c, rule);
	if (!c->join.by_title)
		compare_note(c, "experiment titles differ: points matched by parameters alone");
	if (!compare_headlines_shared(c, why, sizeof(why))) {
		diag_err("%s vs %s: %s", c->base_dir, c->new_dir, why);
		return -EINVAL;
	}
	err = compare_common_metrics(c);
	if (!err)
		err = compare_pick_metrics(c, rule->pick, rule->nr_pick);
	if (err)
		return err;
	err = compare_meta_differences(c);
	c->pts = calloc(c->join.nr + 1, sizeof(*c->pts));
	if (err || !c->pts)
		return -ENOMEM;
	for (int i = 0; i < c->join.nr; i++) {
		struct point_cmp *p = &c->pts[c->nr_pts++];

		p->base_row = c->join.m[i].base_row;
		p->new_row = c->join.m[i].new_row;
		p->experiment = p->base_row > 0 ? experiment_of(c->base_view, p->base_row) :
			experiment_of(c->new_view, p->new_row);
		state_of(c, p);
		if (p->state == PS_COMPARED)
			err = err ?: compare_metrics(c, p, rule);
	}
	c->all_programs = rule->all_programs;
	return err ?: compare_labels(c) ?: compare_programs(c);
}

/* Both sets must share metrics and at least one point. */
static int check_common(const struct comparison *c)
{
	int matched = 0;

	for (int i = 0; i < c->nr_pts; i++)
		matched += c->pts[i].base_row > 0 && c->pts[i].new_row > 0;
	if (c->nr_metrics && matched)
		return 0;
	diag_err("%s vs %s: nothing in common (%s)", c->base_dir, c->new_dir,
		 c->nr_metrics ? "no point has the same parameter values" : "no metric");
	return -EINVAL;
}

void comparison_pair(struct comparison *c, const struct compare_set *base,
		     const struct compare_set *new)
{
	*c = (struct comparison){ .base_dir = base->dir, .new_dir = new->dir, .base = base->set,
				  .new = new->set, .base_view = base->view,
				  .new_view = new->view,
				  .progs = { &base->progs, &new->progs } };
}

void comparison_free(struct comparison *c)
{
	compare_programs_free(c);
	for (int i = 0; i < c->nr_pts; i++)
		free(c->pts[i].m);
	free(c->pts);
	for (int i = 0; i < c->nr_metrics; i++)
		free(c->metrics[i]);
	free(c->metrics);
	free(c->info);
	free(c->diffs);
	free(c->show);
	cmp_join_free(&c->join);
}

/*
 * An emulated CPU's numbers against a real one's would show a "regression"
 * of the emulation, not of the change: refused unless --allow-tcg.
 */
static int check_tcg(const struct comparison *c, const struct compare_rule *rule)
{
	bool base = run_is_tcg(c->base), new = run_is_tcg(c->new);

	if (base == new || rule->allow_tcg)
		return 0;
	diag_err("%s vs %s: %s ran in a VM under TCG emulation and %s did not: TCG numbers are "
		 "for function, not performance (--allow-tcg compares them anyway)",
		 c->base_dir, c->new_dir, base ? "BASE" : "NEW", base ? "NEW" : "BASE");
	return -EINVAL;
}

/*
 * A TCG icount set's rates are instructions per guest "second", not time:
 * beside a timed set's (a host's, KVM's, or plain TCG's) their ratio says
 * nothing of the change.  Two icount sets compare as any two.
 */
static int check_icount(const struct comparison *c, const struct compare_rule *rule)
{
	bool base = run_is_icount(c->base), new = run_is_icount(c->new);

	if (base == new || rule->allow_tcg)
		return 0;
	diag_err("%s vs %s: %s ran in a VM under TCG icount and %s did not: its rates are "
		 "instruction path length, not hardware time (--allow-tcg compares them anyway)",
		 c->base_dir, c->new_dir, base ? "BASE" : "NEW", base ? "NEW" : "BASE");
	return -EINVAL;
}

int comparison_build(struct comparison *c, const struct compare_rule *rule)
{
	return check_icount(c, rule) ?: check_tcg(c, rule) ?: build(c, rule) ?: check_common(c);
}
