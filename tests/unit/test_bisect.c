// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c and bisectstep.c on a fake executor: kernel k's units are drawn
 * (seeded GSL normal noise) around a level that steps at kernel s, each
 * step classified by the real rule (decide.h's Welch words, rounds within
 * the budget).  It must find the step within log2(n) + k steps, say
 * undecided (never a guess) when the steps are pure noise, never report a
 * step on an A/A series, and step around kernels that do not boot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bisect.h"
#include "bisect_kernels.h"
#include "bisectstep.h"
#include "check.h"

#define MAX_FAKE	64

struct fake {
	int n;			/* kernels */
	int step_at;		/* the first kernel at the new level; n: none (A/A) */
	double effect;		/* the new level / the old - 1 */
	double sd;		/* a unit's noise, relative to its level */
	double step_sd;		/* the interior kernels' noise instead, when above 0 */
	bool unbootable[MAX_FAKE];
	int units;		/* a round's */
	gsl_rng *rng;
	struct bisect_rule rule;
	struct bisect_point pt;
	int boots;		/* rounds run, the ends' too */
};

/* One round of kernel k: units drawn around its level. */
static void draw(struct fake *f, int k, struct bisect_obs *o)
{
	double level = k >= f->step_at ? 100 * (1 + f->effect) : 100, x[64], sum = 0, ss = 0;
	double sd = f->step_sd > 0 && k > 0 && k < f->n - 1 ? f->step_sd : f->sd;

	f->boots++;
	for (int i = 0; i < f->units; i++) {
		x[i] = level * (1 + gsl_ran_gaussian(f->rng, sd));
		sum += x[i];
	}
	*o = (struct bisect_obs){ .status = "ok", .mean = sum / f->units, .n = f->units };
	for (int i = 0; i < f->units; i++)
		ss += (x[i] - o->mean) * (x[i] - o->mean);
	o->sd = sqrt(ss / (f->units - 1));
}

static int fake_ends(void *arg, char *why, size_t len)
{
	struct fake *f = arg;

	struct bisect_obs round;

	snprintf(f->pt.name, sizeof(f->pt.name), "fake");
	f->pt.good = f->pt.bad = (struct bisect_obs){ .status = "ok" };
	/* every step is judged against the ends: they run the whole budget */
	for (int r = 0; r < f->rule.max_rounds; r++) {
		draw(f, 0, &round);
		bisect_obs_pool(&f->pt.good, &round);
		draw(f, f->n - 1, &round);
		bisect_obs_pool(&f->pt.bad, &round);
	}
	bisect_point_ends(&f->rule, &f->pt);
	if (f->pt.by != BB_NONE)
		return 0;
	snprintf(why, len, "the ends do not differ");
	return -ENODATA;
}

static int fake_step(void *arg, int k, struct bisect_step *st)
{
	struct fake *f = arg;
	struct bisect_obs pooled = { .status = "ok" }, round;

	if (f->unbootable[k]) {
		st->verdict = BV_SKIP;
		snprintf(st->why, sizeof(st->why), "did not boot");
		return 0;
	}
	for (int r = 1;; r++) {
		draw(f, k, &round);
		bisect_obs_pool(&pooled, &round);
		if (!bisect_classify(&f->rule, &f->pt, &pooled, 1, r, st))
			return 0;
	}
}

static const struct bisect_ops fake_ops = { .ends = fake_ends, .step = fake_step };

static void fake_init(struct fake *f, int n, int step_at, double effect, double sd,
		      unsigned long seed)
{
	*f = (struct fake){ .n = n, .step_at = step_at, .effect = effect, .sd = sd, .units = 5,
			    .rule = { .alpha = 0.05, .bound_pct = 2, .max_rounds = 3 } };
	f->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(f->rng, seed);
}

static int skipped(const struct bisect *b)
{
	int k = 0;

	for (int i = 0; i < b->nr_steps; i++)
		k += b->steps[i].verdict == BV_SKIP || b->steps[i].verdict == BV_UNDECIDED;
	return k;
}

TEST(next_is_the_middle)
{
	struct bisect b;

	CHECK_INT(bisect_init(&b, 9), 0);
	CHECK_INT(bisect_next(&b), 4);
	b.state[4] = BV_SKIP;
	CHECK_INT(bisect_next(&b), 5);
	b.state[5] = BV_UNDECIDED;
	CHECK_INT(bisect_next(&b), 3);
	b.last_good = 7;
	CHECK_INT(bisect_next(&b), -1);
	bisect_free(&b);
	CHECK_INT(bisect_steps_needed(2), 0);
	CHECK_INT(bisect_steps_needed(3), 1);
	CHECK_INT(bisect_steps_needed(17), 4);
	CHECK_INT(bisect_steps_needed(18), 5);
	CHECK_INT(bisect_init(&b, 1), -EINVAL);
}

