// SPDX-License-Identifier: GPL-2.0
/*
 * compare --paired BASE NEW [BASE NEW...]: each pair is one round of two
 * sweeps run interleaved (BASE's round 1, NEW's round 1, BASE's round 2,
 * ...), compared as any BASE with its NEW (cmd_compare.c).  Here a point's
 * rounds are gathered across the pairs, by its experiment and parameter
 * values, and each metric's NEW / BASE is taken round by round
 * (cmp_paired_ratio: their geometric mean and its interval), printed as
 * text or CSV.  docs/compare.md, "Paired rounds".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"
#include "pointkey.h"
#include "csvfile.h"

#define MIN_LABEL_WIDTH 20

/* Where a point is in round r: cs[r].pts[idx[r]], idx -1 where the round lacks it. */
struct rounds {
	const struct comparison *cs;
	int nr;				/* rounds */
	const struct point_cmp *first;	/* its label and experiment */
	int *idx;
	int nr_compared;		/* rounds where both sides ran it ok */
	const struct point_cmp *not_ok;	/* the first round's entry that was not */
	int nr_not_ok;
};

static const char *cmp_param_name(const struct point_key *k, int p)
{
	return ((const struct comparison *)k->with)->join.params[p];
}

static const char *cmp_param_value(const struct point_key *k, int p, char *buf, size_t len)
{
	return point_param(k->with, k->of, p);
}

/* p of comparison c as a point (pointkey.h): its experiment, the parameters of c's join. */
static struct point_key cmp_key(const struct comparison *c, const struct point_cmp *p)
{
	return (struct point_key){ .experiment = p->experiment, .nr = c->join.nr_params,
				   .name = cmp_param_name, .value = cmp_param_value, .of = p,
				   .with = c };
}

static bool same_point(const struct comparison *ca, const struct point_cmp *a,
		       const struct comparison *cb, const struct point_cmp *b)
{
	struct point_key ka = cmp_key(ca, a), kb = cmp_key(cb, b);

	return point_same(&ka, &kb, -1);
}

/* Is cs[r].pts[i] the first of its point, over the rounds in order? */
static bool first_seen(const struct comparison *cs, int r, int i)
{
	for (int k = 0; k <= r; k++)
		for (int j = 0; j < (k < r ? cs[k].nr_pts : i); j++)
			if (same_point(&cs[k], &cs[k].pts[j], &cs[r], &cs[r].pts[i]))
				return false;
	return true;
}

static int gather(const struct comparison *cs, int nr, int r0, int i0, struct rounds *r)
{
	*r = (struct rounds){ .cs = cs, .nr = nr, .first = &cs[r0].pts[i0] };
	r->idx = calloc(nr, sizeof(*r->idx));
	if (!r->idx)
		return -ENOMEM;
	for (int k = 0; k < nr; k++) {
		r->idx[k] = -1;
		for (int j = 0; j < cs[k].nr_pts && r->idx[k] < 0; j++)
			if (same_point(&cs[r0], r->first, &cs[k], &cs[k].pts[j]))
				r->idx[k] = j;
		if (r->idx[k] >= 0 && cs[k].pts[r->idx[k]].state == PS_COMPARED) {
			r->nr_compared++;
			continue;
		}
		if (!r->not_ok && r->idx[k] >= 0)
			r->not_ok = &cs[k].pts[r->idx[k]];
		r->nr_not_ok++;
	}
	return 0;
}

/* Metric name's mean on each side of every round both sides ran, and their ratio. */
static int ratio_of(const struct rounds *r, const char *name, const struct decide_rule *rule,
		    struct cmp_ratio *out)
{
	double *b = calloc(r->nr + 1, sizeof(*b)), *n = calloc(r->nr + 1, sizeof(*n));
	int k = 0, err = -ENOMEM;

