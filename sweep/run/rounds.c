// SPDX-License-Identifier: GPL-2.0
/*
 * Interleaved rounds (rounds.h).  Why shuffled and not ABBA: under drift
 * that correlates from one arm's slot to the next (AR(1)), an ABBA round's
 * ratio correlates with its neighbour's, which narrows the interval the
 * decision stands on; in tests/unit/test_decide.c's simulation ABBA's
 * neighbouring ratios correlate at 0.092 and shuffled ones at 0.000.
 * The order is drawn from GSL's mt19937 seeded with the baseline's point
 * id + 1, so a run's order can be drawn again; samples.csv's slot column
 * says where each arm ran.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "precision.h"
#include "repetition.h"
#include "rounds.h"

static bool runnable(const struct plan *plan, const struct point *pt)
{
	char why[8];

	return !plan_verdict(plan, pt->id, why, sizeof(why));
}

/* Do a and b differ in no parameter but param? */
static bool same_but(const struct sweep_cfg *cfg, const struct point *a, const struct point *b,
		     int param)
{
	if (a->exp != b->exp)
		return false;
	for (int p = 0; p < cfg->wl->nr_params; p++)
		if (p != param && a->wp.v[p] != b->wp.v[p])
			return false;
	return true;
}

/* The index in pts of pts[i]'s runnable baseline point, or -1. */
static int baseline_of(const struct sweep_cfg *cfg, const struct plan *plan,
		       const struct point *pts, int nr, int i)
{
	const struct baseline_ref *ref = &cfg->exps[pts[i].exp].baseline;

	if (!(cfg->decide_pct > 0) || !ref->on)
		return -1;
	for (int j = 0; j < nr; j++)
		if (pts[j].wp.v[ref->param] == ref->val &&
		    same_but(cfg, &pts[i], &pts[j], ref->param) && runnable(plan, &pts[j]))
			return j;
	return -1;
}

/* Place base's set from order[*k] on: every runnable point not placed yet that base pairs with. */
static void place_set(const struct sweep_cfg *cfg, const struct plan *plan,
		      const struct point *pts, int nr, int base, bool *placed, int *order, int *k,
		      struct arm_set *set)
{
	int param = cfg->exps[pts[base].exp].baseline.param;

	*set = (struct arm_set){ .first = *k, .base = -1 };
	for (int j = 0; j < nr; j++) {
		if (placed[j] || !runnable(plan, &pts[j]) ||
		    !same_but(cfg, &pts[base], &pts[j], param))
			continue;
		if (j == base)
			set->base = *k;
		placed[j] = true;
		order[(*k)++] = j;
	}
	set->nr = *k - set->first;
	if (set->nr < 2)
		set->base = -1;
}

