// SPDX-License-Identifier: GPL-2.0
/*
 * compare's output for machines, CSV through csvfile.c and JSON through
 * json-c: every field of every metric -e picked, rates per second, levels
 * in bytes, ns per run in ns, unrounded; and the one entry to the four
 * formats (the tables for people are compare_text.c's).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare_print.h"
#include "compare_programs.h"
#include "csvfile.h"
#include "runfacts.h"

/* By enum cmp_better: as meta's metric lines say it (metricmeta.h). */
static const char *const better_text[] = {
	[CMP_HIGHER_BETTER] = "higher", [CMP_LOWER_BETTER] = "lower",
	[CMP_NEITHER_BETTER] = "neither", [CMP_BETTER_UNKNOWN] = "unknown",
};

static const char *const state_text[] = {
	[PS_COMPARED] = "compared", [PS_BASE_ONLY] = "base only",
	[PS_NEW_ONLY] = "new only", [PS_NOT_COMPARED] = "not compared",
};

const char *compare_state_text(enum point_state s)
{
	return state_text[s];
}

void compare_describe_set(const struct result_set *rs, char *buf, size_t len)
{
	static const char *const keys[] = { "kernel_release", "arch" };
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && n < len; k++)
		if (result_meta(rs, keys[k]))
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : " (",
				      result_meta(rs, keys[k]));
	for (int i = 0; i < rs->nr_meta && n < len; i++)
		if (!strcmp(rs->meta[i].key, "tag"))
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : " (", rs->meta[i].value);
	if (n && n < len)
		n += snprintf(buf + n, len - n, ")");
	/* smoke-run numbers are for function, not for a cover letter */
	if (result_meta(rs, "quick") && !strcmp(result_meta(rs, "quick"), "yes") && n < len)
		n += snprintf(buf + n, len - n, " (smoke run: --quick)");
	/* and so are an emulated CPU's, compared only with --allow-tcg; icount's are path length */
	if (n < len)
		snprintf(buf + n, len - n, "%s", run_accel_note(rs));
}

static const char *const csv_tail[] = {
	"state", "reason", "metric", "base_mean", "base_stddev", "base_n", "new_mean",
	"new_stddev", "new_n", "delta", "delta_pct", "t", "df", "p", "verdict", "better",
	"base_quality", "new_quality", "delta_lo_pct", "delta_hi_pct", "interval_level",
	"decision",
};

#define NR_TAIL (int)(sizeof(csv_tail) / sizeof(csv_tail[0]))

/* A number as CSV has it: empty when not a number, else shortest exact-enough text. */
static void num(char *buf, double v, const char *fmt)
{
	if (isnan(v))
		buf[0] = '\0';
	else if (isinf(v))
		snprintf(buf, 32, "%s", v > 0 ? "inf" : "-inf");
	else
		snprintf(buf, 32, fmt, v);
}

/* A count, empty where it is not known. */
static void num_n(char *buf, long n)
{
	buf[0] = '\0';
	if (n >= 0)
		snprintf(buf, 32, "%ld", n);
}

static void csv_values(const struct point_cmp *p, const struct metric_cmp *m, char v[][32])
{
	for (int i = 0; i < NR_TAIL; i++)
		v[i][0] = '\0';
	if (!m)
		return;
	num(v[3], m->base.mean, "%.3f");
	num(v[4], m->base.sd, "%.3f");
	num_n(v[5], m->base.n);
	num(v[6], m->new.mean, "%.3f");
	num(v[7], m->new.sd, "%.3f");
	num_n(v[8], m->new.n);
	num(v[9], m->new.mean - m->base.mean, "%.3f");
	num(v[10], m->delta_pct, "%.4f");
	num(v[11], m->test.t, "%.6g");
	num(v[12], m->test.df, "%.6g");
	num(v[13], m->test.p, "%.6g");
	num(v[18], m->decision.lo_pct, "%.4f");
	num(v[19], m->decision.hi_pct, "%.4f");
	num(v[20], m->decision.level, "%.6g");
}

const char *compare_param_by_name(const struct comparison *c, const struct point_cmp *p,
				 const char *name)
{
	for (int i = 0; i < c->join.nr_params; i++)
		if (!strcmp(c->join.params[i], name))
			return point_param(c, p, i);
	return "";
}

/*
 * The parameter columns are those of head (the first comparison's), by
 * name; with the programs section (prog_col) a last column names the
 * program, empty in a point's rows.
 */
