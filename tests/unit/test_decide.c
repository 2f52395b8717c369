// SPDX-License-Identifier: GPL-2.0
/*
 * decide.c: the three words and their error rates.  Simulated interleaved
 * rounds of two arms on a drifting machine: the machine's level is
 * an AR(1) series over the arms' slots (rho 0.65, sd 10 %, as a ringbuf
 * point drifts here between 9 and 18 M/s states) plus a slow linear drift,
 * each arm's unit adds its own noise (sd 3 %), and arm B is step percent
 * faster.  The sequential rule (5, 10, 20 rounds) must call A/A different
 * at most about alpha of the time, and never call a 5 % step "same" within
 * ±2 % more often than alpha; peeking at every round with the whole alpha,
 * as a naive loop would, must not hold: that is why the looks are split.
 * Rounds order their arms at random, not ABBA: under AR(1) drift an ABBA
 * round's ratio correlates with the next one's (a covariance of
 * rho (1 - rho)^2 times the level's variance, both differences spanning
 * the same stretch of drift), which narrows the interval: with the
 * drifting machine below ABBA called A/A different 6.1 % of the time,
 * random order 3.8 %, its rounds' ratios uncorrelated.
 * The RNG is seeded: every run draws the same series.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "compare.h"
#include "decide.h"

#define SIMS		2000
#define ALPHA		0.05
/* three standard errors of a share near alpha over SIMS draws */
#define SIM_SLACK	(3 * sqrt(ALPHA * (1 - ALPHA) / SIMS))

struct machine {
	double rho;		/* the level's lag-1 correlation from slot to slot */
	double level_sd;	/* the level's marginal sd (log scale) */
	double trend;		/* drift per slot (log scale) */
	double unit_sd;		/* each unit's own noise (log scale) */
};

static const struct machine drifting = { .rho = 0.65, .level_sd = 0.10, .trend = 0.002,
					 .unit_sd = 0.03 };
/* no drift, no correlation: each round's log ratio is exactly normal */
static const struct machine quiet = { .unit_sd = 0.01 };

/* How a round orders its arms. */
enum order { ABBA, SHUFFLED };

/* Round k's log(B / A), the machine's level moving every slot. */
static void rounds(gsl_rng *g, const struct machine *m, enum order order, double step_pct,
		   int n, double *lr)
{
	double level = gsl_ran_gaussian(g, m->level_sd), innov = m->level_sd *
		sqrt(1 - m->rho * m->rho), v[2];

	for (int k = 0, slot = 0; k < n; k++) {
		/* ABBA: even rounds A then B, odd rounds B then A */
		int first = order == ABBA ? k % 2 : (int)gsl_rng_uniform_int(g, 2);

		for (int i = 0; i < 2; i++, slot++) {
			int arm = first ^ i;

			v[arm] = level + m->trend * slot + gsl_ran_gaussian(g, m->unit_sd) +
				 (arm ? log1p(step_pct / 100) : 0);
			level = m->rho * level + gsl_ran_gaussian(g, innov);
		}
		lr[k] = v[1] - v[0];
	}
}

struct tally {
	double share[4];	/* of each word, over SIMS */
	double mean_rounds;	/* where the rule stopped, on average */
};

/* The sequential rule over rounds; every_round: look at each round with the whole alpha. */
static void stop_at(const struct decide_rule *rule, const double *lr, bool every_round,
		    struct decide_result *d)
{
	struct decide_rule whole = { .alpha = rule->alpha, .bound_pct = rule->bound_pct };

	for (int n = DECIDE_MIN_UNITS; n <= rule->max_rounds; n++) {
		bool last = n == rule->max_rounds;

		if (every_round)
			decide_paired(&whole, lr, n, true, d);
		else if (decide_is_look(rule, n))
			decide_paired(rule, lr, n, last, d);
		else
			continue;
		if (d->word != DECIDE_UNDECIDED || last)
			return;
	}
}

