// SPDX-License-Identifier: GPL-2.0
/*
 * A bisect step's verdict (bisectstep.h).  Why "like good" is the step's
 * interval against the good end lying within half the ends' gap: the step
 * then lies nearer the good end than the bad one with the interval's
 * confidence (whether decide calls it "same" or, precise enough to see a
 * small change, "different"), and the two words
 * (like good, like bad) can never both be said of one interval, so a
 * verdict is never a coin toss; a step that sits between the ends (a
 * second change) or whose units are too few stays undecided.
 * The errors: a step's two tests share each look's alpha, and its rounds'
 * looks share alpha as decide.h's schedule does (a Bonferroni split, round
 * r's share r / (1 + ... + max_rounds), the last round what is left), so
 * one step's chance of a wrong word stays under alpha however many rounds
 * it takes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bisectstep.h"

void bisect_obs_pool(struct bisect_obs *a, const struct bisect_obs *b)
{
	long n = a->n + b->n;
	double mean, ss;

	if (!b->n)
		return;
	if (!a->n) {
		*a = *b;
		return;
	}
	mean = (a->mean * a->n + b->mean * b->n) / n;
	/* the sums of squares about each mean, then about the pooled one */
	ss = (a->n > 1 ? a->sd * a->sd * (a->n - 1) : 0) + (b->n > 1 ? b->sd * b->sd * (b->n - 1) : 0) +
	     a->n * (a->mean - mean) * (a->mean - mean) + b->n * (b->mean - mean) * (b->mean - mean);
	a->mean = mean;
	a->sd = sqrt(ss / (n - 1));
	a->n = n;
}

void bisect_point_ends(const struct bisect_rule *rule, struct bisect_point *p)
{
	struct decide_rule r = { .alpha = rule->alpha, .bound_pct = rule->bound_pct };
	bool good_ok = !strcmp(p->good.status, "ok"), bad_ok = !strcmp(p->bad.status, "ok");

	decide_no_test(&p->ends, 0, NAN);
	p->by = BB_NONE;
	/* a point missing on an end, or failed on both, says nothing */
	if (!p->good.status[0] || !p->bad.status[0])
		return;
	if (good_ok != bad_ok) {
		p->by = BB_STATUS;
		return;
	}
	if (!good_ok)
		return;
	decide_welch(&r, p->good.mean, p->good.sd, p->good.n, p->bad.mean, p->bad.sd, p->bad.n,
		     &p->ends);
	/* the whole interval beyond ±bound: an A/A pair's chance fluke does not get there */
	if (p->ends.word == DECIDE_DIFFERENT &&
	    fmin(fabs(p->ends.lo_pct), fabs(p->ends.hi_pct)) > rule->bound_pct)
		p->by = BB_METRIC;
}

bool bisect_points_judge(const struct bisect_point *pts, int nr, bool *by_status, bool *by_metric)
{
	*by_status = *by_metric = false;
	for (int i = 0; i < nr; i++) {
		*by_status |= pts[i].by == BB_STATUS;
		*by_metric |= pts[i].by == BB_METRIC;
	}
	return *by_status || *by_metric;
}

/* Round r's share of alpha: r over 1 + 2 + ... + max_rounds; the last round what is left. */
static double round_alpha(const struct bisect_rule *rule, int r, bool last)
{
	int max = rule->max_rounds > 0 ? rule->max_rounds : 1;
	double all = max * (max + 1) / 2.0, before = (r - 1) * r / 2.0;

	return last ? rule->alpha * (1 - before / all) : rule->alpha * r / all;
}

static enum bisect_verdict by_status(const struct bisect_rule *rule, const struct bisect_point *p,
				     const struct bisect_obs *o, char *why, size_t len)
{
	const char *st = o->status[0] ? o->status : "no row";

	if (!strcmp(st, p->good.status)) {
		snprintf(why, len, "%s: %s, as on the %s end", p->name, st, rule->good ?: "good");
		return BV_GOOD;
	}
	if (!strcmp(st, p->bad.status)) {
		snprintf(why, len, "%s: %s, as on the %s end", p->name, st, rule->bad ?: "bad");
		return BV_BAD;
	}
	snprintf(why, len, "%s: %s, neither end's (%s, %s)", p->name, st, p->good.status,
		 p->bad.status);
	return BV_SKIP;
}

/*
 * The step's point o against one end, within half the ends' gap of it:
 * true when the whole interval lies within, whether or not it holds 0 (a
 * precise run, icount's, tells a 0.4 % difference from none, and that
 * step is still the end's).
 */
static bool against(const struct bisect_obs *end, const struct bisect_obs *o, double gap,
		    double alpha, struct decide_result *d)
{
	struct decide_rule r = { .alpha = alpha, .bound_pct = gap / 2 / fabs(end->mean) * 100 };

	decide_welch(&r, end->mean, end->sd, end->n, o->mean, o->sd, o->n, d);
	return d->word != DECIDE_NO_TEST && d->far_pct <= r.bound_pct;
}