static int csv_row(FILE *f, const struct comparison *head, const struct comparison *c,
		   const struct point_cmp *p, const struct metric_cmp *m, bool prog_col)
{
	int nr = 3 + head->join.nr_params + NR_TAIL, k = 0, err;
	const char **fields = calloc(nr + 1, sizeof(*fields));
	char v[NR_TAIL][32], decision[600] = "";

	if (!fields)
		return -ENOMEM;
	csv_values(p, m, v);
	fields[k++] = c->base_dir;
	fields[k++] = c->new_dir;
	fields[k++] = p->experiment;
	for (int i = 0; i < head->join.nr_params; i++)
		fields[k++] = compare_param_by_name(c, p, head->join.params[i]);
	for (int i = 0; i < NR_TAIL; i++)
		fields[k++] = v[i];
	fields[nr - NR_TAIL] = state_text[p->state];
	fields[nr - NR_TAIL + 1] = p->reason;
	fields[nr - NR_TAIL + 2] = m ? m->metric : "";
	fields[nr - 8] = m ? cmp_verdict_text(m->verdict, m->info->dir) : "";
	fields[nr - 7] = m ? better_text[m->info->dir] : "";
	fields[nr - 6] = m ? p->flags[0] : "";
	fields[nr - 5] = m ? p->flags[1] : "";
	if (m)
		compare_verdict_text(p, m, decision, sizeof(decision));
	fields[nr - 1] = decision;
	fields[nr] = "";
	err = csv_write_row(f, fields, nr + prog_col);
	free(fields);
	return err;
}

/* "different: +8 (+15.4 %)", "same", or a time's Δ alone (no verdict: "+15 (+18.8 %)"). */
static void prog_decision(const char *verdict, double b, double n, char *buf, size_t len)
{
	if (isnan(b) || isnan(n) || b == n)
		snprintf(buf, len, "%s", verdict);
	else if (b)
		snprintf(buf, len, "%s%s%+.0f (%+.1f %%)", verdict, *verdict ? ": " : "", n - b,
			 (n - b) / b * 100);
	else
		snprintf(buf, len, "%s%s%+.0f", verdict, *verdict ? ": " : "", n - b);
}

/* A program's figure k, or (k < 0) the program on one side only, as compare's CSV row. */
static int csv_prog_row(FILE *f, const struct comparison *head, const struct comparison *c,
			const struct point_cmp *p, const struct prog_cmp *pc, int k)
{
	int nr = 3 + head->join.nr_params + NR_TAIL, t = nr - NR_TAIL, err;
	const char **fields = calloc(nr + 1, sizeof(*fields));
	const struct prog_figs *pf = c->pfigs;
	char v[NR_TAIL][32] = { 0 }, decision[200] = "", name[300];
	double b = k < 0 ? NAN : prog_fig_value(&pc->f[0][k], pf->exact[k]);
	double n = k < 0 ? NAN : prog_fig_value(&pc->f[1][k], pf->exact[k]);
	bool exact = k >= 0 && pf->exact[k];

	if (!fields)
		return -ENOMEM;
	fields[0] = c->base_dir;
	fields[1] = c->new_dir;
	fields[2] = p->experiment;
	for (int i = 0; i < head->join.nr_params; i++)
		fields[3 + i] = compare_param_by_name(c, p, head->join.params[i]);
	num(v[3], b, exact ? "%.0f" : "%.3f");
	num_n(v[5], k < 0 ? -1 : pc->f[0][k].n);
	num(v[6], n, exact ? "%.0f" : "%.3f");
	num_n(v[8], k < 0 ? -1 : pc->f[1][k].n);
	num(v[9], n - b, exact ? "%.0f" : "%.3f");
	num(v[10], cmp_delta_pct(b, n), "%.4f");
	for (int i = 0; i < NR_TAIL; i++)
		fields[t + i] = v[i];
	fields[t] = prog_state_text(pc);
	fields[t + 2] = k < 0 ? "" : pf->name[k];
	fields[nr - 8] = k < 0 ? "" : prog_fig_verdict(pc, pf, k);
	fields[nr - 7] = k < 0 ? "" : "lower";
	if (exact) {
		num(v[18], cmp_delta_pct(b, n), "%.4f");
		num(v[19], cmp_delta_pct(b, n), "%.4f");
		num(v[20], 1, "%.6g");
	}
	if (k >= 0)
		prog_decision(prog_fig_verdict(pc, pf, k), b, n, decision, sizeof(decision));
	fields[nr - 1] = k < 0 ? prog_state_text(pc) : decision;
	snprintf(name, sizeof(name), pc->nth ? "%s#%d" : "%s", pc->name, pc->nth + 1);
	fields[nr] = name;
	err = csv_write_row(f, fields, nr + 1);
	free(fields);
	return err;
}

