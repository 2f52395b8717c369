// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c: the join of two summaries by parameter values, and the Welch
 * test and verdicts against values worked out independently of GSL (Python:
 * statistics for means and variances, mpmath's regularized incomplete beta
 * for p = I_{df/(df+t²)}(df/2, 1/2); the script is in the message of the commit
 * that added this file).
 */
#include <errno.h>
#include <math.h>

#include "check.h"
#include "compare.h"

static void test_of(const double *a, int na, const double *b, int nb, struct cmp_moments *ma,
		    struct cmp_moments *mb, struct cmp_test *t)
{
	cmp_moments_of(a, na, ma);
	cmp_moments_of(b, nb, mb);
	cmp_welch(ma, mb, t);
}

TEST(moments_of_five)
{
	const double x[] = { 10, 12, 11, 13, 9 };
	struct cmp_moments m;

	cmp_moments_of(x, 5, &m);
	CHECK_INT(m.n, 5);
	CHECK_NEAR(m.mean, 11, 1e-12);
	CHECK_NEAR(m.sd, sqrt(2.5), 1e-12);
}

/* [10 12 11 13 9] → [14 15 13 16 17 15]: t 4.38178046, df 8.196721311, p 0.002210474516 */
TEST(welch_significant)
{
	const double a[] = { 10, 12, 11, 13, 9 }, b[] = { 14, 15, 13, 16, 17, 15 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 5, b, 6, &ma, &mb, &t);
	CHECK(t.done);
	CHECK_NEAR(t.t, 4.38178046, 1e-8);
	CHECK_NEAR(t.df, 8.196721311, 1e-8);
	CHECK_NEAR(t.p, 0.002210474516, 1e-10);
	CHECK_NEAR(cmp_delta_pct(ma.mean, mb.mean), 36.36363636, 1e-7);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_IMPROVED);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_LOWER_BETTER), CMP_REGRESSED);
	/* the same numbers the other way round: slower */
	cmp_welch(&mb, &ma, &t);
	CHECK_NEAR(t.t, -4.38178046, 1e-8);
	CHECK_NEAR(t.p, 0.002210474516, 1e-10);
	CHECK_INT(cmp_verdict_of(&mb, &ma, &t, 0.05, CMP_HIGHER_BETTER), CMP_REGRESSED);
	/* at a level below p, no verdict of change */
	CHECK_INT(cmp_verdict_of(&mb, &ma, &t, 0.001, CMP_HIGHER_BETTER), CMP_SAME);
}

/*
 * [100 102 98 101 99] → [100.5 101.5 99.5 100 101]:
 * t 0.632455532, df 5.882352941, p 0.550864557
 */
TEST(welch_not_significant)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 100.5, 101.5, 99.5, 100, 101 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 5, b, 5, &ma, &mb, &t);
	CHECK_NEAR(t.t, 0.632455532, 1e-8);
	CHECK_NEAR(t.df, 5.882352941, 1e-8);
	CHECK_NEAR(t.p, 0.550864557, 1e-8);
	CHECK_NEAR(cmp_delta_pct(ma.mean, mb.mean), 0.5, 1e-12);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_SAME);
}

/*
 * One side constant: df is the other side's n - 1.
 * [5 5 5] → [5 6 7 8]: t 2.323790008, df 3, p 0.1027280789
 */
TEST(welch_one_side_zero_variance)
{
	const double a[] = { 5, 5, 5 }, b[] = { 5, 6, 7, 8 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 3, b, 4, &ma, &mb, &t);
	CHECK_NEAR(t.t, 2.323790008, 1e-8);
	CHECK_NEAR(t.df, 3, 1e-12);
	CHECK_NEAR(t.p, 0.1027280789, 1e-9);
}

TEST(welch_equal_means)
{
	const double a[] = { 1, 2, 3 }, b[] = { 3, 1, 2, 2 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 3, b, 4, &ma, &mb, &t);
	CHECK_NEAR(t.t, 0, 1e-12);
	CHECK_NEAR(t.p, 1, 1e-12);
	CHECK_NEAR(cmp_delta_pct(ma.mean, mb.mean), 0, 1e-12);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_SAME);
}