static int simulate(const struct machine *m, enum order order, double step_pct,
		    bool every_round, struct tally *t)
{
	struct decide_rule rule = { .alpha = ALPHA, .bound_pct = 2, .min_rounds = 5,
				    .max_rounds = 20 };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	double lr[20];

	if (!g)
		return -1;
	gsl_rng_set(g, 20261205);
	*t = (struct tally){ 0 };
	for (int s = 0; s < SIMS; s++) {
		struct decide_result d;

		rounds(g, m, order, step_pct, rule.max_rounds, lr);
		stop_at(&rule, lr, every_round, &d);
		t->share[d.word] += 1.0 / SIMS;
		t->mean_rounds += (double)d.n / SIMS;
	}
	gsl_rng_free(g);
	printf("# step %4.1f%% %-8s %-8s %-10s different %.3f same %.3f undecided %.3f, "
	       "%.1f rounds\n", step_pct, m == &quiet ? "quiet" : "drifting",
	       order == ABBA ? "ABBA" : "shuffled", every_round ? "each round" : "5,10,20", t->share[DECIDE_DIFFERENT],
	       t->share[DECIDE_SAME], t->share[DECIDE_UNDECIDED], t->mean_rounds);
	return 0;
}

TEST(looks_double_to_the_budget)
{
	struct decide_rule r = { .alpha = 0.05, .min_rounds = 5, .max_rounds = 20 };
	char looks[64];
	double spent = 0;

	CHECK(decide_is_look(&r, 5) && decide_is_look(&r, 10) && decide_is_look(&r, 20));
	CHECK(!decide_is_look(&r, 4) && !decide_is_look(&r, 6) && !decide_is_look(&r, 19));
	for (int n = 1; n <= 20; n++)
		if (decide_is_look(&r, n))
			spent += decide_look_alpha(&r, n, n == 20);
	CHECK_NEAR(spent, 0.05, 1e-12);
	/* 5, 10, 20: shares by round count, the last look the largest */
	CHECK_NEAR(decide_look_alpha(&r, 5, false), 0.05 * 5 / 35, 1e-12);
	CHECK_NEAR(decide_look_alpha(&r, 20, true), 0.05 * 20 / 35, 1e-12);
	/* a budget that ends at 7 spends what 5 left: all but 5's share */
	CHECK_NEAR(decide_look_alpha(&r, 7, true), 0.05 * 30 / 35, 1e-12);
	r.max_rounds = 12;	/* 5, 10, 12 */
	CHECK(decide_is_look(&r, 12) && !decide_is_look(&r, 20));
	decide_looks(&r, looks, sizeof(looks));
	CHECK_STR(looks, "5, 10, 12");
	r.max_rounds = 0;	/* one fixed look */
	CHECK_NEAR(decide_look_alpha(&r, 7, false), 0.05, 0);
}

/* The lag-1 correlation of neighbouring rounds' log ratios, pooled over SIMS series. */
static double lag1(enum order order)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	double lr[20], sxy = 0, sxx = 0;

	gsl_rng_set(g, 1);
	for (int s = 0; s < SIMS; s++) {
		rounds(g, &drifting, order, 0, 20, lr);
		for (int k = 0; k < 20; k++) {
			sxx += lr[k] * lr[k];
			sxy += k ? lr[k] * lr[k - 1] : 0;
		}
	}
	gsl_rng_free(g);
	return sxy / sxx;
}

/* rho (1 - rho)^2 / (2 (1 - rho) + 2 (unit_sd / level_sd)^2) = 0.089 for ABBA */
TEST(shuffled_rounds_are_uncorrelated)
{
	double abba = lag1(ABBA), shuffled = lag1(SHUFFLED);

	printf("# lag-1 correlation of rounds' ratios: ABBA %.3f, shuffled %.3f\n", abba,
	       shuffled);
	CHECK(abba > 0.06);
	CHECK(fabs(shuffled) < 0.02);
}

TEST(aa_called_different_at_most_alpha)
{
	struct tally t;

	CHECK(!simulate(&drifting, SHUFFLED, 0, false, &t));
	CHECK(t.share[DECIDE_DIFFERENT] <= ALPHA + SIM_SLACK);
	CHECK(!simulate(&quiet, SHUFFLED, 0, false, &t));
	CHECK(t.share[DECIDE_DIFFERENT] <= ALPHA + SIM_SLACK);
	/* on a quiet machine the same thing is mostly found the same within ±2 % */
	CHECK(t.share[DECIDE_SAME] > 0.5);
}

