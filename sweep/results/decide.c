// SPDX-License-Identifier: GPL-2.0
/*
 * The decision on a difference (decide.h).  Why a Bonferroni split over a
 * few looks and not a confidence sequence valid at every round: the
 * rounds' budget (max_rounds) is known before the first, so a fixed
 * schedule of looks costs little (at 5, 10, 20 rounds the last look's
 * interval uses t at 1 - 0.0143 / 2, 2.65 with 19 degrees of freedom,
 * against 2.09 for one fixed look at 20), its error rate holds exactly
 * under the t model of each look, and it needs no variance known in
 * advance, which the normal-mixture sequences do.
 * tests/unit/test_decide.c measures both error rates by simulation.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "decide.h"

/* The schedule's next look after n rounds: doubling, capped at the last. */
static int next_look(const struct decide_rule *rule, int n)
{
	int next = 2 * n;

	return next > rule->max_rounds ? rule->max_rounds : next;
}

static int first_look(const struct decide_rule *rule)
{
	int first = rule->min_rounds < DECIDE_MIN_UNITS ? DECIDE_MIN_UNITS : rule->min_rounds;

	return first > rule->max_rounds ? rule->max_rounds : first;
}

/* Is n rounds a look of the sequential schedule (decide_is_look() without the exact ones)? */
static bool on_schedule(const struct decide_rule *rule, int n)
{
	int look = first_look(rule);

	if (!rule->max_rounds)
		return true;
	while (look < n && look < rule->max_rounds)
		look = next_look(rule, look);
	return look == n;
}

bool decide_is_look(const struct decide_rule *rule, int n)
{
	return on_schedule(rule, n) || (rule->exact_pct > 0 && n >= DECIDE_EXACT_ROUNDS);
}

void decide_looks(const struct decide_rule *rule, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int look = first_look(rule); n < len; look = next_look(rule, look)) {
		n += snprintf(buf + n, len - n, "%s%d", n ? ", " : "", look);
		if (look >= rule->max_rounds)
			break;
	}
}

/* The sum of the looks' round counts, and of those before n. */
static void look_sums(const struct decide_rule *rule, int n, double *all, double *before)
{
	int look = first_look(rule);

	*all = *before = 0;
	for (;;) {
		*all += look;
		if (look < n)
			*before += look;
		if (look >= rule->max_rounds)
			break;
		look = next_look(rule, look);
	}
}

double decide_look_alpha(const struct decide_rule *rule, int n, bool last)
{
	double all, before;

	if (!rule->max_rounds)
		return rule->alpha;
	look_sums(rule, n, &all, &before);
	if (last)
		return rule->alpha * (1 - before / all);
	return rule->alpha * n / all;
}

/* The three words of an interval [lo, hi] in percent. */
static void decide_word(const struct decide_rule *rule, struct decide_result *d)
{
	d->far_pct = fmax(fabs(d->lo_pct), fabs(d->hi_pct));
	if (d->lo_pct > 0 || d->hi_pct < 0)
		d->word = DECIDE_DIFFERENT;
	else if (rule->bound_pct > 0 && d->far_pct <= rule->bound_pct)
		d->word = DECIDE_SAME;
	else
		d->word = DECIDE_UNDECIDED;
}

void decide_no_test(struct decide_result *d, int n, double est_pct)
{
	*d = (struct decide_result){ .word = DECIDE_NO_TEST, .n = n, .est_pct = est_pct,
				     .lo_pct = NAN, .hi_pct = NAN, .level = NAN,
				     .far_pct = NAN };
}

void decide_deterministic(double base, double new, int n, struct decide_result *d)
{
	double est = base ? (new / base - 1) * 100 : new ? NAN : 0;

	if (isnan(base) || isnan(new) || isnan(est)) {
		decide_no_test(d, n, est);
		return;
	}
	*d = (struct decide_result){ .word = new == base ? DECIDE_SAME : DECIDE_DIFFERENT,
				     .n = n, .est_pct = est, .lo_pct = est, .hi_pct = est,
				     .level = 1, .far_pct = fabs(est), .final = true,
				     .deterministic = true };
}

bool decide_log_ratio(double x, double base, double *lr)
{
	if (!(x > 0) || !(base > 0) || isinf(x) || isinf(base))
		return false;
	*lr = log(x / base);
	return true;
}

void decide_t_interval(const double *x, int n, double alpha, double *mean, double *half)
{
	*mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	*half = NAN;
	if (n > 1)
		*half = gsl_cdf_tdist_Qinv(alpha / 2, n - 1) * gsl_stats_sd_m(x, 1, n, *mean) /
			sqrt(n);
}

/*
 * Deterministic units (rule->exact_pct): do the n rounds' log ratios lie
 * within exact_pct of each other?  Then no chance is left to bound, only
 * the tolerance: each unit is its path length to within it, so the ratio
 * lies in [lowest - tol, highest + tol], which d says, exactly.
 */
static bool decide_exact(const struct decide_rule *rule, const double *lr, int n,
			 struct decide_result *d)
{
	double lo, hi, tol = log1p(rule->exact_pct / 100);

	if (!(rule->exact_pct > 0) || n < DECIDE_EXACT_ROUNDS)
		return false;
	gsl_stats_minmax(&lo, &hi, lr, 1, n);
	if (!(hi - lo <= tol))
		return false;
	d->exact = true;
	d->level = 1;
	d->lo_pct = expm1(lo - tol) * 100;
	d->hi_pct = expm1(hi + tol) * 100;
	decide_word(rule, d);
	return true;
}