/* Both sides constant: the same constant is no change, another one is a sure change. */
TEST(welch_zero_variance_both)
{
	const double a[] = { 5, 5, 5 }, same[] = { 5, 5, 5 }, other[] = { 6, 6, 6, 6 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 3, same, 3, &ma, &mb, &t);
	CHECK(t.done);
	CHECK_NEAR(t.t, 0, 0);
	CHECK_NEAR(t.p, 1, 0);
	CHECK(isnan(t.df));
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_SAME);
	test_of(a, 3, other, 4, &ma, &mb, &t);
	CHECK(isinf(t.t) && t.t > 0);
	CHECK_NEAR(t.p, 0, 0);
	CHECK_NEAR(cmp_delta_pct(ma.mean, mb.mean), 20, 1e-12);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_IMPROVED);
	cmp_welch(&mb, &ma, &t);
	CHECK(isinf(t.t) && t.t < 0);
	CHECK_INT(cmp_verdict_of(&mb, &ma, &t, 0.05, CMP_HIGHER_BETTER), CMP_REGRESSED);
}

/* Fewer than three units on either side: no test, no verdict. */
TEST(welch_n_one)
{
	const double a[] = { 5 }, b[] = { 5, 6 }, c[] = { 5, 6, 7 }, d[] = { 50, 60, 70 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 1, b, 2, &ma, &mb, &t);
	CHECK(!t.done);
	CHECK(isnan(t.p));
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_UNTESTED);
	CHECK_STR(cmp_verdict_text(CMP_UNTESTED, CMP_HIGHER_BETTER), "no test (< 3 units)");
	test_of(b, 2, a, 1, &ma, &mb, &t);
	CHECK(!t.done);
	/* two units against three, however far apart: still no test */
	test_of(b, 2, d, 3, &ma, &mb, &t);
	CHECK(!t.done);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_UNTESTED);
	/* three a side: a test */
	test_of(c, 3, d, 3, &ma, &mb, &t);
	CHECK(t.done);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_HIGHER_BETTER), CMP_IMPROVED);
}

/* Imported numbers: mean and stddev known, n not: Δ% still, no test. */
TEST(welch_n_unknown)
{
	struct cmp_moments base = { 14.970e6, 0.012e6, -1 }, new = { 10.319e6, 0.016e6, -1 };
	struct cmp_moments measured = { 10.319e6, 0.016e6, 20 };
	struct cmp_test t;

	cmp_welch(&base, &new, &t);
	CHECK(!t.done);
	CHECK_INT(cmp_verdict_of(&base, &new, &t, 0.05, CMP_HIGHER_BETTER), CMP_NO_N);
	CHECK_STR(cmp_verdict_text(CMP_NO_N, CMP_HIGHER_BETTER), "no test (n unknown)");
	CHECK(fabs(cmp_delta_pct(base.mean, new.mean) - -31.0688) < 1e-3);
	cmp_welch(&base, &measured, &t);
	CHECK_INT(cmp_verdict_of(&base, &measured, &t, 0.05, CMP_HIGHER_BETTER), CMP_NO_N);
}

/*
 * A value one side did not record (a gauge unread, a counter with the BPF
 * statistics off): n/a, never a 0 compared (GSL would abort on NaN).
 */
TEST(welch_value_unknown)
{
	struct cmp_moments base = { NAN, NAN, 3 }, new = { 2000, 1000, 3 };
	struct cmp_test t;

	cmp_welch(&base, &new, &t);
	CHECK(!t.done);
	CHECK(isnan(t.p));
	CHECK_INT(cmp_verdict_of(&base, &new, &t, 0.05, CMP_LOWER_BETTER), CMP_UNKNOWN);
	CHECK_STR(cmp_verdict_text(CMP_UNKNOWN, CMP_LOWER_BETTER), "n/a (not recorded)");
	/* n/a before "n unknown": an imported row without the value */
	base.n = -1;
	CHECK_INT(cmp_verdict_of(&base, &new, &t, 0.05, CMP_HIGHER_BETTER), CMP_UNKNOWN);
	cmp_welch(&new, &base, &t);
	CHECK(!t.done);
}

TEST(delta_pct)
{
	CHECK_NEAR(cmp_delta_pct(1000000, 1100000), 10, 1e-12);
	CHECK_NEAR(cmp_delta_pct(200, 150), -25, 1e-12);
	CHECK(isnan(cmp_delta_pct(0, 1)));
	CHECK(isnan(cmp_delta_pct(0, 0)));
}