TEST(peeking_with_the_whole_alpha_does_not_hold)
{
	struct tally t;

	CHECK(!simulate(&quiet, SHUFFLED, 0, true, &t));
	CHECK(t.share[DECIDE_DIFFERENT] > ALPHA + SIM_SLACK);
}

TEST(five_percent_never_called_same)
{
	struct tally t;

	CHECK(!simulate(&drifting, SHUFFLED, 5, false, &t));
	CHECK(t.share[DECIDE_SAME] <= ALPHA);
	CHECK(!simulate(&quiet, SHUFFLED, 5, false, &t));
	CHECK(t.share[DECIDE_SAME] <= ALPHA);
	CHECK(t.share[DECIDE_DIFFERENT] > 0.8);
	CHECK(!simulate(&quiet, SHUFFLED, 2, false, &t));
	CHECK(t.share[DECIDE_SAME] <= ALPHA);
}

TEST(ten_percent_found_early)
{
	struct tally t;

	CHECK(!simulate(&drifting, SHUFFLED, 10, false, &t));
	CHECK(t.share[DECIDE_DIFFERENT] > 0.9);
	CHECK(!simulate(&quiet, SHUFFLED, 10, false, &t));
	CHECK(t.share[DECIDE_DIFFERENT] > 0.99);
	CHECK(t.mean_rounds < 6);
}

TEST(words_as_quoted)
{
	struct decide_rule r = { .alpha = 0.05, .bound_pct = 2, .min_rounds = 5,
				 .max_rounds = 20 };
	double up[5] = { log(1.31), log(1.30), log(1.32), log(1.31), log(1.305) };
	double flat[5] = { 0.001, -0.001, 0.002, -0.002, 0 };
	double wide[5] = { 0.10, -0.10, 0.05, -0.05, 0 };
	struct decide_result d;
	char buf[128];

	CHECK(!decide_paired(&r, up, 5, false, &d));
	CHECK_INT(d.word, DECIDE_DIFFERENT);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "different: +30.9 % [+29.2, +32.6]");
	CHECK(!decide_paired(&r, flat, 5, false, &d));
	CHECK_INT(d.word, DECIDE_SAME);
	CHECK(d.far_pct < 2 && d.far_pct > 0);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK(!strncmp(buf, "same: no change beyond \xc2\xb1", 25));
	CHECK(!decide_paired(&r, wide, 5, true, &d));
	CHECK_INT(d.word, DECIDE_UNDECIDED);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK(!strncmp(buf, "undecided after 5 rounds: changes up to \xc2\xb1", 42));
	/* 4 rounds is no look: refused unless the budget ended there */
	CHECK_INT(decide_paired(&r, wide, 4, false, &d), -EINVAL);
	CHECK(!decide_paired(&r, wide, 2, true, &d));
	CHECK_INT(d.word, DECIDE_NO_TEST);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "no test (< 3 rounds)");
}

TEST(exact_rounds_decide_at_once)
{
	struct decide_rule r = { .alpha = 0.05, .bound_pct = 2, .min_rounds = 5,
				 .max_rounds = 20, .exact_pct = 0.1 };
	/* 6.1 vs 7.3 under icount, csum_diff size=64: 2.5859 and 3.6337 M/s */
	double ab[2] = { log(3.6337 / 2.5859), log(3.6336 / 2.5860) };
	double aa[2] = { 0.0003, -0.0002 };
	struct decide_result d;
	char buf[160];

	CHECK(decide_is_look(&r, 2) && decide_is_look(&r, 3) && !decide_is_look(&r, 1));
	CHECK(!decide_paired(&r, ab, 2, false, &d));
	CHECK_INT(d.word, DECIDE_DIFFERENT);
	CHECK(d.exact && d.level == 1 && !d.final);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "different: +40.5 % [+40.4, +40.7] (exact: rounds agree within 0.1 %)");
	/* the same kernel twice: within the tolerance of no change, so the same */
	CHECK(!decide_paired(&r, aa, 2, false, &d));
	CHECK_INT(d.word, DECIDE_SAME);
	CHECK(d.lo_pct < 0 && d.hi_pct > 0 && d.far_pct < 0.2);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "same: no change beyond \xc2\xb1" "0.1 % (exact: rounds agree within 0.1 %)");
	/* the agreement's looks spend nothing: the schedule's shares are as without them */
	CHECK_NEAR(decide_look_alpha(&r, 5, false), 0.05 * 5 / 35, 1e-12);
	/* without the tolerance 2 rounds are no look */
	r.exact_pct = 0;
	CHECK_INT(decide_paired(&r, ab, 2, false, &d), -EINVAL);
}