void rounds_order(const struct sweep_cfg *cfg, const struct plan *plan, const struct point *pts,
		  int nr, int *order, struct arm_set *sets, int *nr_sets)
{
	bool *placed = calloc(nr ? nr : 1, sizeof(*placed));
	int k = 0, base;

	*nr_sets = 0;
	for (int i = 0; i < nr; i++) {
		if (placed && placed[i])
			continue;
		base = placed && runnable(plan, &pts[i]) ? baseline_of(cfg, plan, pts, nr, i) : -1;
		if (base < 0) {
			/* on its own: also every point when the flags could not be had */
			sets[(*nr_sets)++] = (struct arm_set){ .first = k, .nr = 1, .base = -1 };
			order[k++] = i;
			if (placed)
				placed[i] = true;
			continue;
		}
		place_set(cfg, plan, pts, nr, base, placed, order, &k, &sets[(*nr_sets)++]);
	}
	free(placed);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* round's repetition of arm a ran at place slot of its round. */
static void mark_slot(struct point_result *a, int from, int slot)
{
	for (int i = from; i < a->nr_iv; i++)
		a->iv[i].slot = slot;
}

/*
 * Arm a's log ratios to base over rounds 0..n-1 into lr; false when a
 * round has no ratio (a side measured nothing, or a value not known).
 */
static bool log_ratios(const struct point_result *a, const struct point_result *base, int n,
		       double *lr)
{
	for (int k = 0; k < n; k++)
		if (!decide_log_ratio(point_result_rep_mean(a, 0, k),
				      point_result_rep_mean(base, 0, k), &lr[k]))
			return false;
	return true;
}

/*
 * Every arm's decision after n rounds (a look, or the last): true when
 * each arm is different or the same.  An arm with a round of no ratio
 * cannot be decided by more rounds: it has no test, and is not waited for.
 */
static bool decide_arms(const struct sweep_cfg *cfg, const struct arm_set *set, int n, bool last,
			struct point_result *res, double *lr)
{
	const struct point_result *base = &res[set->base];
	struct decide_rule rule;
	bool all = true;

	precision_decide_rule(cfg, &rule);
	for (int i = set->first; i < set->first + set->nr; i++) {
		struct point_result *a = &res[i];

		if (i == set->base)
			continue;
		a->has_decision = true;
		if (!log_ratios(a, base, n, lr)) {
			decide_no_test(&a->decision, n, NAN);
			a->decision.paired = true;
			continue;
		}
		if (decide_paired(&rule, lr, n, last, &a->decision))
			return false;	/* past the last look: cannot be, the budget ends there */
		all &= a->decision.word == DECIDE_DIFFERENT || a->decision.word == DECIDE_SAME;
	}
	return all;
}

/* One round: each arm's repetition in shuffled order; the first error ends it. */
static int run_round(const struct sweep_cfg *cfg, const struct arm_set *set,
		     const struct rounds_io *io, gsl_rng *g, int *perm, int round,
		     struct point_result *res, int *err)
{
	struct rep_watch watch = progress_watch(io->prog, io->stop_requested);

	gsl_ran_shuffle(g, perm, set->nr, sizeof(*perm));
	for (int s = 0; s < set->nr; s++) {
		int i = set->first + perm[s], from = res[i].nr_iv, e;
		char name[256];

		if (io->stop_requested())
			return -EINTR;
		point_name(cfg, res[i].pt, name, sizeof(name));
		progress_begin(io->prog, name, round, precision_max_reps(cfg));
		e = rep_run(cfg, res[i].pt, round, &watch, &res[i]);
		mark_slot(&res[i], from, s);
		if (e) {
			err[i - set->first] = e;
			return e;
		}
	}
	return 0;
}

/* Would one more round pass max_time, at the pace of the n so far since start? */
static bool over_time(const struct sweep_cfg *cfg, int n, double start)
{
	return precision_past_time(cfg, n, (uint64_t)((now_s() - start) * 1e9));
}

static void set_stop(const struct arm_set *set, struct point_result *res, const char *why)
{
	for (int i = set->first; i < set->first + set->nr; i++)
		snprintf(res[i].stop, sizeof(res[i].stop), "%s", why);
}

/* The rounds until every arm is decided or the budget ends; the first error stops them. */
static int rounds_loop(const struct sweep_cfg *cfg, const struct arm_set *set,
		       const struct rounds_io *io, gsl_rng *g, int *perm, double *lr,
		       struct point_result *res, int *err)
{
	double start = now_s();
	struct decide_rule rule;
	int e = 0, n;

	precision_decide_rule(cfg, &rule);
	for (n = 1; !e; n++) {
		bool last;

		e = run_round(cfg, set, io, g, perm, n - 1, res, err);
		if (e)
			break;
		last = n >= rule.max_rounds || over_time(cfg, n, start);
		if ((decide_is_look(&rule, n) || last) && decide_arms(cfg, set, n, last, res, lr)) {
			set_stop(set, res, "decided");
			return 0;
		}
		if (last) {
			set_stop(set, res, "budget");
			return 0;
		}
	}
	/* cut short: what the complete rounds say, as the last look */
	if (n - 1 >= DECIDE_MIN_UNITS)
		decide_arms(cfg, set, n - 1, true, res, lr);
	set_stop(set, res, e == -EINTR ? "interrupted" : "failed");
	return e;
}

int rounds_run(const struct sweep_cfg *cfg, const struct arm_set *set,
	       const struct rounds_io *io, struct point_result *res, int *err)
{
	int *perm = calloc(set->nr, sizeof(*perm)), e;
	double *lr = calloc(precision_max_reps(cfg) + 1, sizeof(*lr));
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	memset(err, 0, set->nr * sizeof(*err));
	if (!perm || !lr || !g) {
		e = -ENOMEM;
		goto out;
	}
	gsl_rng_set(g, res[set->base].pt->id + 1);
	for (int s = 0; s < set->nr; s++)
		perm[s] = s;
	e = rounds_loop(cfg, set, io, g, perm, lr, res, err);
	/* asked to stop: every arm was */
	for (int i = 0; e == -EINTR && i < set->nr; i++)
		err[i] = -EINTR;
	e = 0;
out:
	if (g)
		gsl_rng_free(g);
	free(lr);
	free(perm);
	return e;
}