/* The verdict follows the direction: a rise is faster, worse, or changed (prog_ns). */
TEST(direction_and_words)
{
	const double a[] = { 10, 12, 11, 13, 9 }, b[] = { 14, 15, 13, 16, 17, 15 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	test_of(a, 5, b, 6, &ma, &mb, &t);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_NEITHER_BETTER), CMP_CHANGED);
	CHECK_INT(cmp_verdict_of(&ma, &mb, &t, 0.05, CMP_BETTER_UNKNOWN), CMP_CHANGED);
	CHECK_INT(cmp_verdict_of(&mb, &ma, &t, 0.05, CMP_LOWER_BETTER), CMP_IMPROVED);
	CHECK_STR(cmp_verdict_text(CMP_IMPROVED, CMP_HIGHER_BETTER), "faster");
	CHECK_STR(cmp_verdict_text(CMP_REGRESSED, CMP_HIGHER_BETTER), "slower");
	CHECK_STR(cmp_verdict_text(CMP_IMPROVED, CMP_LOWER_BETTER), "better");
	CHECK_STR(cmp_verdict_text(CMP_REGRESSED, CMP_LOWER_BETTER), "worse");
	CHECK_STR(cmp_verdict_text(CMP_SAME, CMP_LOWER_BETTER), "same");
	CHECK_STR(cmp_verdict_text(CMP_UNDECIDED, CMP_LOWER_BETTER), "undecided");
	CHECK_STR(cmp_verdict_text(CMP_CHANGED, CMP_NEITHER_BETTER), "changed");
	CHECK_STR(cmp_verdict_text(CMP_CHANGED, CMP_BETTER_UNKNOWN),
		  "changed (direction unknown)");
	CHECK_STR(cmp_verdict_text(CMP_INCONCLUSIVE, CMP_HIGHER_BETTER), "inconclusive");
}

/* No significant change is "same" only where the interval is within the bound. */
TEST(no_change_settles_by_the_interval)
{
	struct decide_result same = { .word = DECIDE_SAME }, open = { .word = DECIDE_UNDECIDED };
	struct decide_result diff = { .word = DECIDE_DIFFERENT };

	CHECK_INT(cmp_settle(CMP_SAME, &same), CMP_SAME);
	CHECK_INT(cmp_settle(CMP_SAME, &open), CMP_UNDECIDED);
	CHECK_INT(cmp_settle(CMP_IMPROVED, &diff), CMP_IMPROVED);
	CHECK_INT(cmp_settle(CMP_UNTESTED, &open), CMP_UNTESTED);
}

/* Flags that break the test's assumptions veto a change; noise alone does not. */
TEST(only_assumption_flags_veto)
{
	CHECK(!cmp_vetoing_flags(""));
	CHECK(!cmp_vetoing_flags("cv=37%"));
	CHECK(!cmp_vetoing_flags("interference=54%"));
	CHECK(!cmp_vetoing_flags("cv=12%;interference=26%;steal=3%"));
	CHECK(cmp_vetoing_flags("bimodal"));
	CHECK(cmp_vetoing_flags("cv=37%;bimodal"));
	CHECK(cmp_vetoing_flags("trend=-12%"));
	CHECK(cmp_vetoing_flags("starved=1/2"));
	/* a cell this build cannot read is not trusted */
	CHECK(cmp_vetoing_flags("gremlins"));
}

/* A flagged point's change is inconclusive; what is no change, or no test, stays so. */
TEST(noise_vetoes_changes_only)
{
	CHECK_INT(cmp_veto(CMP_IMPROVED, true), CMP_INCONCLUSIVE);
	CHECK_INT(cmp_veto(CMP_REGRESSED, true), CMP_INCONCLUSIVE);
	CHECK_INT(cmp_veto(CMP_CHANGED, true), CMP_INCONCLUSIVE);
	CHECK_INT(cmp_veto(CMP_SAME, true), CMP_SAME);
	CHECK_INT(cmp_veto(CMP_UNKNOWN, true), CMP_UNKNOWN);
	CHECK_INT(cmp_veto(CMP_UNTESTED, true), CMP_UNTESTED);
	CHECK_INT(cmp_veto(CMP_NO_N, true), CMP_NO_N);
	CHECK_INT(cmp_veto(CMP_REGRESSED, false), CMP_REGRESSED);
	CHECK_INT(cmp_veto(CMP_IMPROVED, false), CMP_IMPROVED);
}