TEST(exact_rounds_that_disagree_are_left_to_the_sequential_rule)
{
	struct decide_rule r = { .alpha = 0.05, .bound_pct = 2, .min_rounds = 5,
				 .max_rounds = 20, .exact_pct = 0.1 };
	/* the first round slowed (a guest not settled): 0.8 % off the rest */
	double lr[5] = { log(1.397), log(1.4083), log(1.4084), log(1.4083), log(1.4083) };
	struct decide_result d;
	char buf[160];

	/* at 2 and 3 rounds, looks of agreement only: no test yet */
	CHECK(!decide_paired(&r, lr, 2, false, &d));
	CHECK_INT(d.word, DECIDE_NO_TEST);
	CHECK(!decide_paired(&r, lr, 3, false, &d));
	CHECK_INT(d.word, DECIDE_NO_TEST);
	/* at 5, the schedule's first look: Student's t over the rounds, as without */
	CHECK(!decide_paired(&r, lr, 5, false, &d));
	CHECK(!d.exact && d.level < 1);
	CHECK_INT(d.word, DECIDE_DIFFERENT);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK(strstr(buf, "] (rounds vary beyond 0.1 %: sequential rule)") != NULL);
}

/*
 * Rounds of icount-like units (each unit off its path length by sd 0.02 %,
 * as measured) under the exact rule: the same kernel twice is never called
 * different and stops at 2 rounds; a 0.5 % change is different at 2.  And
 * why only TCG icount sweeps get the rule: units with 1 % noise seldom
 * agree within 0.1 %, so they mostly fall back to the sequential rule, but
 * when two rounds agree by chance they are decided on that chance: A/A is
 * then called different 6.2 % of the time here, against 2.5 % without it.
 */
static void exact_sim(double unit_sd, double step_pct, struct tally *t)
{
	struct decide_rule r = { .alpha = ALPHA, .bound_pct = 2, .min_rounds = 5,
				 .max_rounds = 20, .exact_pct = 0.1 };
	struct machine m = { .unit_sd = unit_sd };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	double lr[20];

	gsl_rng_set(g, 36);
	*t = (struct tally){ 0 };
	for (int s = 0; s < SIMS; s++) {
		struct decide_result d;

		rounds(g, &m, SHUFFLED, step_pct, r.max_rounds, lr);
		for (int n = DECIDE_EXACT_ROUNDS; n <= r.max_rounds; n++) {
			if (!decide_is_look(&r, n))
				continue;
			decide_paired(&r, lr, n, n == r.max_rounds, &d);
			if (d.word == DECIDE_DIFFERENT || d.word == DECIDE_SAME)
				break;
		}
		t->share[d.word] += 1.0 / SIMS;
		t->mean_rounds += (double)d.n / SIMS;
	}
	gsl_rng_free(g);
	printf("# exact rule, unit sd %.2f%%, step %.1f%%: different %.3f same %.3f "
	       "undecided %.3f, %.2f rounds\n", unit_sd * 100, step_pct,
	       t->share[DECIDE_DIFFERENT], t->share[DECIDE_SAME], t->share[DECIDE_UNDECIDED],
	       t->mean_rounds);
}

