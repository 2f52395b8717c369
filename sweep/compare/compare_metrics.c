// SPDX-License-Identifier: GPL-2.0
/*
 * What compare compares, beside the numbers: the metrics both sets have,
 * each with its kind, unit and direction as the sets' meta says
 * (metricmeta.h), ns_per_run where both have it, and each point's quality
 * flags, which veto a verdict of change (docs/compare.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_build.h"
#include "diag.h"
#include "metricmeta.h"
#include "quality.h"
#include "suggest.h"

void compare_note(struct comparison *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nr_notes >= (int)(sizeof(c->notes) / sizeof(c->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(c->notes[c->nr_notes++], sizeof(c->notes[0]), fmt, ap);
	va_end(ap);
}

static enum cmp_better better_of(enum metric_better b)
{
	switch (b) {
	case MB_HIGHER:
		return CMP_HIGHER_BETTER;
	case MB_LOWER:
		return CMP_LOWER_BETTER;
	case MB_NEITHER:
		return CMP_NEITHER_BETTER;
	default:
		return CMP_BETTER_UNKNOWN;
	}
}

/*
 * The unit a set's meta names, else the metric formatter's default for
 * its kind (metric_default_unit(): M/s, MiB), as a run's table shows it;
 * prog_ns of a set from before meta's metric lines counted time (ms/s);
 * ns_per_run is in ns.
 */
static const struct metric_unit *unit_of(const char *name, enum cmp_kind kind, const char *said)
{
	struct metric_def d = { .name = name, .kind = kind == CMP_LEVEL ? MK_GAUGE : MK_COUNTER,
				.unit = said };

	if (kind == CMP_PER_RUN)
		return metric_per_run_unit();
	if (kind == CMP_RATE && !strcmp(name, "prog_ns") && !metric_unit_find(said, d.kind))
		d.unit = "ms/s";
	return metric_default_unit(&d);
}

/*
 * Base's word on the metric, new's where base has no metric lines; two
 * sets that say different directions (an exec spec changed) leave it
 * unknown, with a note.
 */
void compare_describe_metric(struct comparison *c, const char *name, enum cmp_kind kind,
			     struct cmp_metric *cm)
{
	struct metric_info b, n;
	const struct metric_info *use;

	metricmeta_of(c->base, name, kind == CMP_LEVEL, &b);
	metricmeta_of(c->new, name, kind == CMP_LEVEL, &n);
	use = b.recorded || !n.recorded ? &b : &n;
	*cm = (struct cmp_metric){ .kind = kind, .dir = better_of(use->better),
				   .guessed = !use->recorded,
				   .deterministic = use->deterministic,
				   .unit = unit_of(name, kind, use->unit) };
	if (b.recorded && n.recorded && b.better != n.better) {
		compare_note(c, "%s: BASE says %s is better, NEW %s: no direction", name,
			     metric_better_name(b.better), metric_better_name(n.better));
		cm->dir = CMP_BETTER_UNKNOWN;
	}
}

static int add_metric(struct comparison *c, const char *name, enum cmp_kind kind)
{
	c->metrics[c->nr_metrics] = strdup(name);
	if (!c->metrics[c->nr_metrics])
		return -ENOMEM;
	compare_describe_metric(c, name, kind, &c->info[c->nr_metrics++]);
	return 0;
}

static bool is_gauge(const struct result_view *v, int m)
{
	return v->metrics[m].kind == MK_GAUGE;
}

/* Has v the metric name, of the same kind (a gauge or not)? */
static bool has_metric(const struct result_view *v, const char *name, bool gauge)
{
	int m = compare_view_metric(v, name);

	return m >= 0 && is_gauge(v, m) == gauge;
}

/* The metrics of `of` that `other` lacks, as "prog_runs prog_ns" into buf; their number. */
static int only_in(const struct result_view *of, const struct result_view *other, char *buf,
		   size_t len)
{
	size_t used = 0;
	int nr = 0;

	buf[0] = '\0';
	for (int m = 0; m < of->schema.nr_metrics && used < len; m++) {
		if (has_metric(other, of->metrics[m].name, is_gauge(of, m)))
			continue;
		used += snprintf(buf + used, len - used, "%s%s", nr++ ? " " : "",
				 of->metrics[m].name);
	}
	return nr;
}

bool compare_headlines_shared(const struct comparison *c, char *why, size_t len)
{
	const struct result_view *views[] = { c->base_view, c->new_view };
	const char *names[] = { "BASE", "NEW" };

	/* a view's first metric is its set's headline, the table's number */
	for (int i = 0; i < 2; i++) {
		const struct result_view *v = views[i];

		if (!v->schema.nr_metrics || has_metric(views[!i], v->metrics[0].name, is_gauge(v, 0)))
			continue;
		snprintf(why, len, "%s's headline metric '%s' is not in %s (a column renamed or "
			 "missing?): nothing to compare it with", names[i], v->metrics[0].name,
			 names[!i]);
		return false;
	}
	return true;
}

static void one_side_metrics(struct comparison *c)
{
	char list[300];

	if (only_in(c->base_view, c->new_view, list, sizeof(list)))
		compare_note(c, "metrics only in BASE, not compared: %s", list);
	if (only_in(c->new_view, c->base_view, list, sizeof(list)))
		compare_note(c, "metrics only in NEW, not compared: %s", list);
}