TEST(pooled_units_are_the_units_together)
{
	struct bisect_obs a = { .status = "ok", .mean = 2, .sd = 1, .n = 3 };	/* 1 2 3 */
	struct bisect_obs b = { .status = "ok", .mean = 5, .sd = 0, .n = 2 };	/* 5 5 */

	bisect_obs_pool(&a, &b);
	/* 1 2 3 5 5: mean 3.2, sd sqrt(12.8 / 4) */
	CHECK_INT(a.n, 5);
	CHECK_NEAR(a.mean, 3.2, 1e-12);
	CHECK_NEAR(a.sd, sqrt(12.8 / 4), 1e-12);
}

/* A -10 % step at every place of 40 kernels, 2 % noise a unit: found, within log2(n) + 2 steps. */
TEST(finds_the_step_within_log2_n)
{
	int n = 40, worst = 0;

	for (int s = 1; s < n; s++) {
		struct fake f;
		struct bisect b;

		fake_init(&f, n, s, -0.10, 0.02, 1000 + s);
		CHECK_INT(bisect_init(&b, n), 0);
		bisect_run(&b, &fake_ops, &f);
		gsl_rng_free(f.rng);
		if (b.outcome != BO_FOUND || b.first_bad != s || b.last_good != s - 1) {
			for (int i = 0; i < b.nr_steps; i++)
				printf("# kernel %d: %s: %s\n", b.steps[i].kernel,
				       bisect_verdict_name(b.steps[i].verdict), b.steps[i].why);

			CHECK_FAIL_("step at %d: outcome %d, first bad %d", s, b.outcome,
				    b.first_bad);
		}
		if (b.nr_steps - skipped(&b) > bisect_steps_needed(n) ||
		    b.nr_steps > bisect_steps_needed(n) + 2)
			CHECK_FAIL_("step at %d: %d steps (%d not decided)", s, b.nr_steps, skipped(&b));
		worst = b.nr_steps > worst ? b.nr_steps : worst;
		bisect_free(&b);
	}
	CHECK(worst >= bisect_steps_needed(n) - 1);
}

/* Ends that differ but steps of pure noise (sd 30 %): undecided, never a kernel named. */
TEST(pure_noise_is_undecided)
{
	for (int seed = 0; seed < 50; seed++) {
		struct fake f;
		struct bisect b;

		fake_init(&f, 20, 10, -0.10, 0.01, 2000 + seed);
		f.step_sd = 0.30;
		CHECK_INT(bisect_init(&b, 20), 0);
		bisect_run(&b, &fake_ops, &f);
		gsl_rng_free(f.rng);
		CHECK_INT(b.outcome, BO_UNDECIDED);
		CHECK(b.nr_steps == 18 && skipped(&b) == 18);
		/* every step ran the whole budget: 3 rounds each, and said why it stopped */
		CHECK(f.boots == 2 * 3 + 18 * 3);
		CHECK(strstr(b.steps[0].why, "budget is spent"));
		bisect_free(&b);
	}
}

/* Noise so large the ends cannot be told apart: no step, nothing run between them. */
TEST(noise_at_the_ends_is_no_step)
{
	for (int seed = 0; seed < 50; seed++) {
		struct fake f;
		struct bisect b;

		fake_init(&f, 20, 10, -0.10, 0.50, 3000 + seed);
		CHECK_INT(bisect_init(&b, 20), 0);
		bisect_run(&b, &fake_ops, &f);
		gsl_rng_free(f.rng);
		CHECK(b.outcome != BO_FOUND);
		bisect_free(&b);
	}
}

/* An A/A series (no step at all): never a step reported, over 500 series. */
TEST(aa_never_reports_a_step)
{
	for (int seed = 0; seed < 500; seed++) {
		struct fake f;
		struct bisect b;

		fake_init(&f, 30, 30, 0, 0.03, 4000 + seed);
		CHECK_INT(bisect_init(&b, 30), 0);
		bisect_run(&b, &fake_ops, &f);
		gsl_rng_free(f.rng);
		CHECK_INT(b.outcome, BO_NO_STEP);
		CHECK_INT(b.nr_steps, 0);
		CHECK_STR(b.ends_why, "the ends do not differ");
		bisect_free(&b);
	}
}