TEST(exact_rule_on_simulated_rounds)
{
	struct tally t;

	exact_sim(0.0002, 0, &t);
	CHECK_NEAR(t.share[DECIDE_DIFFERENT], 0, 0);
	CHECK(t.share[DECIDE_SAME] > 0.99 && t.mean_rounds < 2.1);
	exact_sim(0.0002, 0.5, &t);
	CHECK(t.share[DECIDE_DIFFERENT] > 0.99 && t.mean_rounds < 2.1);
	exact_sim(0.01, 0, &t);
	CHECK(t.mean_rounds > 10 && t.share[DECIDE_DIFFERENT] > 0.025);
}

/* Welch's interval excludes 0 exactly when compare's p is below alpha. */
TEST(welch_interval_agrees_with_the_test)
{
	struct decide_rule r = { .alpha = 0.05, .bound_pct = 2 };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	CHECK(g);
	gsl_rng_set(g, 7);
	for (int i = 0; i < 500; i++) {
		struct cmp_moments b = { .mean = 100 + gsl_ran_gaussian(g, 3),
					 .sd = 1 + gsl_rng_uniform(g) * 4, .n = 3 + i % 5 };
		struct cmp_moments n = { .mean = 100 + gsl_ran_gaussian(g, 3),
					 .sd = 1 + gsl_rng_uniform(g) * 4, .n = 3 + i % 7 };
		struct decide_result d;
		struct cmp_test t;

		cmp_welch(&b, &n, &t);
		decide_welch(&r, b.mean, b.sd, b.n, n.mean, n.sd, n.n, &d);
		if ((t.p < 0.05) != (d.word == DECIDE_DIFFERENT)) {
			gsl_rng_free(g);
			CHECK_FAIL_("draw %d: p %g but %s", i, t.p, decision_name(d.word));
		}
	}
	gsl_rng_free(g);
}

TEST(welch_needs_three_units)
{
	struct decide_rule r = { .alpha = 0.05, .bound_pct = 2 };
	struct decide_result d;

	decide_welch(&r, 100, 1, 2, 110, 1, 5, &d);
	CHECK_INT(d.word, DECIDE_NO_TEST);
	CHECK_NEAR(d.est_pct, 10, 1e-9);
	/* identical constants: the same, with nothing beyond 0 */
	decide_welch(&r, 100, 0, 3, 100, 0, 3, &d);
	CHECK_INT(d.word, DECIDE_SAME);
	CHECK_NEAR(d.far_pct, 0, 0);
}

/* A deterministic metric: any change is different at once, no interval around it. */
TEST(exact_values_decided_at_once)
{
	struct decide_result d;
	char buf[128];

	decide_deterministic(73, 112, 1, &d);
	CHECK_INT(d.word, DECIDE_DIFFERENT);
	CHECK(d.deterministic);
	CHECK_NEAR(d.est_pct, 53.4247, 1e-3);
	CHECK_NEAR(d.lo_pct, d.hi_pct, 0);
	decide_text(&d, "worse", buf, sizeof(buf));
	CHECK_STR(buf, "worse: +53.4 % (exact)");
	decide_deterministic(73, 73, 3, &d);
	CHECK_INT(d.word, DECIDE_SAME);
	decide_text(&d, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "same: identical");
	/* one instruction in a million is a change too */
	decide_deterministic(1000000, 1000001, 3, &d);
	CHECK_INT(d.word, DECIDE_DIFFERENT);
	decide_deterministic(0, 0, 3, &d);
	CHECK_INT(d.word, DECIDE_SAME);
	decide_deterministic(0, 4, 3, &d);
	CHECK_INT(d.word, DECIDE_NO_TEST);
	decide_deterministic(NAN, 4, 3, &d);
	CHECK_INT(d.word, DECIDE_NO_TEST);
}

RUN_TESTS(exact_values_decided_at_once, looks_double_to_the_budget, shuffled_rounds_are_uncorrelated,
	  aa_called_different_at_most_alpha,
	  peeking_with_the_whole_alpha_does_not_hold, five_percent_never_called_same,
	  ten_percent_found_early, words_as_quoted, exact_rounds_decide_at_once,
	  exact_rounds_that_disagree_are_left_to_the_sequential_rule,
	  exact_rule_on_simulated_rounds, welch_interval_agrees_with_the_test,
	  welch_needs_three_units)
