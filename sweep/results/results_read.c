// SPDX-License-Identifier: GPL-2.0
/*
 * A result directory read back into a result set: see results_read.h.
 * Points are tied to their samples by point id, never by row order.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "growarray.h"
#include "quality.h"
#include "result.h"
#include "resultfile.h"
#include "resultcsv.h"
#include "results_read.h"
#include "termsafe.h"
#include "textfile.h"

/* The fixed columns the reader relies on, by name (docs/results.md). */
static const char *const samples_fixed[] = {
	[RS_S_POINT] = "point", [RS_S_EXPERIMENT] = "experiment", [RS_S_REP] = "rep",
	[RS_S_INTERVAL] = "interval", [RS_S_WARMUP] = "warmup", [RS_S_ELAPSED] = "elapsed_ns",
};

#define NR_SAMPLES_FIXED (sizeof(samples_fixed) / sizeof(samples_fixed[0]))

/*
 * The numbers read back, checked before any reader uses them
 * (docs/results.md "Reading back"): counts, lengths and indexes are whole
 * numbers from 0 to INT64_MAX, warmup 0 or 1, statistics finite numbers,
 * the metrics of the two files the same, and a summary row's n the
 * measured rows its point has in samples.csv.  A cell that is not is
 * refused with where it is, "DIR/samples.csv:12:7: ...": its line and its
 * column (the field, 1-based).  A count is read as it was written, never
 * wrapped: "-5" is not 2^64 - 5 events, "9223372036854775808" not
 * INT64_MAX, "1e3" not 1.
 */

/* What a cell may hold. */
enum cell_rule {
	CELL_ANY,		/* text: names, statuses, reasons */
	CELL_COUNT,		/* a whole number, 0 to INT64_MAX */
	CELL_COUNT_OR_EMPTY,	/* the same, or empty: not known */
	CELL_POSITIVE,		/* a whole number, 1 to INT64_MAX: a length of time */
	CELL_FLAG,		/* 0 or 1 */
	CELL_NUMBER_OR_EMPTY,	/* a finite number, or empty */
	CELL_QUALITY,		/* flags as quality_format() writes them */
	CELL_STATUS,		/* a point's status as bpfsweep writes it */
};

static const char *const rule_text[] = {
	[CELL_ANY] = "",
	[CELL_COUNT] = "a whole number from 0 to 9223372036854775807",
	[CELL_COUNT_OR_EMPTY] = "empty or a whole number from 0 to 9223372036854775807",
	[CELL_POSITIVE] = "a whole number from 1 to 9223372036854775807",
	[CELL_FLAG] = "0 or 1",
	[CELL_NUMBER_OR_EMPTY] = "empty or a finite number",
	[CELL_QUALITY] = "quality flags as bpfsweep writes them (docs/results.md)",
	[CELL_STATUS] = "ok, unsupported, failed, interrupted or stalled",
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

/* One of the statuses bpfsweep writes: any other word has no meaning to read into it. */
static bool known_status(const char *s)
{
	for (enum point_status st = PS_OK; st < NR_POINT_STATUS; st++)
		if (!strcmp(s, point_status_name(st)))
			return true;
	return false;
}

static bool cell_ok(const char *s, enum cell_rule rule)
{
	struct quality q;
	long long v;

	switch (rule) {
	case CELL_COUNT:
		return results_count(s, &v);
	case CELL_POSITIVE:
		/* an interval of no length would be a rate of infinity, or of 0 */
		return results_count(s, &v) && v > 0;
	case CELL_COUNT_OR_EMPTY:
		return !*s || results_count(s, &v);
	case CELL_FLAG:
		return !strcmp(s, "0") || !strcmp(s, "1");
	case CELL_NUMBER_OR_EMPTY:
		return !*s || finite_number(s);
	case CELL_QUALITY:
		/* compare's noise veto and resume's verdicts read these flags */
		return !quality_parse(s, &q);
	case CELL_STATUS:
		/* "pwned" read as failed, or as a status compare does not know */
		return known_status(s);
	default:
		return true;
	}
}

/* Every row of t against the rule of its column. */
static int check_table(const struct csv_table *t, const enum cell_rule *rules, const char *dir,
		       const char *file, char *why, size_t whylen)
{
	const char **f = calloc(t->nr_cols + 1, sizeof(*f));
	int err = f ? 0 : -ENOMEM;

	for (int r = 1; !err && r < t->nr_rows; r++) {
		csv_row_cells(t, r, f);
		for (int c = 0; !err && c < t->nr_cols; c++) {
			if (cell_ok(f[c], rules[c]))
				continue;
			err = results_refuse_at(why, whylen, dir, file, r + 1, c + 1,
						"%s is '%.40s%s', not %s", t->header[c], f[c],
						strlen(f[c]) > 40 ? "..." : "", rule_text[rules[c]]);
		}
	}
	free(f);
	return err;
}

static void samples_rules(const struct result_set *rs, enum cell_rule *rules)
{
	for (int c = 0; c < rs->samples.nr_cols; c++)
		rules[c] = c == RS_S_EXPERIMENT ? CELL_ANY : CELL_COUNT_OR_EMPTY;
	rules[RS_S_POINT] = rules[RS_S_REP] = rules[RS_S_INTERVAL] = CELL_COUNT;
	rules[RS_S_ELAPSED] = CELL_POSITIVE;
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
	if (!strcmp(name, "quality"))
		return CELL_QUALITY;
	if (c == rs->first_param + rs->nr_params)
		return CELL_STATUS;
	if (kind == CK_COUNTER || kind == CK_GAUGE || kind == CK_RATIO ||
	    !strcmp(name, "half_width_pct") || !strcmp(name, "decision_lo_pct") ||
	    !strcmp(name, "decision_hi_pct"))
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
			return results_refuse_at(why, whylen, dir, "summary.csv", 1, c + 1,
						 "%s is of metric '%s', which samples.csv has no "
						 "column of", col->name, col->metric);
	}
	for (int c = rs->first_metric; c < rs->first_metric + rs->nr_metrics; c++) {
		const char *metric = rs->samples.header[c];

		if (result_stat_col(rs, metric, "mean") < 0)
			return results_refuse_at(why, whylen, dir, "samples.csv", 1, c + 1,
						 "metric '%s' has no statistics in summary.csv",
						 metric);
	}
	return 0;
}

