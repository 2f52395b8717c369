// SPDX-License-Identifier: GPL-2.0
/*
 * compare's arithmetic: the join of two summaries by parameter values, the
 * Welch t-test and the verdict (compare.h).  No files, no output: the
 * command is cmd_compare.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "compare.h"
#include "decide.h"
#include "pointkey.h"
#include "quality.h"

/* A summary's parameter columns: those between `experiment` and `status`. */
struct side {
	const struct csv_table *t;
	const char *const *ignore;	/* parameters left out of the key */
	int nr_ignore;
	const char *name;	/* "BASE" or "NEW", for messages */
	int exp_col, first_param, nr_params;
};

static int side_of(const struct csv_table *t, const char *name, struct side *s, char *why,
		   size_t whylen)
{
	int status_col = csv_column(t, "status");

	*s = (struct side){ .t = t, .name = name, .exp_col = csv_column(t, "experiment") };
	if (t->nr_rows < 1 || s->exp_col < 0 || status_col <= s->exp_col) {
		snprintf(why, whylen, "%s: summary.csv lacks the experiment or status column",
			 name);
		return -EINVAL;
	}
	s->first_param = s->exp_col + 1;
	s->nr_params = status_col - s->first_param;
	return 0;
}

static bool ignored(const struct side *s, const char *name)
{
	for (int i = 0; i < s->nr_ignore; i++)
		if (!strcmp(s->ignore[i], name))
			return true;
	return false;
}

/* The column of a parameter in the key, or -1. */
static int param_col(const struct side *s, const char *name)
{
	if (ignored(s, name))
		return -1;
	for (int c = s->first_param; c < s->first_param + s->nr_params; c++)
		if (!strcmp(s->t->rows[0][c], name))
			return c;
	return -1;
}

/* A parameter only s has must not vary in s: its points could match no other way. */
static int check_constant(const struct side *s, const struct side *other, char *why,
			  size_t whylen)
{
	for (int c = s->first_param; c < s->first_param + s->nr_params; c++) {
		if (ignored(s, s->t->rows[0][c]) || param_col(other, s->t->rows[0][c]) >= 0)
			continue;
		for (int r = 2; r < s->t->nr_rows; r++) {
			if (!strcmp(s->t->rows[r][c], s->t->rows[1][c]))
				continue;
			snprintf(why, whylen, "parameter '%s' is only in %s and varies there "
				 "(%s, %s): its points cannot be matched", s->t->rows[0][c],
				 s->name, s->t->rows[1][c], s->t->rows[r][c]);
			return -EINVAL;
		}
	}
	return 0;
}

static bool has_title(const struct side *s, const char *title)
{
	for (int r = 1; r < s->t->nr_rows; r++)
		if (!strcmp(s->t->rows[r][s->exp_col], title))
			return true;
	return false;
}

/* Titles are part of the key only when both sets hold the same ones. */
static bool same_titles(const struct side *a, const struct side *b)
{
	for (int r = 1; r < a->t->nr_rows; r++)
		if (!has_title(b, a->t->rows[r][a->exp_col]))
			return false;
	for (int r = 1; r < b->t->nr_rows; r++)
		if (!has_title(a, b->t->rows[r][b->exp_col]))
			return false;
	return true;
}

/* Row ra of a and row rb of b, parameters in columns acol and bcol: the same point? */
static bool same_key(const struct cmp_join *j, const struct side *a, int ra, const int *acol,
		     const struct side *b, int rb, const int *bcol)
{
	char **x = a->t->rows[ra], **y = b->t->rows[rb];
	struct point_key ka = point_key_of_row(j->by_title ? x[a->exp_col] : NULL, a->t->rows[0],
					       x, acol, j->nr_params);
	struct point_key kb = point_key_of_row(j->by_title ? y[b->exp_col] : NULL, b->t->rows[0],
					       y, bcol, j->nr_params);

	return point_same(&ka, &kb, -1);
}

static int check_unique(const struct cmp_join *j, const struct side *s, const int *col,
			char *why, size_t whylen)
{
	for (int a = 1; a < s->t->nr_rows; a++) {
		for (int b = a + 1; b < s->t->nr_rows; b++) {
			if (!same_key(j, s, a, col, s, b, col))
				continue;
			snprintf(why, whylen, "%s: summary.csv lines %d and %d hold the same "
				 "values of the parameters both sets have%s: their points cannot "
				 "be told apart", s->name, a + 1, b + 1,
				 j->by_title ? "" : " (and the sets' experiment titles differ)");
			return -EINVAL;
		}
	}
	return 0;
}