/* Join two summaries given as CSV text; returns cmp_join's result. */
static int join(const char *base, const char *new, const char *const *ignore, int nr_ignore,
		struct cmp_join *j, char *why, size_t len)
{
	struct csv_table b, n;
	int err;

	if (csv_read_string(base, &b) || csv_read_string(new, &n))
		return -EBADMSG;
	err = cmp_join(&b, &n, ignore, nr_ignore, j, why, len);
	csv_table_free(&b);
	csv_table_free(&n);
	return err;
}

#define MATCH(j, i, b, n) do {							\
	CHECK_INT((j)->m[i].base_row, b);					\
	CHECK_INT((j)->m[i].new_row, n);					\
} while (0)

/*
 * NEW's spec has another axis (batch, one value) and other producer counts,
 * in another order: the common points match by value, the rest are listed.
 */
TEST(join_across_specs)
{
	const char *base = "point,experiment,producers,overwrite,status,reason\n"
			   "0,A,1,off,ok,\n1,A,2,off,ok,\n2,A,4,off,unsupported,no\n";
	const char *new = "point,experiment,producers,batch,overwrite,status,reason\n"
			  "0,A,2,8,off,ok,\n1,A,1,8,off,ok,\n2,A,8,8,off,ok,\n";
	struct cmp_join j;
	char why[256];

	CHECK_INT(join(base, new, NULL, 0, &j, why, sizeof(why)), 0);
	CHECK(j.by_title);
	CHECK_INT(j.nr_params, 2);
	CHECK_STR(j.params[0], "producers");
	CHECK_STR(j.params[1], "overwrite");
	CHECK_INT(j.nr, 4);
	MATCH(&j, 0, 1, 2);
	MATCH(&j, 1, 2, 1);
	MATCH(&j, 2, 3, -1);	/* producers=4: base only */
	MATCH(&j, 3, -1, 3);	/* producers=8: new only */
	cmp_join_free(&j);
}