/* Directions from names are today's rules, not what the sets say: the note says so. */
static void guessed_note(struct comparison *c)
{
	for (int i = 0; i < c->nr_metrics; i++) {
		if (!c->info[i].guessed)
			continue;
		compare_note(c, "a set without metric lines in its meta (written before they "
			     "were): directions follow the metric names");
		return;
	}
}

int compare_common_metrics(struct comparison *c)
{
	const struct result_view *b = c->base_view;
	int err = 0;

	/* one more for ns_per_run */
	c->metrics = calloc(b->schema.nr_metrics + 2, sizeof(*c->metrics));
	c->info = calloc(b->schema.nr_metrics + 2, sizeof(*c->info));
	if (!c->metrics || !c->info)
		return -ENOMEM;
	for (int m = 0; !err && m < b->schema.nr_metrics; m++) {
		if (!has_metric(c->new_view, b->metrics[m].name, is_gauge(b, m)))
			continue;
		err = add_metric(c, b->metrics[m].name, is_gauge(b, m) ? CMP_LEVEL : CMP_RATE);
	}
	if (!err && result_stat_col(c->base, METRIC_NS_PER_RUN, "mean") >= 0 &&
	    result_stat_col(c->new, METRIC_NS_PER_RUN, "mean") >= 0)
		err = add_metric(c, METRIC_NS_PER_RUN, CMP_PER_RUN);
	one_side_metrics(c);
	guessed_note(c);
	return err;
}

/* The index of metric name (len bytes of it) in c, or -1. */
static int metric_index(const struct comparison *c, const char *name, size_t len)
{
	for (int i = 0; i < c->nr_metrics; i++)
		if (strlen(c->metrics[i]) == len && !strncmp(c->metrics[i], name, len))
			return i;
	return -1;
}

/* -e's name that c has not: said with the nearest and every name it has, as veristat does. */
static int unknown_metric(const struct comparison *c, const char *name, size_t len)
{
	char word[128], all[512], hint[160];
	struct suggest sg;
	size_t n = 0;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	suggest_init(&sg, word);
	all[0] = '\0';
	for (int i = 0; i < c->nr_metrics && n < sizeof(all); i++) {
		suggest_add(&sg, c->metrics[i]);
		n += snprintf(all + n, sizeof(all) - n, "%s%s", i ? " " : "", c->metrics[i]);
	}
	diag_err("%s vs %s: -e: no metric '%s' in both sets%s; they have: %s", c->base_dir,
		 c->new_dir, word, suggest_hint(hint, sizeof(hint), suggest_best(&sg)), all);
	return -EINVAL;
}

static bool picked_already(const struct comparison *c, int idx)
{
	for (int s = 0; s < c->nr_show; s++)
		if (c->show[s] == idx)
			return true;
	return false;
}

/* One -e list, "hits,drops", onto c->show. */
static int pick_list(struct comparison *c, const char *list)
{
	for (const char *at = list;; at++) {
		size_t len = strcspn(at, ",");
		int idx = metric_index(c, at, len);

		if (idx < 0)
			return unknown_metric(c, at, len);
		if (!picked_already(c, idx))
			c->show[c->nr_show++] = idx;
		at += len;
		if (!*at)
			return 0;
	}
}

int compare_pick_metrics(struct comparison *c, const char *const *pick, int nr_pick)
{
	int err = 0;

	c->show = calloc(c->nr_metrics + 1, sizeof(*c->show));
	if (!c->show)
		return -ENOMEM;
	c->picked = nr_pick > 0;
	for (int i = 0; !err && i < nr_pick; i++)
		err = pick_list(c, pick[i]);
	for (int i = 0; !nr_pick && i < c->nr_metrics; i++)
		c->show[c->nr_show++] = i;
	return err;
}

void compare_point_flags(const struct comparison *c, struct point_cmp *p)
{
	snprintf(p->flags[0], sizeof(p->flags[0]), "%s",
		 result_summary_cell(c->base, p->base_row, "quality"));
	snprintf(p->flags[1], sizeof(p->flags[1]), "%s",
		 result_summary_cell(c->new, p->new_row, "quality"));
}

bool compare_point_varied(const struct point_cmp *p)
{
	struct quality q;

	for (int i = 0; i < 2; i++)
		if (!quality_parse(p->flags[i], &q) && (q.flags & QF_VARIED))
			return true;
	return false;
}

bool compare_point_flagged(const struct point_cmp *p)
{
	return cmp_vetoing_flags(p->flags[0]) || cmp_vetoing_flags(p->flags[1]);
}

void compare_verdict_text(const struct point_cmp *p, const struct metric_cmp *m, char *buf,
			  size_t len)
{
	const char *v = cmp_verdict_text(m->verdict, m->info->dir);

	bool decided = m->verdict == CMP_IMPROVED || m->verdict == CMP_REGRESSED ||
		       m->verdict == CMP_CHANGED || m->verdict == CMP_SAME ||
		       m->verdict == CMP_UNDECIDED;

	/* a base of 0 has no percentage: the test's word alone */
	if (decided && m->decision.word != DECIDE_NO_TEST)
		decide_text(&m->decision, v, buf, len);
	else if (m->verdict != CMP_INCONCLUSIVE)
		snprintf(buf, len, "%s", v);
	else
		snprintf(buf, len, "%s (%s%s%s%s%s)", v, *p->flags[0] ? "base " : "", p->flags[0],
			 *p->flags[0] && *p->flags[1] ? ", " : "", *p->flags[1] ? "new " : "",
			 p->flags[1]);
}