static int results_check_cells(const struct result_set *rs, const char *dir, char *why,
			       size_t whylen)
{
	int nr = rs->samples.nr_cols > rs->summary.nr_cols ? rs->samples.nr_cols :
							      rs->summary.nr_cols;
	/* samples_rules() names samples.csv's fixed columns, whether it has them or not */
	enum cell_rule *rules = calloc(nr > RS_S_ELAPSED ? nr : RS_S_ELAPSED + 1, sizeof(*rules));
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
		n += !strcmp(csv_cell(&rs->samples, p->sample_rows[i], RS_S_WARMUP), "0");
	return n;
}

static int results_check_points(const struct result_set *rs, const char *dir, char *why,
				size_t whylen)
{
	int n_col = result_summary_col(rs, "n");

	for (int i = 0; n_col >= 0 && i < rs->nr_points; i++) {
		const struct result_point *p = &rs->points[i];
		long long measured = measured_rows(rs, p);

		/* no rows: never ran, imported, or its samples not kept (docs/results.md) */
		if (!p->nr_samples || p->n < 0 || p->n == measured)
			continue;
		return results_refuse_at(why, whylen, dir, "summary.csv", p->row + 1, n_col + 1,
					 "n is %lld, but samples.csv holds %lld measured intervals "
					 "of point %lld", p->n, measured, p->id);
	}
	return 0;
}

static int read_spec(const char *dir, struct result_set *rs, char *why, size_t whylen)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/spec", dir);
	err = read_text_file(path, &rs->spec);
	return err == -ENOENT ? 0 : resultfile_refuse_open(why, whylen, dir, "spec", err);
}