	for (int i = 0; b && n && i < r->nr; i++) {
		const struct comparison *c = &r->cs[i];
		const struct point_cmp *p = r->idx[i] >= 0 ? &c->pts[r->idx[i]] : NULL;

		if (!p || p->state != PS_COMPARED)
			continue;
		for (int m = 0; m < c->nr_metrics; m++) {
			if (strcmp(c->metrics[m], name))
				continue;
			b[k] = p->m[m].base.mean;
			n[k++] = p->m[m].new.mean;
		}
	}
	if (b && n)
		err = cmp_paired_ratio(b, n, k, rule->alpha, rule->bound_pct, out);
	free(b);
	free(n);
	return err;
}

static const char *const state_text[] = {
	[PS_COMPARED] = "compared", [PS_BASE_ONLY] = "base only",
	[PS_NEW_ONLY] = "new only", [PS_NOT_COMPARED] = "not compared",
};

/* "1 of 3 rounds not compared: new failed: ...", "2 of 3 rounds lack the point" */
static void rounds_note(const struct rounds *r, char *buf, size_t len)
{
	const struct point_cmp *p = r->not_ok;

	buf[0] = '\0';
	if (p)
		snprintf(buf, len, "%d of %d rounds %s%s%s", r->nr_not_ok, r->nr,
			 state_text[p->state], *p->reason ? ": " : "", p->reason);
	else if (r->nr_not_ok)
		snprintf(buf, len, "%d of %d rounds lack the point", r->nr_not_ok, r->nr);
}

static void fmt_ratio(const struct cmp_ratio *x, char *buf, size_t len)
{
	char decision[160];

	decide_text(&x->decision, NULL, decision, sizeof(decision));
	if (!x->n)
		snprintf(buf, len, "n/a (no round with both means above 0)");
	else if (isnan(x->lo))
		snprintf(buf, len, "%.3f  (1 round)", x->ratio);
	else
		snprintf(buf, len, "%.3f [%.3f, %.3f]  %.3f-%.3f  %d rounds  %s", x->ratio, x->lo,
			 x->hi, x->min, x->max, x->n, decision);
}

struct widths {
	int label, metric;
};

static struct widths widths_of(const struct comparison *cs, int nr)
{
	struct widths w = { .label = MIN_LABEL_WIDTH };

	for (int r = 0; r < nr; r++) {
		for (int i = 0; i < cs[r].nr_pts; i++)
			if ((int)strlen(cs[r].pts[i].label) + 2 > w.label)
				w.label = strlen(cs[r].pts[i].label) + 2;
		for (int m = 0; m < cs[r].nr_metrics; m++)
			if ((int)strlen(cs[r].metrics[m]) > w.metric)
				w.metric = strlen(cs[r].metrics[m]);
	}
	return w;
}

/* The metrics are round 1's (every round of one pair of specs has the same). */
static int text_point(FILE *f, const struct rounds *r, const struct decide_rule *rule,
		      const struct widths *w)
{
	const struct comparison *c = &r->cs[0];
	struct cmp_ratio x;
	char buf[320], note[700];
	int err = 0;

	rounds_note(r, note, sizeof(note));
	if (!r->nr_compared) {
		fprintf(f, "%-*s%s\n", w->label, r->first->label, note);
		return 0;
	}
	for (int m = 0; !err && m < c->nr_metrics; m++) {
		err = ratio_of(r, c->metrics[m], rule, &x);
		fmt_ratio(&x, buf, sizeof(buf));
		fprintf(f, "%-*s%-*s  %s\n", w->label, m ? "" : r->first->label, w->metric,
			c->metrics[m], buf);
	}
	if (*note)
		fprintf(f, "%-*s%s\n", w->label, "", note);
	return err;
}