TEST(join_refuses_varying_one_side_param)
{
	const char *base = "point,experiment,producers,status\n0,A,1,ok\n";
	const char *new = "point,experiment,producers,batch,status\n0,A,1,8,ok\n1,A,1,16,ok\n";
	struct cmp_join j;
	char why[256];

	CHECK_INT(join(base, new, NULL, 0, &j, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "parameter 'batch' is only in NEW and varies there (8, 16): its points "
		  "cannot be matched");
}

/* Titles are part of the key when both sets have the same ones. */
TEST(join_by_title)
{
	const char *base = "point,experiment,producers,status\n0,A,1,ok\n1,C,1,ok\n";
	const char *new = "point,experiment,producers,status\n0,C,1,ok\n1,A,1,ok\n";
	struct cmp_join j;
	char why[256];

	CHECK_INT(join(base, new, NULL, 0, &j, why, sizeof(why)), 0);
	CHECK(j.by_title);
	MATCH(&j, 0, 1, 2);
	MATCH(&j, 1, 2, 1);
	cmp_join_free(&j);
}

/* Other titles: matched by parameters alone, and refused where that is ambiguous. */
TEST(join_titles_differ)
{
	const char *base = "point,experiment,producers,status\n0,A,1,ok\n1,A,2,ok\n";
	const char *new = "point,experiment,producers,status\n0,B,2,ok\n";
	const char *twice = "point,experiment,producers,status\n0,A,1,ok\n1,C,1,ok\n";
	struct cmp_join j;
	char why[256];

	CHECK_INT(join(base, new, NULL, 0, &j, why, sizeof(why)), 0);
	CHECK(!j.by_title);
	MATCH(&j, 0, 1, -1);
	MATCH(&j, 1, 2, 1);
	cmp_join_free(&j);
	CHECK_INT(join(twice, new, NULL, 0, &j, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "BASE: summary.csv lines 2 and 3 hold the same values"));
}

/* --ignore: a parameter that differs on purpose (the null workload's rate) leaves the key. */
TEST(join_ignore)
{
	const char *base = "point,experiment,rate,producers,status\n0,A,1000,0,ok\n";
	const char *new = "point,experiment,rate,producers,status\n0,A,1100,0,ok\n";
	const char *const ignore[] = { "rate" };
	struct cmp_join j;
	char why[256];

	CHECK_INT(join(base, new, NULL, 0, &j, why, sizeof(why)), 0);
	CHECK_INT(j.nr, 2);
	MATCH(&j, 0, 1, -1);
	MATCH(&j, 1, -1, 1);
	cmp_join_free(&j);
	CHECK_INT(join(base, new, ignore, 1, &j, why, sizeof(why)), 0);
	CHECK_INT(j.nr_params, 1);
	CHECK_STR(j.params[0], "producers");
	CHECK_INT(j.nr, 1);
	MATCH(&j, 0, 1, 1);
	cmp_join_free(&j);
}

TEST(join_needs_status_column)
{
	struct cmp_join j;
	char why[256];

	CHECK_INT(join("point,experiment,x\n0,A,1\n", "point,experiment,x,status\n0,A,1,ok\n",
		       NULL, 0, &j, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "BASE: summary.csv lacks the experiment or status column");
}

/*
 * Ratios 2 and 8: geometric mean 4; the log ratios ln 2 and 3 ln 2 have sd
 * sqrt(2) ln 2, so the 95% interval is 4 * 2^(-/+ t(0.975, 1)), t = 12.7062...
 */
TEST(paired_ratio_geometric_mean_and_interval)
{
	const double base[] = { 1e6, 0.5e6 }, new[] = { 2e6, 4e6 };
	struct cmp_ratio r;

	CHECK_INT(cmp_paired_ratio(base, new, 2, 0.05, 2, &r), 0);
	CHECK_INT(r.n, 2);
	CHECK_NEAR(r.ratio, 4, 1e-12);
	CHECK_NEAR(r.min, 2, 1e-12);
	CHECK_NEAR(r.max, 8, 1e-12);
	CHECK_NEAR(r.lo / 0.0005985648842619938, 1, 1e-9);
	CHECK_NEAR(r.hi / 26730.60251392353, 1, 1e-9);
	CHECK_INT(r.decision.word, DECIDE_NO_TEST);	/* two rounds: too few to decide */
}

/* The same ratio every round: no spread, the interval is the ratio. */
TEST(paired_ratio_constant)
{
	const double base[] = { 1e6, 2e6, 4e6 }, new[] = { 1.1e6, 2.2e6, 4.4e6 };
	struct cmp_ratio r;

	CHECK_INT(cmp_paired_ratio(base, new, 3, 0.05, 2, &r), 0);
	CHECK_INT(r.n, 3);
	CHECK_NEAR(r.ratio, 1.1, 1e-12);
	CHECK_NEAR(r.lo, 1.1, 1e-12);
	CHECK_NEAR(r.hi, 1.1, 1e-12);
	/* three rounds: a decision, as a run's rounds get one */
	CHECK_INT(r.decision.word, DECIDE_DIFFERENT);
	CHECK_NEAR(r.decision.est_pct, 10, 1e-9);
}

/* A round with a mean of 0 or unknown has no ratio; one round, no interval; none, no ratio. */
TEST(paired_ratio_rounds_left_out)
{
	const double base[] = { 0, 1, NAN, 5 }, new[] = { 1, 2, 3, 0 };
	struct cmp_ratio r;

	CHECK_INT(cmp_paired_ratio(base, new, 4, 0.05, 2, &r), 0);
	CHECK_INT(r.n, 1);
	CHECK_NEAR(r.ratio, 2, 1e-12);
	CHECK(isnan(r.lo) && isnan(r.hi));
	CHECK_INT(cmp_paired_ratio(base, new, 1, 0.05, 2, &r), 0);
	CHECK_INT(r.n, 0);
	CHECK(isnan(r.ratio) && isnan(r.min));
}

RUN_TESTS(moments_of_five, welch_significant, welch_not_significant,
	  welch_one_side_zero_variance, welch_equal_means, welch_zero_variance_both, welch_n_one,
	  welch_n_unknown, welch_value_unknown,
	  delta_pct, direction_and_words, no_change_settles_by_the_interval,
	  only_assumption_flags_veto, noise_vetoes_changes_only,
	  join_across_specs, join_refuses_varying_one_side_param,
	  join_by_title, join_titles_differ, join_ignore, join_needs_status_column,
	  paired_ratio_geometric_mean_and_interval, paired_ratio_constant,
	  paired_ratio_rounds_left_out)