/* Kernels that do not boot are stepped around; the bracket closes on those that did. */
TEST(skips_unbootable_kernels)
{
	struct fake f;
	struct bisect b;

	fake_init(&f, 33, 11, -0.10, 0.03, 5000);
	/* the first three middles do not boot */
	f.unbootable[16] = f.unbootable[17] = f.unbootable[15] = true;
	CHECK_INT(bisect_init(&b, 33), 0);
	bisect_run(&b, &fake_ops, &f);
	CHECK_INT(b.outcome, BO_FOUND);
	CHECK_INT(b.first_bad, 11);
	CHECK_INT(b.steps[0].kernel, 16);
	CHECK_INT(b.steps[0].verdict, BV_SKIP);
	CHECK_STR(b.steps[0].why, "did not boot");
	CHECK_INT(b.steps[1].kernel, 17);
	CHECK_INT(b.steps[2].kernel, 15);
	CHECK(b.nr_steps <= bisect_steps_needed(33) + 3);
	bisect_free(&b);
	gsl_rng_free(f.rng);

	/* the first bad kernel itself does not boot: undecided between its neighbours */
	fake_init(&f, 33, 11, -0.10, 0.03, 5001);
	f.unbootable[11] = true;
	CHECK_INT(bisect_init(&b, 33), 0);
	bisect_run(&b, &fake_ops, &f);
	CHECK_INT(b.outcome, BO_UNDECIDED);
	CHECK_INT(b.last_good, 10);
	CHECK_INT(b.first_bad, 12);
	CHECK_INT(b.state[11], BV_SKIP);
	bisect_free(&b);
	gsl_rng_free(f.rng);
}

/* By status: unsupported on the good end, ok on the bad; a third status is skipped. */
TEST(status_steps)
{
	struct bisect_rule rule = { .alpha = 0.05, .bound_pct = 2, .max_rounds = 3 };
	struct bisect_point p = { .name = "overwrite", .good = { .status = "unsupported" },
				  .bad = { .status = "ok", .mean = 5, .n = 1 } };
	struct bisect_obs ok = { .status = "ok", .mean = 7, .n = 1 }, uns = { .status = "unsupported" },
			  failed = { .status = "failed" };
	struct bisect_step st;

	bisect_point_ends(&rule, &p);
	CHECK_INT(p.by, BB_STATUS);
	CHECK(!bisect_classify(&rule, &p, &uns, 1, 1, &st));
	CHECK_INT(st.verdict, BV_GOOD);
	CHECK_STR(st.why, "overwrite: unsupported, as on the good end");
	CHECK(isnan(st.est_pct));
	CHECK(!bisect_classify(&rule, &p, &ok, 1, 1, &st));
	CHECK_INT(st.verdict, BV_BAD);
	CHECK(!bisect_classify(&rule, &p, &failed, 1, 1, &st));
	CHECK_INT(st.verdict, BV_SKIP);
	CHECK_STR(st.why, "overwrite: failed, neither end's (unsupported, ok)");
	/* failed on both ends: it judges nothing */
	strcpy(p.good.status, "failed");
	strcpy(p.bad.status, "failed");
	bisect_point_ends(&rule, &p);
	CHECK_INT(p.by, BB_NONE);
}

/* Two points: one like good, one like bad: the step is undecided, at once (no more rounds). */
TEST(points_that_disagree_are_undecided)
{
	struct bisect_rule rule = { .alpha = 0.05, .bound_pct = 2, .max_rounds = 3 };
	struct bisect_point p[2] = {
		{ .name = "a", .good = { .status = "unsupported" }, .bad = { .status = "ok" } },
		{ .name = "b", .good = { .status = "ok" }, .bad = { .status = "unsupported" } },
	};
	struct bisect_obs o[2] = { { .status = "unsupported" }, { .status = "unsupported" } };
	struct bisect_step st;

	bisect_point_ends(&rule, &p[0]);
	bisect_point_ends(&rule, &p[1]);
	CHECK(!bisect_classify(&rule, p, o, 2, 1, &st));
	CHECK_INT(st.verdict, BV_UNDECIDED);
	CHECK(strstr(st.why, "the points disagree: 1 like good (a: unsupported"));
}