static void underline(FILE *f, const char *title)
{
	fprintf(f, "\n%s\n", title);
	for (const char *s = title; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			fputc('=', f);
	fputc('\n', f);
}

static void text_head(FILE *f, const struct comparison *cs, int nr,
		      const struct decide_rule *rule)
{
	char base[512], new[512], more[48] = "";

	compare_describe_set(cs[0].base, base, sizeof(base));
	compare_describe_set(cs[0].new, new, sizeof(new));
	if (nr > 1)
		snprintf(more, sizeof(more), ", and %d more round%s", nr - 1, nr == 2 ? "" : "s");
	fprintf(f, "base: %s%s%s\nnew:  %s%s%s\n", cs[0].base_dir, base, more, cs[0].new_dir,
		new, more);
	fprintf(f, "paired rounds: new / base of each round's means, their geometric mean "
		"[%g%% interval, Student's t]  min-max  rounds  decision (same: within "
		"\xc2\xb1%g%%)\n", 100 * (1 - rule->alpha), rule->bound_pct);
	for (int i = 0; i < cs[0].nr_notes; i++)
		fprintf(f, "note: %s\n", cs[0].notes[i]);
}

/* Calls fn on every point, in the order the rounds first list them. */
static int each_point(FILE *f, const struct comparison *cs, int nr,
		      const struct decide_rule *rule,
		      int (*fn)(FILE *, const struct rounds *, const struct decide_rule *, void *),
		      void *arg)
{
	struct rounds r;
	int err = 0;

	for (int k = 0; !err && k < nr; k++) {
		for (int i = 0; !err && i < cs[k].nr_pts; i++) {
			if (!first_seen(cs, k, i))
				continue;
			err = gather(cs, nr, k, i, &r) ?: fn(f, &r, rule, arg);
			free(r.idx);
		}
	}
	return err;
}

struct text_ctx {
	struct widths w;
	const char *exp;		/* the experiment of the last point printed */
};

static int text_fn(FILE *f, const struct rounds *r, const struct decide_rule *rule,
		   void *arg)
{
	struct text_ctx *t = arg;

	if (!t->exp || strcmp(t->exp, r->first->experiment))
		underline(f, t->exp = r->first->experiment);
	return text_point(f, r, rule, &t->w);
}

static const char *const csv_head[] = {
	"base", "new", "experiment", "label", "metric", "rounds", "compared", "ratio",
	"ci_low", "ci_high", "min", "max", "note", "decision",
};
#define NR_CSV_COLS	(int)(sizeof(csv_head) / sizeof(csv_head[0]))

static void num(char *buf, size_t len, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.6f", v);
}

/* One row per metric; one without a metric for a point no round of which both ran. */
static int csv_fn(FILE *f, const struct rounds *r, const struct decide_rule *rule,
		  void *arg)
{
	const struct comparison *c = &r->cs[0];
	struct cmp_ratio x = { .ratio = NAN, .lo = NAN, .hi = NAN, .min = NAN, .max = NAN };
	char v[7][32], note[700], decision[160] = "";
	const char *row[NR_CSV_COLS] = {
		c->base_dir, c->new_dir, r->first->experiment, r->first->label, "",
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], note, decision,
	};
	int err = 0;

	(void)arg;
	rounds_note(r, note, sizeof(note));
	snprintf(v[0], sizeof(v[0]), "%d", r->nr);
	snprintf(v[1], sizeof(v[1]), "%d", r->nr_compared);
	for (int m = 0; !err && m < (r->nr_compared ? c->nr_metrics : 1); m++) {
		if (r->nr_compared) {
			err = ratio_of(r, c->metrics[m], rule, &x);
			row[4] = c->metrics[m];
			decide_text(&x.decision, NULL, decision, sizeof(decision));
		}
		num(v[2], sizeof(v[2]), x.ratio);
		num(v[3], sizeof(v[3]), x.lo);
		num(v[4], sizeof(v[4]), x.hi);
		num(v[5], sizeof(v[5]), x.min);
		num(v[6], sizeof(v[6]), x.max);
		err = err ?: csv_write_row(f, row, NR_CSV_COLS);
	}
	return err;
}

int compare_paired_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
			 double alpha, double bound_pct)
{
	struct decide_rule rule = { .alpha = alpha, .bound_pct = bound_pct };
	struct text_ctx t = { .w = widths_of(cs, nr) };
	int err;

	if (fmt == OF_CSV) {
		err = csv_write_row(f, csv_head, NR_CSV_COLS) ?:
		      each_point(f, cs, nr, &rule, csv_fn, NULL);
	} else {
		text_head(f, cs, nr, &rule);
		err = each_point(f, cs, nr, &rule, text_fn, &t);
	}
	return err ?: ferror(f) ? -EIO : 0;
}