static enum bisect_verdict by_metric(const struct bisect_rule *rule, const struct bisect_point *p,
				     const struct bisect_obs *o, double alpha,
				     struct decide_result *g, char *why, size_t len)
{
	const char *good = rule->good ?: "good", *bad = rule->bad ?: "bad";
	double gap = fabs(p->bad.mean - p->good.mean);
	struct decide_result b;
	bool like_good, like_bad;
	char text[128];

	decide_no_test(g, 0, NAN);
	if (strcmp(o->status, "ok")) {
		snprintf(why, len, "%s: %s", p->name, o->status[0] ? o->status : "no row");
		return BV_SKIP;
	}
	/* two tests a look: each half its alpha */
	like_good = against(&p->good, o, gap, alpha / 2, g);
	like_bad = against(&p->bad, o, gap, alpha / 2, &b);
	if (like_good || like_bad) {
		const struct decide_result *d = like_good ? g : &b;

		snprintf(why, len, "%s: like %s (%+.1f %% [%+.1f, %+.1f] of it, within half the "
			 "ends' gap, \xc2\xb1%.1f %%; %ld units)", p->name, like_good ? good : bad,
			 d->est_pct, d->lo_pct, d->hi_pct, gap / 2 /
			 fabs((like_good ? p->good : p->bad).mean) * 100, o->n);
		return like_good ? BV_GOOD : BV_BAD;
	}
	decide_text(g, NULL, text, sizeof(text));
	snprintf(why, len, "%s: neither like %s nor like %s (against %s %s, %ld units)",
		 p->name, good, bad, good, text, o->n);
	return BV_UNDECIDED;
}

/* The step's figure: its first judging point's status, or its metric against the good end. */
static void set_figure(struct bisect_step *st, const struct decide_result *g, long units)
{
	if (st->figure[0])
		return;
	st->est_pct = g->est_pct;
	st->lo_pct = g->lo_pct;
	st->hi_pct = g->hi_pct;
	st->units = (int)units;
	if (isnan(g->lo_pct))
		snprintf(st->figure, sizeof(st->figure), "%+.1f %% (%ld units)", g->est_pct, units);
	else
		snprintf(st->figure, sizeof(st->figure), "%+.1f %% [%+.1f, %+.1f] (%ld units)",
			 g->est_pct, g->lo_pct, g->hi_pct, units);
}

bool bisect_classify(const struct bisect_rule *rule, const struct bisect_point *pts,
		     const struct bisect_obs *obs, int nr, int round, struct bisect_step *st)
{
	bool last = round >= rule->max_rounds;
	double alpha = round_alpha(rule, round, last);
	int count[BV_SKIP + 1] = { 0 };
	char why[BV_SKIP + 1][sizeof(st->why)] = { "" };

	st->rounds = round;
	st->est_pct = st->lo_pct = st->hi_pct = NAN;
	st->units = 0;
	st->figure[0] = '\0';
	for (int i = 0; i < nr; i++) {
		struct decide_result g;
		enum bisect_verdict v;
		char w[sizeof(st->why)];

		if (pts[i].by == BB_NONE)
			continue;
		if (pts[i].by == BB_STATUS) {
			v = by_status(rule, &pts[i], &obs[i], w, sizeof(w));
			if (!st->figure[0])
				snprintf(st->figure, sizeof(st->figure), "%s",
					 obs[i].status[0] ? obs[i].status : "no row");
		} else {
			v = by_metric(rule, &pts[i], &obs[i], alpha, &g, w, sizeof(w));
			if (!isnan(g.est_pct))
				set_figure(st, &g, obs[i].n);
		}
		if (!count[v]++)
			snprintf(why[v], sizeof(why[v]), "%s", w);
	}
	if (count[BV_SKIP])
		st->verdict = BV_SKIP;
	else if (count[BV_GOOD] && count[BV_BAD])
		st->verdict = BV_UNDECIDED;
	else if (count[BV_UNDECIDED])
		st->verdict = BV_UNDECIDED;
	else
		st->verdict = count[BV_BAD] ? BV_BAD : BV_GOOD;
	if (count[BV_GOOD] && count[BV_BAD] && !count[BV_SKIP])
		snprintf(st->why, sizeof(st->why), "the points disagree: %d like %s (%.180s), %d like %s",
			 count[BV_GOOD], rule->good ?: "good", why[BV_GOOD], count[BV_BAD],
			 rule->bad ?: "bad");
	else
		snprintf(st->why, sizeof(st->why), "%s%s", why[st->verdict],
			 st->verdict == BV_UNDECIDED && last ? ": the rounds' budget is spent" : "");
	/* another round helps a metric that could not yet tell, not points that disagree */
	return st->verdict == BV_UNDECIDED && !(count[BV_GOOD] && count[BV_BAD]) && !last;
}