/* Every figure of every program of p, or one row of a program on one side only. */
static int csv_prog_rows(FILE *f, const struct comparison *head, const struct comparison *c,
			 const struct point_cmp *p)
{
	int err = 0;

	for (int i = 0; !err && i < p->nr_progs; i++) {
		const struct prog_cmp *pc = &p->progs[i];

		if (!pc->on[0] || !pc->on[1])
			err = csv_prog_row(f, head, c, p, pc, -1);
		for (int k = 0; !err && pc->on[0] && pc->on[1] && k < c->pfigs->nr; k++)
			err = csv_prog_row(f, head, c, p, pc, k);
	}
	return err;
}

static int csv_header(FILE *f, const struct comparison *head, bool prog_col)
{
	int nr = 3 + head->join.nr_params + NR_TAIL, k = 0, err;
	const char **fields = calloc(nr + 1, sizeof(*fields));

	if (!fields)
		return -ENOMEM;
	fields[k++] = "base";
	fields[k++] = "new";
	fields[k++] = "experiment";
	for (int i = 0; i < head->join.nr_params; i++)
		fields[k++] = head->join.params[i];
	for (int i = 0; i < NR_TAIL; i++)
		fields[k++] = csv_tail[i];
	fields[k] = "program";
	err = csv_write_row(f, fields, nr + prog_col);
	free(fields);
	return err;
}

/* One table for every NEW: a header, then a row per metric of each point (one if none). */
static int print_csv(FILE *f, const struct comparison *cs, int nr)
{
	bool prog_col = false;
	int err;

	for (int n = 0; n < nr; n++)
		prog_col |= cs[n].pfigs != NULL;
	err = csv_header(f, &cs[0], prog_col);

	for (int n = 0; n < nr; n++) {
		for (int i = 0; !err && i < cs[n].nr_pts; i++) {
			const struct point_cmp *p = &cs[n].pts[i];

			if (p->state != PS_COMPARED)
				err = csv_row(f, &cs[0], &cs[n], p, NULL, prog_col);
			/* every field, but of the metrics -e picked */
			for (int s = 0; !err && p->state == PS_COMPARED && s < cs[n].nr_show; s++)
				err = csv_row(f, &cs[0], &cs[n], p, &p->m[cs[n].show[s]],
					      prog_col);
			if (!err && cs[n].pfigs)
				err = csv_prog_rows(f, &cs[0], &cs[n], p);
		}
	}
	return err;
}

static struct json_object *json_moments(const struct cmp_moments *m)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_num(m->mean));
	json_object_object_add(o, "stddev", json_num(m->sd));
	json_object_object_add(o, "n", m->n < 0 ? NULL : json_object_new_int64(m->n));
	return o;
}

/*
 * The unit of the numbers JSON carries, as run's JSON names it: "hits/s",
 * "bytes", "ns"; the text's unit goes beside it as display_unit.
 */
static void json_units(struct json_object *o, const struct metric_cmp *m)
{
	char unit[80];

	if (m->info->kind == CMP_PER_RUN)
		snprintf(unit, sizeof(unit), "%s", metric_per_run_unit()->name);
	else
		metric_base_unit(m->metric, m->info->kind == CMP_LEVEL ? MK_GAUGE : MK_COUNTER,
				 m->info->unit->name, unit, sizeof(unit));
	json_object_object_add(o, "unit", json_object_new_string(unit));
	json_object_object_add(o, "display_unit", json_object_new_string(m->info->unit->name));
}

static struct json_object *json_metric(const struct point_cmp *p, const struct metric_cmp *m)
{
	struct json_object *o = json_object_new_object();
	char decision[600];

	json_object_object_add(o, "metric", json_object_new_string(m->metric));
	json_object_object_add(o, "better", json_object_new_string(better_text[m->info->dir]));
	json_object_object_add(o, "better_from", json_object_new_string(
		m->info->guessed ? "name" : "meta"));
	json_units(o, m);
	json_object_object_add(o, "base", json_moments(&m->base));
	json_object_object_add(o, "new", json_moments(&m->new));
	json_object_object_add(o, "delta", json_num(m->new.mean - m->base.mean));
	json_object_object_add(o, "delta_pct", json_num(m->delta_pct));
	json_object_object_add(o, "t", json_num(m->test.t));
	json_object_object_add(o, "df", json_num(m->test.df));
	json_object_object_add(o, "p", json_num(m->test.p));
	json_object_object_add(o, "verdict",
			       json_object_new_string(cmp_verdict_text(m->verdict, m->info->dir)));
	json_object_object_add(o, "tested",
			       json_object_new_string(cmp_verdict_text(m->tested, m->info->dir)));
	json_object_object_add(o, "delta_lo_pct", json_num(m->decision.lo_pct));
	json_object_object_add(o, "delta_hi_pct", json_num(m->decision.hi_pct));
	json_object_object_add(o, "interval_level", json_num(m->decision.level));
	compare_verdict_text(p, m, decision, sizeof(decision));
	json_object_object_add(o, "decision", json_object_new_string(decision));
	return o;
}