static int common_params(struct cmp_join *j, const struct side *b, const struct side *n)
{
	int max = b->nr_params ? b->nr_params : 1;

	j->params = calloc(max, sizeof(*j->params));
	j->base_col = calloc(max, sizeof(*j->base_col));
	j->new_col = calloc(max, sizeof(*j->new_col));
	if (!j->params || !j->base_col || !j->new_col)
		return -ENOMEM;
	for (int c = b->first_param; c < b->first_param + b->nr_params; c++) {
		int nc = param_col(n, b->t->rows[0][c]);

		if (nc < 0 || ignored(b, b->t->rows[0][c]))
			continue;
		j->params[j->nr_params] = strdup(b->t->rows[0][c]);
		if (!j->params[j->nr_params])
			return -ENOMEM;
		j->base_col[j->nr_params] = c;
		j->new_col[j->nr_params++] = nc;
	}
	return 0;
}

static int add_match(struct cmp_join *j, int base_row, int new_row)
{
	struct cmp_match *m = realloc(j->m, (j->nr + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	j->m = m;
	j->m[j->nr++] = (struct cmp_match){ base_row, new_row };
	return 0;
}

static int match_rows(struct cmp_join *j, const struct side *b, const struct side *n)
{
	int err = 0;

	for (int rb = 1; !err && rb < b->t->nr_rows; rb++) {
		int found = -1;

		for (int rn = 1; found < 0 && rn < n->t->nr_rows; rn++)
			if (same_key(j, b, rb, j->base_col, n, rn, j->new_col))
				found = rn;
		err = add_match(j, rb, found);
	}
	for (int rn = 1; !err && rn < n->t->nr_rows; rn++) {
		bool matched = false;

		for (int i = 0; i < j->nr && !matched; i++)
			matched = j->m[i].new_row == rn;
		if (!matched)
			err = add_match(j, -1, rn);
	}
	return err;
}

int cmp_join(const struct csv_table *base, const struct csv_table *new,
	     const char *const *ignore, int nr_ignore, struct cmp_join *j, char *why, size_t whylen)
{
	struct side b, n;
	int err;

	*j = (struct cmp_join){ 0 };
	snprintf(why, whylen, "%s", "");
	err = side_of(base, "BASE", &b, why, whylen);
	if (!err)
		err = side_of(new, "NEW", &n, why, whylen);
	b.ignore = n.ignore = ignore;
	b.nr_ignore = n.nr_ignore = nr_ignore;
	if (!err)
		err = check_constant(&b, &n, why, whylen);
	if (!err)
		err = check_constant(&n, &b, why, whylen);
	if (err)
		return err;
	j->by_title = same_titles(&b, &n);
	err = common_params(j, &b, &n);
	if (!err)
		err = check_unique(j, &b, j->base_col, why, whylen);
	if (!err)
		err = check_unique(j, &n, j->new_col, why, whylen);
	if (!err)
		err = match_rows(j, &b, &n);
	if (err)
		cmp_join_free(j);
	return err;
}

void cmp_join_free(struct cmp_join *j)
{
	for (int p = 0; j->params && p < j->nr_params; p++)
		free(j->params[p]);
	free(j->params);
	free(j->base_col);
	free(j->new_col);
	free(j->m);
	*j = (struct cmp_join){ 0 };
}

void cmp_moments_of(const double *x, long n, struct cmp_moments *m)
{
	*m = (struct cmp_moments){ .n = n };
	if (n > 0)
		m->mean = gsl_stats_mean(x, 1, n);
	if (n > 1)
		m->sd = gsl_stats_sd_m(x, 1, n, m->mean);
}

/*
 * Welch: t = (mean_new - mean_base) / sqrt(s_b²/n_b + s_n²/n_n), with the
 * Welch-Satterthwaite degrees of freedom.  Both variances 0 leaves no
 * distribution: identical constants are no change (p = 1), different ones
 * as certain a change as there is (p = 0).
 */
void cmp_welch(const struct cmp_moments *base, const struct cmp_moments *new,
	       struct cmp_test *t)
{
	double se, df, diff = new->mean - base->mean;

	*t = (struct cmp_test){ .t = NAN, .df = NAN, .p = NAN };
	if (base->n < CMP_MIN_UNITS || new->n < CMP_MIN_UNITS)
		return;
	/* a value not known (a gauge that could not be read): GSL aborts on NaN */
	if (isnan(diff) || isnan(base->sd) || isnan(new->sd))
		return;
	t->done = true;
	decide_welch_se(base->sd, base->n, new->sd, new->n, &se, &df);
	if (se == 0) {
		t->t = diff == 0 ? 0 : copysign(INFINITY, diff);
		t->p = diff == 0 ? 1 : 0;
		return;
	}
	t->t = diff / se;
	t->df = df;
	t->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t->t), t->df));
}