static int add_meta(struct result_set *rs, const char *key, const char *value)
{
	struct result_meta *m = realloc(rs->meta, (rs->nr_meta + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	rs->meta = m;
	m = &rs->meta[rs->nr_meta];
	/* shown in table headings and machine lines: made safe here, once (termsafe.h) */
	m->key = term_escape(key);
	m->value = term_escape(value);
	if (!m->key || !m->value) {
		free(m->key);
		free(m->value);
		return -ENOMEM;
	}
	rs->nr_meta++;
	return 0;
}

/* "key: value" lines; a line without ": " (a torn last line) is skipped. */
static int read_meta(const char *dir, struct result_set *rs, char *why, size_t whylen)
{
	char path[4200], *text, *line, *next, *colon, *nl;
	int err;

	snprintf(path, sizeof(path), "%s/meta", dir);
	err = read_text_file(path, &text);
	if (err)
		return err == -ENOENT ? 0 : resultfile_refuse_open(why, whylen, dir, "meta", err);
	for (line = text; !err && *line; line = next) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		next = nl + 1;
		colon = strstr(line, ": ");
		if (!colon)
			continue;
		*colon = '\0';
		err = add_meta(rs, line, colon + 2);
	}
	free(text);
	return err;
}

/* Column layout of the two files, checked by name. */
static int find_columns(struct result_set *rs, const char *dir, char *why, size_t whylen)
{
	int status = result_summary_col(rs, "status");
	int exp = result_summary_col(rs, "experiment");

	/* by name: sets written before the exp column (point first) read too */
	rs->point_col = result_summary_col(rs, "point");
	if (rs->summary.nr_rows) {
		if (rs->point_col < 0 || exp < 0 || rs->point_col > exp || status < exp)
			return results_refuse_at(why, whylen, dir, "summary.csv", 1, 1,
						 "the header lacks the point, experiment or status "
						 "column, or has them out of order");
		rs->exp_col = exp;
		rs->first_param = exp + 1;
		rs->nr_params = status - exp - 1;
	}
	if (!rs->samples.nr_rows)
		return 0;
	for (size_t c = 0; c < NR_SAMPLES_FIXED; c++) {
		if (rs->samples.nr_cols <= (int)c || strcmp(rs->samples.header[c],
							    samples_fixed[c])) {
			return results_refuse_at(why, whylen, dir, "samples.csv", 1, (int)c + 1,
						 "column %zu is not '%s'", c + 1, samples_fixed[c]);
		}
	}
	rs->first_metric = NR_SAMPLES_FIXED;
	rs->nr_metrics = rs->samples.nr_cols - NR_SAMPLES_FIXED;
	/* a run with decide's last column: where in its round the arm ran */
	if (rs->nr_metrics > 0 &&
	    !strcmp(rs->samples.header[rs->samples.nr_cols - 1], "slot")) {
		rs->slot_col = rs->samples.nr_cols - 1;
		rs->nr_metrics--;
	}
	/* the last column but slot, so that sets without it keep their layout */
	if (rs->nr_metrics > 0 &&
	    !strcmp(rs->samples.header[rs->first_metric + rs->nr_metrics - 1], "thread")) {
		rs->thread_col = rs->first_metric + rs->nr_metrics - 1;
		rs->nr_metrics--;
	}
	return 0;
}

/* (results_check_cells() has checked both cells: a refusal here is a bug's) */
static int read_point(struct result_set *rs, const char *dir, int row, struct result_point *p,
		      char *why, size_t whylen)
{
	char **f = rs->summary.rows[row];
	int n_col = result_summary_col(rs, "n");

	*p = (struct result_point){ .row = row, .experiment = f[rs->exp_col],
				    .status = f[rs->first_param + rs->nr_params] };
	/* n is empty where it is not known: numbers imported from bench output */
	p->n = -1;
	if (!results_count(f[rs->point_col], &p->id))
		return results_refuse_at(why, whylen, dir, "summary.csv", row + 1,
					 rs->point_col + 1, "point is not a number");
	if (n_col >= 0 && *f[n_col] && !results_count(f[n_col], &p->n))
		return results_refuse_at(why, whylen, dir, "summary.csv", row + 1, n_col + 1,
					 "n is not a number");
	return 0;
}

static int push_row(int **rows, int *nr, int r)
{
	if (ARRAY_ROOM(*rows, *nr))
		return -ENOMEM;
	(*rows)[(*nr)++] = r;
	return 0;
}

/* Each point's sample rows, found by its id: whole-point and thread rows apart. */
static int attach_samples(struct result_set *rs, const char *dir, char *why, size_t whylen)
{
	int err = 0;

	for (int r = 1; !err && r < rs->samples.nr_rows; r++) {
		bool thread = rs->thread_col >= 0 && *csv_cell(&rs->samples, r, rs->thread_col);
		long long id;

		if (!results_count(csv_cell(&rs->samples, r, RS_S_POINT), &id))
			return results_refuse_at(why, whylen, dir, "samples.csv", r + 1,
						 RS_S_POINT + 1, "point is not a number");
		for (int i = 0; !err && i < rs->nr_points; i++) {
			struct result_point *p = &rs->points[i];

			if (p->id != id)
				continue;
			if (thread)
				err = push_row(&p->thread_rows, &p->nr_thread_rows, r);
			else
				err = push_row(&p->sample_rows, &p->nr_samples, r);
		}
	}
	return err;
}

static int read_points(struct result_set *rs, const char *dir, char *why, size_t whylen)
{
	int nr = rs->summary.nr_rows > 1 ? rs->summary.nr_rows - 1 : 0;
	int err = 0;

	rs->points = calloc(nr > 0 ? (size_t)nr : 1, sizeof(*rs->points));
	if (!rs->points)
		return -ENOMEM;
	for (int r = 1; !err && r <= nr; r++)
		err = read_point(rs, dir, r, &rs->points[rs->nr_points++], why, whylen);
	return err ?: attach_samples(rs, dir, why, whylen);
}

/* Is name one of the samples columns of metrics (not `point`, `thread`, ...)? */
static bool is_metric_column(const struct result_set *rs, const char *name)
{
	int c = csv_column(&rs->samples, name);

	return c >= rs->first_metric && c < rs->first_metric + rs->nr_metrics;
}

static bool is_level(const void *ctx, const char *metric)
{
	return is_metric_column(ctx, metric);
}

/* What column c of a set without columns.csv is, from its place and name. */
static void derive_column(const struct result_set *rs, int c, struct result_col *col)
{
	struct colname cn;

	if (c <= rs->exp_col) {
		col->kind = CK_ID;
	} else if (c < rs->first_param + rs->nr_params) {
		col->kind = CK_PARAM;
	} else if (colname_parse(col->name, is_level, rs, &cn)) {
		col->kind = cn.kind;
		snprintf(col->metric, sizeof(col->metric), "%s", cn.metric);
		snprintf(col->stat, sizeof(col->stat), "%s", cn.stat);
		snprintf(col->unit, sizeof(col->unit), "%s", cn.unit);
	} else {
		col->kind = CK_RUN;
		if (!strcmp(col->name, "half_width_pct"))
			snprintf(col->unit, sizeof(col->unit), "%%");
	}
}

/* Row f of columns.csv into col, when it describes col's column; false if not. */
static bool recorded_column(char **f, struct result_col *col)
{
	if (strcmp(f[0], col->name) || !col_kind_parse(f[3], &col->kind) ||
	    strlen(f[1]) >= sizeof(col->metric) || strlen(f[2]) >= sizeof(col->stat) ||
	    strlen(f[4]) >= sizeof(col->unit) || strlen(f[5]) >= sizeof(col->better))
		return false;
	strcpy(col->metric, f[1]);
	strcpy(col->stat, f[2]);
	strcpy(col->unit, f[4]);
	strcpy(col->better, f[5]);
	return true;
}

/* columns.csv into rs->cols when it names summary.csv's columns, in order. */
static bool read_recorded(struct result_set *rs, const struct csv_table *t)
{
	if (t->nr_cols != COLNAME_CSV_COLS || t->nr_rows != rs->summary.nr_cols + 1)
		return false;
	for (int c = 0; c < COLNAME_CSV_COLS; c++)
		if (strcmp(t->rows[0][c], colname_csv_header[c]))
			return false;
	for (int c = 0; c < rs->summary.nr_cols; c++)
		if (!recorded_column(t->rows[c + 1], &rs->cols[c]))
			return false;
	return true;
}

/* What each summary column is: columns.csv's word, or its name's (a set from before it). */
static int read_columns(const char *dir, struct result_set *rs)
{
	struct csv_table t = { 0 };
	char path[4200];
	int nr = rs->summary.nr_rows ? rs->summary.nr_cols : 0, err;

	rs->cols = calloc(nr ? nr : 1, sizeof(*rs->cols));
	if (!rs->cols)
		return -ENOMEM;
	for (int c = 0; c < nr; c++)
		rs->cols[c].name = rs->summary.rows[0][c];
	snprintf(path, sizeof(path), "%s/columns.csv", dir);
	err = nr ? csv_read_file(path, &t) : -ENOENT;
	if (err && err != -ENOENT && err != -EINVAL)
		return err;
	rs->cols_recorded = !err && read_recorded(rs, &t);
	csv_table_free(&t);
	for (int c = 0; !rs->cols_recorded && c < nr; c++) {
		rs->cols[c] = (struct result_col){ .name = rs->summary.rows[0][c] };
		derive_column(rs, c, &rs->cols[c]);
	}
	return 0;
}

int results_read(const char *dir, struct result_set **out, char *why, size_t whylen)
{
	struct result_set *rs = calloc(1, sizeof(*rs));
	int err;

	*out = NULL;
	snprintf(why, whylen, "%s", "");
	if (!rs)
		return -ENOMEM;
	rs->thread_col = -1;
	rs->slot_col = -1;
	rs->dir = strdup(dir);
	if (!rs->dir) {
		free(rs);
		return -ENOMEM;
	}
	err = read_spec(dir, rs, why, whylen);
	if (!err)
		err = read_meta(dir, rs, why, whylen);
	if (!err)
		err = results_csv_read(dir, "summary.csv", 0, &rs->summary, &rs->has_summary,
			       &rs->summary_torn, why, whylen);
	if (!err)
		err = results_csv_read(dir, "samples.csv", CSV_ROWS_ONLY, &rs->samples, &rs->has_samples,
			       &rs->samples_torn, why, whylen);
	if (!err)
		err = results_csv_escape(&rs->summary);
	if (!err)
		err = find_columns(rs, dir, why, whylen);
	if (!err)
		err = read_columns(dir, rs);
	if (!err)
		err = results_check_cells(rs, dir, why, whylen);
	if (!err)
		err = read_points(rs, dir, why, whylen);
	if (!err)
		err = results_check_points(rs, dir, why, whylen);
	if (err) {
		result_set_free(rs);
		return err;
	}
	results_csv_warn_torn(dir, "summary.csv", &rs->summary, rs->summary_torn);
	results_csv_warn_torn(dir, "samples.csv", &rs->samples, rs->samples_torn);
	*out = rs;
	return 0;
}

void results_read_diag(const char *dir, int err, const char *why)
{
	if (*why)
		diag_located(why);
	else
		diag_err("cannot read %s: %s", dir, strerror(-err));
}

int results_refuse(char *why, size_t whylen, const struct result_set *set, const char *file,
		   int line, int col, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = results_vrefuse_at(why, whylen, set->dir, file, line, col, fmt, ap);
	va_end(ap);
	return err;
}

void results_diag_row(const char *dir, const char *file, int line, int col, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	results_vrefuse_at(why, sizeof(why), dir, file, line, col, fmt, ap);
	va_end(ap);
	diag_located(why);
}

int results_read_meta(const char *dir, struct result_set **out)
{
	struct result_set *rs = calloc(1, sizeof(*rs));
	char why[1024];
	int err = rs ? read_meta(dir, rs, why, sizeof(why)) : -ENOMEM;

	*out = NULL;
	if (err) {
		result_set_free(rs);
		return err;
	}
	rs->thread_col = -1;
	rs->slot_col = -1;
	*out = rs;
	return 0;
}

const char *result_meta(const struct result_set *rs, const char *key)
{
	for (int i = 0; i < rs->nr_meta; i++)
		if (!strcmp(rs->meta[i].key, key))
			return rs->meta[i].value;
	return NULL;
}

int result_summary_col(const struct result_set *rs, const char *name)
{
	return csv_column(&rs->summary, name);
}

const char *result_summary_cell(const struct result_set *rs, int row, const char *name)
{
	int col = result_summary_col(rs, name);

	return col < 0 ? "" : rs->summary.rows[row][col];
}

int result_stat_col(const struct result_set *rs, const char *metric, const char *stat)
{
	for (int c = 0; rs->cols && c < rs->summary.nr_cols; c++)
		if (!strcmp(rs->cols[c].metric, metric) && !strcmp(rs->cols[c].stat, stat))
			return c;
	return -1;
}

bool result_metric_is_gauge(const struct result_set *rs, const char *metric)
{
	int c = result_stat_col(rs, metric, "mean");

	return c >= 0 && rs->cols[c].kind == CK_GAUGE;
}

double result_summary_stat(const struct result_set *rs, int row, const char *metric,
			   const char *stat)
{
	int c = result_stat_col(rs, metric, stat);

	return c < 0 || !*rs->summary.rows[row][c] ? NAN : strtod(rs->summary.rows[row][c], NULL);
}

bool result_mean_column(const struct result_set *rs, const char *col, char *metric,
			size_t len, bool *gauge)
{
	int c = result_summary_col(rs, col);
	const struct result_col *rc = c >= 0 ? &rs->cols[c] : NULL;

	if (!rc || strcmp(rc->stat, "mean") || (rc->kind != CK_COUNTER && rc->kind != CK_GAUGE) ||
	    strlen(rc->metric) >= len)
		return false;
	*gauge = rc->kind == CK_GAUGE;
	snprintf(metric, len, "%s", rc->metric);
	return true;
}

void result_set_free(struct result_set *rs)
{
	if (!rs)
		return;
	for (int i = 0; i < rs->nr_points; i++) {
		free(rs->points[i].sample_rows);
		free(rs->points[i].thread_rows);
	}
	free(rs->points);
	free(rs->cols);
	free(rs->dir);
	for (int i = 0; i < rs->nr_meta; i++) {
		free(rs->meta[i].key);
		free(rs->meta[i].value);
	}
	free(rs->meta);
	csv_table_free(&rs->samples);
	csv_table_free(&rs->summary);
	free(rs->spec);
	free(rs);
}