/*
 * A parameter's value as run's JSON gives it (export.c): an integer (sizes
 * are in bytes in summary.csv) as a number, a switch (on/off) as a
 * boolean, a choice as its name.
 */
static struct json_object *json_param(const char *text)
{
	char *end;
	long long v;

	if (!strcmp(text, "on") || !strcmp(text, "off"))
		return json_object_new_boolean(!strcmp(text, "on"));
	errno = 0;
	v = strtoll(text, &end, 10);
	if (*text && !*end && !errno && !isspace((unsigned char)*text))
		return json_object_new_int64(v);
	return json_object_new_string(text);
}

static struct json_object *json_point(const struct comparison *c, const struct point_cmp *p)
{
	struct json_object *o = json_object_new_object(), *params = json_object_new_object();
	struct json_object *metrics = json_object_new_array();

	json_object_object_add(o, "experiment", json_object_new_string(p->experiment));
	json_object_object_add(o, "label", json_object_new_string(p->label));
	for (int i = 0; i < c->join.nr_params; i++)
		json_object_object_add(params, c->join.params[i], json_param(point_param(c, p, i)));
	json_object_object_add(o, "parameters", params);
	json_object_object_add(o, "state", json_object_new_string(state_text[p->state]));
	json_object_object_add(o, "reason", json_object_new_string(p->reason));
	if (p->state == PS_COMPARED) {
		json_object_object_add(o, "base_quality", json_object_new_string(p->flags[0]));
		json_object_object_add(o, "new_quality", json_object_new_string(p->flags[1]));
	}
	for (int s = 0; p->state == PS_COMPARED && s < c->nr_show; s++)
		json_object_array_add(metrics, json_metric(p, &p->m[c->show[s]]));
	json_object_object_add(o, "metrics", metrics);
	if (c->pfigs && p->state == PS_COMPARED)
		json_object_object_add(o, "programs", compare_programs_json(c, p));
	return o;
}

/* A side's value, null where it has none (a system warning of the other side only). */
static struct json_object *json_side(const char *value)
{
	return *value ? json_object_new_string(value) : NULL;
}

static struct json_object *json_differences(const struct comparison *c)
{
	struct json_object *list = json_object_new_array();
	char text[700];

	for (int i = 0; i < c->nr_diffs; i++) {
		struct json_object *o = json_object_new_object();

		compare_difference_text(&c->diffs[i], text, sizeof(text));
		json_object_object_add(o, "key", json_object_new_string(c->diffs[i].key));
		json_object_object_add(o, "base", json_side(c->diffs[i].base));
		json_object_object_add(o, "new", json_side(c->diffs[i].new));
		json_object_object_add(o, "text", json_object_new_string(text));
		json_object_array_add(list, o);
	}
	return list;
}

static struct json_object *json_comparison(const struct comparison *c)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
	struct json_object *notes = json_object_new_array();

	json_object_object_add(o, "new", json_object_new_string(c->new_dir));
	json_object_object_add(o, "by_title", json_object_new_boolean(c->join.by_title));
	for (int i = 0; i < c->nr_notes; i++)
		json_object_array_add(notes, json_object_new_string(c->notes[i]));
	json_object_object_add(o, "notes", notes);
	json_object_object_add(o, "differences", json_differences(c));
	for (int i = 0; i < c->nr_pts; i++)
		json_object_array_add(pts, json_point(c, &c->pts[i]));
	json_object_object_add(o, "points", pts);
	return o;
}

static int print_json(FILE *f, const struct comparison *cs, int nr, double alpha)
{
	struct json_object *root = json_object_new_object(), *list = json_object_new_array();

	if (!root || !list) {
		json_object_put(root);
		json_object_put(list);
		return -ENOMEM;
	}
	json_object_object_add(root, "base", json_object_new_string(cs[0].base_dir));
	json_object_object_add(root, "alpha", json_num(alpha));
	json_object_object_add(root, "test", json_object_new_string("welch-t-two-sided"));
	for (int i = 0; i < nr; i++)
		json_object_array_add(list, json_comparison(&cs[i]));
	json_object_object_add(root, "comparisons", list);
	return json_print(f, root);
}

int compare_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
		  double alpha)
{
	if (fmt == OF_CSV)
		return print_csv(f, cs, nr);
	if (fmt == OF_JSON)
		return print_json(f, cs, nr, alpha);
	for (int i = 0; i < nr; i++) {
		int err = fmt == OF_MARKDOWN ? compare_print_markdown(f, &cs[i], alpha, i == 0) :
			  compare_print_text(f, &cs[i], alpha, i == 0);

		err = err ?: compare_programs_print(f, &cs[i], fmt == OF_MARKDOWN);
		if (err)
			return err;
	}
	return ferror(f) ? -EIO : 0;
}
