// SPDX-License-Identifier: GPL-2.0
/*
 * A result set's numbers checked on read: see results_check.h.  A count
 * read as it was written, never wrapped: "-5" is not 18446744073709551611
 * events, "9223372036854775808" not INT64_MAX, "1e3" not 1.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_check.h"

/* What a cell may hold. */
enum cell_rule {
	CELL_ANY,		/* text: names, statuses, reasons */
	CELL_COUNT,		/* a whole number, 0 to INT64_MAX */
	CELL_COUNT_OR_EMPTY,	/* the same, or empty: not known */
	CELL_FLAG,		/* 0 or 1 */
	CELL_NUMBER_OR_EMPTY,	/* a finite number, or empty */
};

static const char *const rule_text[] = {
	[CELL_ANY] = "",
	[CELL_COUNT] = "a whole number from 0 to 9223372036854775807",
	[CELL_COUNT_OR_EMPTY] = "empty or a whole number from 0 to 9223372036854775807",
	[CELL_FLAG] = "0 or 1",
	[CELL_NUMBER_OR_EMPTY] = "empty or a finite number",
};

bool results_count(const char *s, long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && !*end;
}

static bool finite_number(const char *s)
{
	char *end;
	double x;

	/* strtod takes "nan", "inf" and hex: a result file writes none of them */
	if (strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	errno = 0;
	x = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(x);
}

static bool cell_ok(const char *s, enum cell_rule rule)
{
	long long v;

	switch (rule) {
	case CELL_COUNT:
		return results_count(s, &v);
	case CELL_COUNT_OR_EMPTY:
		return !*s || results_count(s, &v);
	case CELL_FLAG:
		return !strcmp(s, "0") || !strcmp(s, "1");
	case CELL_NUMBER_OR_EMPTY:
		return !*s || finite_number(s);
	default:
		return true;
	}
}

static int refuse(char *why, size_t whylen, const char *dir, const char *file, int line,
		  int col, const char *fmt, ...)
{
	size_t n = snprintf(why, whylen, "%s/%s:%d:%d: ", dir, file, line, col);
	va_list ap;

	if (n < whylen) {
		va_start(ap, fmt);
		vsnprintf(why + n, whylen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Every row of t against the rule of its column. */
static int check_table(const struct csv_table *t, const enum cell_rule *rules, const char *dir,
		       const char *file, char *why, size_t whylen)
{
	for (int r = 1; r < t->nr_rows; r++)
		for (int c = 0; c < t->nr_cols; c++) {
			const char *s = t->rows[r][c];

			if (cell_ok(s, rules[c]))
				continue;
			return refuse(why, whylen, dir, file, r + 1, c + 1, "%s is '%.40s%s', "
				      "not %s", t->rows[0][c], s, strlen(s) > 40 ? "..." : "",
				      rule_text[rules[c]]);
		}
	return 0;
}

static void samples_rules(const struct result_set *rs, enum cell_rule *rules)
{
	for (int c = 0; c < rs->samples.nr_cols; c++)
		rules[c] = c == RS_S_EXPERIMENT ? CELL_ANY : CELL_COUNT_OR_EMPTY;
	rules[RS_S_POINT] = rules[RS_S_REP] = rules[RS_S_INTERVAL] = CELL_COUNT;
	rules[RS_S_ELAPSED] = CELL_COUNT;
	rules[RS_S_WARMUP] = CELL_FLAG;
}

static enum cell_rule summary_rule(const struct result_set *rs, int c)
{
	const char *name = rs->summary.rows[0][c];
	enum col_kind kind = rs->cols[c].kind;

	if (c == rs->point_col)
		return CELL_COUNT;
	if (!strcmp(name, "n") || !strcmp(name, "tries"))
		return CELL_COUNT_OR_EMPTY;
	if (kind == CK_COUNTER || kind == CK_GAUGE || kind == CK_RATIO ||
	    !strcmp(name, "half_width_pct"))
		return CELL_NUMBER_OR_EMPTY;
	return CELL_ANY;
}

static bool in_samples(const struct result_set *rs, const char *metric)
{
	int c = csv_column(&rs->samples, metric);

	return c >= rs->first_metric && c < rs->first_metric + rs->nr_metrics;
}

/*
 * The two files name the same metrics: a summary statistic of a metric
 * samples.csv lacks, or a samples metric without statistics, is a renamed
 * column, which would leave a metric compared on one side only.
 */
static int check_metrics(const struct result_set *rs, const char *dir, char *why,
			 size_t whylen)
{
	if (!rs->samples.nr_rows || rs->summary.nr_rows < 1)
		return 0;
	for (int c = 0; c < rs->summary.nr_cols; c++) {
		const struct result_col *col = &rs->cols[c];

		if ((col->kind == CK_COUNTER || col->kind == CK_GAUGE) &&
		    !in_samples(rs, col->metric))
			return refuse(why, whylen, dir, "summary.csv", 1, c + 1, "%s is of metric "
				      "'%s', which samples.csv has no column of", col->name,
				      col->metric);
	}
	for (int c = rs->first_metric; c < rs->first_metric + rs->nr_metrics; c++) {
		const char *metric = rs->samples.rows[0][c];

		if (result_stat_col(rs, metric, "mean") < 0)
			return refuse(why, whylen, dir, "samples.csv", 1, c + 1, "metric '%s' has "
				      "no statistics in summary.csv", metric);
	}
	return 0;
}

int results_check_cells(const struct result_set *rs, const char *dir, char *why, size_t whylen)
{
	int nr = rs->samples.nr_cols > rs->summary.nr_cols ? rs->samples.nr_cols :
							      rs->summary.nr_cols;
	enum cell_rule *rules = calloc(nr ? nr : 1, sizeof(*rules));
	int err;

	if (!rules)
		return -ENOMEM;
	samples_rules(rs, rules);
	err = check_table(&rs->samples, rules, dir, "samples.csv", why, whylen);
	for (int c = 0; !err && rs->summary.nr_rows && c < rs->summary.nr_cols; c++)
		rules[c] = summary_rule(rs, c);
	if (!err && rs->summary.nr_rows)
		err = check_table(&rs->summary, rules, dir, "summary.csv", why, whylen);
	free(rules);
	return err ?: check_metrics(rs, dir, why, whylen);
}

/* A point's whole-interval rows outside the warmup. */
static long long measured_rows(const struct result_set *rs, const struct result_point *p)
{
	long long n = 0;

	for (int i = 0; i < p->nr_samples; i++)
		n += !strcmp(rs->samples.rows[p->sample_rows[i]][RS_S_WARMUP], "0");
	return n;
}

int results_check_points(const struct result_set *rs, const char *dir, char *why,
			 size_t whylen)
{
	int n_col = result_summary_col(rs, "n");

	for (int i = 0; n_col >= 0 && i < rs->nr_points; i++) {
		const struct result_point *p = &rs->points[i];
		long long measured = measured_rows(rs, p);

		/* no rows: never ran, imported, or its samples not kept (docs/results.md) */
		if (!p->nr_samples || p->n < 0 || p->n == measured)
			continue;
		return refuse(why, whylen, dir, "summary.csv", p->row + 1, n_col + 1, "n is %lld, "
			      "but samples.csv holds %lld measured intervals of point %lld",
			      p->n, measured, p->id);
	}
	return 0;
}