/* vm-kernel.sh --list's lines: a version each, its release as the script picks it, the ends by version. */
TEST(debian_list_between_the_ends)
{
	static const char text[] =
		"6.1.170    6.1.0-47-cloud-amd64         bookworm\n"
		"6.12.117   6.12.117+deb13-cloud-amd64   trixie-security\n"
		"6.12.118   6.12.118+deb12-cloud-amd64   bookworm-backports\n"
		"6.12.118   6.12.118+deb13-amd64         trixie-security\n"
		"6.12.118   6.12.118+deb13-cloud-amd64   trixie-security      cached\n"
		"6.16.3     6.16.3+deb13-cloud-amd64     trixie-backports\n"
		"6.19.6     6.19.6+deb13-amd64           trixie-backports\n"
		"6.19.6     6.19.6+deb13-cloud-amd64     trixie-backports     incomplete\n"
		"7.0.4      7.0.4+deb13-cloud-amd64      trixie-backports     incomplete\n"
		"7.3.4      7.3.4+deb13-cloud-amd64      trixie-backports     cached\n";
	struct bisect_list l;
	char why[128] = "";

	CHECK_INT(bisect_list_parse(text, "6.12", "7.3", &l, why, sizeof(why)), 0);
	CHECK_INT(l.n, 5);
	CHECK_STR(l.k[0].label, "6.12.118");
	CHECK_STR(l.k[0].release, "6.12.118+deb13-cloud-amd64");
	CHECK_STR(l.k[1].label, "6.16.3");
	/* a release that can be fetched before the cloud one that cannot */
	CHECK_STR(l.k[2].release, "6.19.6+deb13-amd64");
	CHECK(!l.k[2].incomplete);
	CHECK(l.k[3].incomplete);
	CHECK_STR(l.k[4].release, "7.3.4+deb13-cloud-amd64");
	CHECK(!l.k[0].image[0]);
	bisect_list_free(&l);
	CHECK_INT(bisect_list_parse(text, "6.12.117", "6.12.118", &l, why, sizeof(why)), 0);
	CHECK_INT(l.n, 2);
	bisect_list_free(&l);
	CHECK_INT(bisect_list_parse(text, "6.13", "7.3", &l, why, sizeof(why)), -ENOENT);
	CHECK_STR(why, "Debian serves no kernel 6.13 (vm-kernel.sh --list)");
	CHECK_INT(bisect_list_parse(text, "7.3", "6.12", &l, why, sizeof(why)), -EINVAL);
}

/*
 * icount's precision: units within 0.01 %, a step 0.4 % off the bad end.
 * decide calls that "different" from the bad end, and it is like bad all
 * the same: it lies within half the ends' gap of it (seen under icount,
 * 6.18.15 against 7.3.4's csum_diff, before this was so).
 */
TEST(a_precise_step_near_an_end_is_like_it)
{
	struct bisect_rule rule = { .alpha = 0.05, .bound_pct = 2, .max_rounds = 1 };
	struct bisect_point p = { .name = "csum_diff",
				  .good = { .status = "ok", .mean = 1308687, .sd = 64, .n = 4 },
				  .bad = { .status = "ok", .mean = 3180847, .sd = 527, .n = 4 } };
	struct bisect_obs near_bad = { .status = "ok", .mean = 3193438, .sd = 116, .n = 4 };
	struct bisect_obs near_good = { .status = "ok", .mean = 1310000, .sd = 50, .n = 4 };
	struct bisect_obs between = { .status = "ok", .mean = 2244767, .sd = 100, .n = 4 };
	struct bisect_step st;

	bisect_point_ends(&rule, &p);
	CHECK_INT(p.by, BB_METRIC);
	CHECK(!bisect_classify(&rule, &p, &near_bad, 1, 1, &st));
	CHECK_INT(st.verdict, BV_BAD);
	CHECK(!bisect_classify(&rule, &p, &near_good, 1, 1, &st));
	CHECK_INT(st.verdict, BV_GOOD);
	/* halfway: neither, and the budget (one round) is spent */
	CHECK(!bisect_classify(&rule, &p, &between, 1, 1, &st));
	CHECK_INT(st.verdict, BV_UNDECIDED);
}

RUN_TESTS(debian_list_between_the_ends, a_precise_step_near_an_end_is_like_it, next_is_the_middle, pooled_units_are_the_units_together, finds_the_step_within_log2_n,
	  pure_noise_is_undecided, noise_at_the_ends_is_no_step, aa_never_reports_a_step,
	  skips_unbootable_kernels, status_steps, points_that_disagree_are_undecided)
