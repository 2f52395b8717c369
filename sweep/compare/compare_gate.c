// SPDX-License-Identifier: GPL-2.0
/*
 * --fail-above (compare_gate.h): what a CI gate counts, each named on
 * stderr.  A point passes only where its interval rules out a regression
 * beyond PCT; one the test could not run, or whose interval still holds
 * such a regression, is not passed in silence.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_build.h"
#include "compare_gate.h"
#include "diag.h"
#include "exitcode.h"

/* A point ok in BASE that failed or was cut short in NEW: a CI gate must not pass it. */
static bool broke(const struct comparison *c, const struct point_cmp *p)
{
	enum point_status was, now;

	if (p->state != PS_NOT_COMPARED)
		return false;
	was = compare_row(c->base_view, p->base_row)->status;
	now = compare_row(c->new_view, p->new_row)->status;
	return was == PS_OK && (now == PS_FAILED || now == PS_INTERRUPTED);
}

/* Is m's change a regression beyond pct, by the test alone? */
static bool beyond(const struct metric_cmp *m, double pct)
{
	return m->tested == CMP_REGRESSED && fabs(m->delta_pct) > pct;
}

/*
 * The worst change m's interval holds, in percent: its lower end for a
 * metric where higher is better, its upper end for lower-is-better, its
 * far end where no direction is known.  NaN with no interval.
 */
static double worst_pct(const struct metric_cmp *m)
{
	const struct decide_result *d = &m->decision;

	if (m->info->dir == CMP_HIGHER_BETTER)
		return -d->lo_pct;
	if (m->info->dir == CMP_LOWER_BETTER)
		return d->hi_pct;
	return d->far_pct;
}

/*
 * "new_dir: experiment: label" of a point, for each line the gate says;
 * the point named once where its label is the title ("null: null: hits"
 * read as two points).
 */
static void where(const struct comparison *c, const struct point_cmp *p, char *buf, size_t len)
{
	char name[600];

	compare_point_name(p, name, sizeof(name));
	snprintf(buf, len, "%s: %s", c->new_dir, name);
}

static void count_vetoed(const struct point_cmp *p, const char *at, double pct,
			 struct gate_tally *t)
{
	const struct metric_cmp *m = p->m;

	t->inconclusive++;
	diag_warn("inconclusive: %s: %s %+.2f%% (p=%.3g), flagged: %s%s%s%s", at, m->metric,
		  m->delta_pct, m->test.p, p->flags[0], *p->flags[0] && *p->flags[1] ? "; " : "",
		  p->flags[1],
		  beyond(m, pct) ? " (the test alone: a regression beyond the limit)" : "");
}

/* A headline the gate could not pass: untested, or an interval holding a regression. */
static void count_unsure(const struct point_cmp *p, const char *at, double pct,
			 struct gate_tally *t)
{
	const struct metric_cmp *m = p->m;
	char said[160];

	if (m->verdict == CMP_UNTESTED || m->verdict == CMP_NO_N) {
		t->untested++;
		diag_warn("untested: %s: %s %+.2f%%: %s", at, m->metric, m->delta_pct,
			  cmp_verdict_text(m->verdict, m->info->dir));
		return;
	}
	if (m->verdict == CMP_UNKNOWN || !(worst_pct(m) > pct))
		return;
	t->undecided++;
	compare_verdict_text(p, m, said, sizeof(said));
	diag_warn("undecided: %s: %s: a regression beyond %g%% is not ruled out (%s)", at,
		  m->metric, pct, said);
}

void compare_gate(const struct comparison *c, double pct, struct gate_tally *t)
{
	char at[PATH_MAX + 640];

	for (int i = 0; i < c->nr_pts; i++) {
		const struct point_cmp *p = &c->pts[i];
		const struct metric_cmp *m = p->m;

		where(c, p, at, sizeof(at));
		if (broke(c, p)) {
			diag_err("regression: %s: %s", at, p->reason);
			t->regressions++;
		} else if (p->state != PS_COMPARED) {
			continue;
		} else if (m->verdict == CMP_INCONCLUSIVE) {
			count_vetoed(p, at, pct, t);
		} else if (beyond(m, pct)) {
			diag_err("regression beyond %g%%: %s: %s %+.2f%% (p=%.3g)", pct, at,
				 m->metric, m->delta_pct, m->test.p);
			t->regressions++;
		} else {
			count_unsure(p, at, pct, t);
		}
	}
}

void compare_advise_units(const struct comparison *cs, int nr)
{
	int untested = 0;

	for (int i = 0; i < nr; i++)
		for (int k = 0; k < cs[i].nr_pts; k++)
			untested += cs[i].pts[k].state == PS_COMPARED &&
				    cs[i].pts[k].m[0].verdict == CMP_UNTESTED;
	if (untested)
		diag_warn("%d point%s had fewer than %d units a side, so no test: give repeat = %d "
			  "or more (or precision = 2%%) in the runs' [sweep]", untested,
			  untested == 1 ? "" : "s", CMP_MIN_UNITS, CMP_MIN_UNITS);
}

int compare_gate_all(const struct comparison *cs, int nr, double pct)
{
	struct gate_tally t = { 0 };
	int unsure;

	for (int i = 0; i < nr; i++)
		compare_gate(&cs[i], pct, &t);
	unsure = t.untested + t.undecided + t.inconclusive;
	diag_warn("--fail-above %g%%: %d regression%s; %d point%s not passed (%d untested, "
		  "%d undecided, %d inconclusive)", pct, t.regressions,
		  t.regressions == 1 ? "" : "s", unsure, unsure == 1 ? "" : "s", t.untested,
		  t.undecided, t.inconclusive);
	if (t.regressions)
		return EXIT_POINTS_FAILED;
	return unsure ? EXIT_UNDECIDED : EXIT_OK;
}