enum cmp_verdict cmp_verdict_of(const struct cmp_moments *base, const struct cmp_moments *new,
				const struct cmp_test *t, double alpha, enum cmp_better dir)
{
	bool up = new->mean > base->mean;

	/* a value a side did not record (no memory controller, BPF statistics off) */
	if (isnan(base->mean) || isnan(new->mean))
		return CMP_UNKNOWN;
	if (base->n < 0 || new->n < 0)
		return CMP_NO_N;
	if (!t->done)
		return CMP_UNTESTED;
	if (!(t->p < alpha) || new->mean == base->mean)
		return CMP_SAME;
	if (dir != CMP_HIGHER_BETTER && dir != CMP_LOWER_BETTER)
		return CMP_CHANGED;
	return up == (dir == CMP_HIGHER_BETTER) ? CMP_IMPROVED : CMP_REGRESSED;
}

enum cmp_verdict cmp_exact_verdict(const struct cmp_moments *base, const struct cmp_moments *new,
				   enum cmp_better dir)
{
	if (isnan(base->mean) || isnan(new->mean))
		return CMP_UNKNOWN;
	if (new->mean == base->mean)
		return CMP_SAME;
	if (dir != CMP_HIGHER_BETTER && dir != CMP_LOWER_BETTER)
		return CMP_CHANGED;
	return (new->mean > base->mean) == (dir == CMP_HIGHER_BETTER) ? CMP_IMPROVED :
								    CMP_REGRESSED;
}

enum cmp_verdict cmp_veto(enum cmp_verdict v, bool flagged)
{
	if (flagged && (v == CMP_IMPROVED || v == CMP_REGRESSED || v == CMP_CHANGED))
		return CMP_INCONCLUSIVE;
	return v;
}

enum cmp_verdict cmp_settle(enum cmp_verdict v, const struct decide_result *d)
{
	if (v == CMP_SAME && d->word != DECIDE_SAME)
		return CMP_UNDECIDED;
	return v;
}

bool cmp_vetoing_flags(const char *quality)
{
	struct quality q;

	if (!*quality || quality_parse(quality, &q))
		return *quality != '\0';	/* a cell not understood: not trusted either */
	return q.flags & QUALITY_VETO_FLAGS;
}

const char *cmp_verdict_text(enum cmp_verdict v, enum cmp_better dir)
{
	switch (v) {
	case CMP_UNTESTED:
		return "no test (< 3 units)";
	case CMP_NO_N:
		return "no test (n unknown)";
	case CMP_UNKNOWN:
		return "n/a (not recorded)";
	case CMP_SAME:
		return "same";
	case CMP_UNDECIDED:
		return "undecided";
	case CMP_CHANGED:
		return dir == CMP_NEITHER_BETTER ? "changed" : "changed (direction unknown)";
	case CMP_INCONCLUSIVE:
		return "inconclusive";
	case CMP_IMPROVED:
		return dir == CMP_HIGHER_BETTER ? "faster" : "better";
	default:
		return dir == CMP_HIGHER_BETTER ? "slower" : "worse";
	}
}

double cmp_delta_pct(double base, double new)
{
	return base == 0 ? NAN : (new - base) / base * 100;
}

/*
 * Paired: round i's ratio r_i = new_i / base_i, so that what drifts
 * between rounds (the machine's load, its clock) cancels in each ratio.
 * Ratios are averaged on the log scale: the geometric mean, for which
 * NEW / BASE and BASE / NEW are reciprocals, with Student's t interval
 * of the mean log ratio.  Rounds where a side's mean is 0 or unknown
 * have no ratio and are left out.
 */
int cmp_paired_ratio(const double *base, const double *new, int n, double alpha,
		     double bound_pct, struct cmp_ratio *r)
{
	struct decide_rule rule = { .alpha = alpha, .bound_pct = bound_pct };
	double *lr = calloc(n + 1, sizeof(*lr)), mean, half;

	*r = (struct cmp_ratio){ .ratio = NAN, .lo = NAN, .hi = NAN, .min = NAN, .max = NAN };
	if (!lr)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (!(base[i] > 0) || !(new[i] > 0) || isinf(base[i]) || isinf(new[i]))
			continue;
		lr[r->n++] = log(new[i] / base[i]);
	}
	decide_t_interval(lr, r->n, alpha, &mean, &half);
	if (r->n) {
		r->ratio = exp(mean);
		r->min = exp(gsl_stats_min(lr, 1, r->n));
		r->max = exp(gsl_stats_max(lr, 1, r->n));
	}
	if (r->n > 1) {
		r->lo = exp(mean - half);
		r->hi = exp(mean + half);
	}
	/* rounds run by hand, all of them looked at once: the whole alpha */
	decide_paired(&rule, lr, r->n, true, &r->decision);
	free(lr);
	return 0;
}