int decide_paired(const struct decide_rule *rule, const double *lr, int n, bool last,
		  struct decide_result *d)
{
	bool scheduled = last || on_schedule(rule, n);
	double alpha, mean, half;

	if (!scheduled && !decide_is_look(rule, n))
		return -EINVAL;
	decide_no_test(d, n, n ? expm1(gsl_stats_mean(lr, 1, n)) * 100 : NAN);
	d->paired = true;
	d->final = last;
	d->exact_pct = rule->exact_pct;
	if (decide_exact(rule, lr, n, d))
		return 0;
	/* a look for agreement only: the sequential rule spends nothing here */
	if (n < DECIDE_MIN_UNITS || !scheduled)
		return 0;
	alpha = decide_look_alpha(rule, n, last);
	/* past the schedule's last look: nothing is left to spend */
	if (!(alpha > 0))
		return -EINVAL;
	decide_t_interval(lr, n, alpha, &mean, &half);
	d->level = 1 - alpha;
	d->lo_pct = expm1(mean - half) * 100;
	d->hi_pct = expm1(mean + half) * 100;
	decide_word(rule, d);
	return 0;
}

void decide_welch_se(double base_sd, long base_n, double new_sd, long new_n, double *se,
		     double *df)
{
	double vb = base_sd * base_sd / base_n, vn = new_sd * new_sd / new_n;

	*se = sqrt(vb + vn);
	*df = (vb + vn) * (vb + vn) / (vb * vb / (base_n - 1) + vn * vn / (new_n - 1));
}

/*
 * Both variances 0 leave no distribution: the interval is the difference
 * itself, a point (identical constants are the same, different ones as
 * different as can be).
 */
void decide_welch(const struct decide_rule *rule, double base_mean, double base_sd, long base_n,
		  double new_mean, double new_sd, long new_n, struct decide_result *d)
{
	double se, df, half = 0, diff = new_mean - base_mean;

	decide_no_test(d, base_n < new_n ? base_n : new_n,
		base_mean ? diff / fabs(base_mean) * 100 : NAN);
	d->final = true;
	/* nothing at all on both sides (no drops in either): the same, exactly */
	if (!base_mean && !new_mean && !base_sd && !new_sd && d->n >= DECIDE_MIN_UNITS) {
		*d = (struct decide_result){ .word = DECIDE_SAME, .n = d->n, .final = true,
					     .level = 1 - rule->alpha };
		return;
	}
	if (base_n < DECIDE_MIN_UNITS || new_n < DECIDE_MIN_UNITS || !base_mean ||
	    isnan(diff) || isnan(base_sd) || isnan(new_sd))
		return;
	decide_welch_se(base_sd, base_n, new_sd, new_n, &se, &df);
	if (se > 0)
		half = gsl_cdf_tdist_Qinv(rule->alpha / 2, df) * se;
	d->level = 1 - rule->alpha;
	d->lo_pct = (diff - half) / fabs(base_mean) * 100;
	d->hi_pct = (diff + half) / fabs(base_mean) * 100;
	decide_word(rule, d);
}

const char *decision_name(enum decision w)
{
	static const char *const names[] = {
		[DECIDE_NO_TEST] = "no test", [DECIDE_DIFFERENT] = "different",
		[DECIDE_SAME] = "same", [DECIDE_UNDECIDED] = "undecided",
	};

	return names[w];
}

/* What decided d, when its rule had a tolerance for deterministic units; "" else. */
static void exact_note(const struct decide_result *d, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!(d->exact_pct > 0) || d->word == DECIDE_NO_TEST)
		return;
	if (d->exact)
		snprintf(buf, len, " (exact: rounds agree within %g %%)", d->exact_pct);
	else
		snprintf(buf, len, " (rounds vary beyond %g %%: sequential rule)", d->exact_pct);
}

static int decide_words(const struct decide_result *d, const char *word, char *buf, size_t len)
{
	char after[32] = "";

	if (!word)
		word = decision_name(d->word);
	if (d->paired && d->final && d->word == DECIDE_UNDECIDED)
		snprintf(after, sizeof(after), " after %d rounds", d->n);
	if (d->deterministic && d->word == DECIDE_DIFFERENT)
		return snprintf(buf, len, "%s: %+.1f %% (exact)", word, d->est_pct);
	if (d->deterministic && d->word == DECIDE_SAME)
		return snprintf(buf, len, "%s: identical", word);
	switch (d->word) {
	case DECIDE_NO_TEST:
		return snprintf(buf, len, "no test (< %d %s)", DECIDE_MIN_UNITS,
				d->paired ? "rounds" : "units");
	case DECIDE_DIFFERENT:
		return snprintf(buf, len, "%s: %+.1f %% [%+.1f, %+.1f]", word, d->est_pct,
				d->lo_pct, d->hi_pct);
	case DECIDE_SAME:
		return snprintf(buf, len, "%s: no change beyond \xc2\xb1%.1f %%", word, d->far_pct);
	default:
		return snprintf(buf, len, "%s%s: changes up to \xc2\xb1%.1f %% not ruled out", word,
				after, d->far_pct);
	}
}

int decide_text(const struct decide_result *d, const char *word, char *buf, size_t len)
{
	char note[96];
	int n = decide_words(d, word, buf, len);

	exact_note(d, note, sizeof(note));
	if (n < 0 || !note[0] || (size_t)n >= len)
		return n;
	return n + snprintf(buf + n, len - n, "%s", note);
}
