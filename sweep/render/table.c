// SPDX-License-Identifier: GPL-2.0
/*
 * The cover-letter table, in the format of the kernel's run_bench_*.sh:
 * a title, an underline, and per point a left-aligned label and
 * "mean ± stddev" of each metric; numbers come from stats.c.
 * A row with quality flags ends in them, " [cv=37%]", and a legend after
 * the table explains each flag once, "[cv=N%] the intervals' stddev ...".
 * The same blocks also come as GitHub markdown tables (--format markdown):
 * a "###" heading per title, a column per metric, notes and the legend below.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "loadnote.h"
#include "matrix.h"
#include "metric.h"
#include "outfmt.h"
#include "progrun.h"
#include "table.h"
#include "template.h"

#define LABEL_LEN	256
#define MIN_LABEL_WIDTH	20	/* the kernel scripts' printf "%-20s" */
#define VALUES_LEN	1024

/* Characters, not bytes: titles and labels may hold "±" or "→". */
static int utf8_len(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A row of a view, for a label's {name}. */
struct label_ctx {
	const struct result_view *v;
	const struct view_row *r;
};

/* A parameter's value, as the CSV holds it, for a label's {name}. */
static bool param_value(const char *name, const void *ctx, char *buf, size_t len)
{
	const struct label_ctx *lc = ctx;
	const struct workload *wl = &lc->v->schema;
	int p = param_index(wl->params, wl->nr_params, name);

	if (p < 0)
		return false;
	param_format(&wl->params[p], lc->r->v[p], buf, len);
	return true;
}

/* "producers=4 overwrite=off": the parameters that vary in r's experiment, outermost first. */
static size_t row_varying(const struct result_view *v, const struct view_row *r, char *buf,
			  size_t len)
{
	const struct view_exp *e = &v->exps[r->exp];
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int a = 0; a < e->nr_order && n < len; a++) {
		int k = e->order[a];
		char val[128];

		if (e->nr_vals[k] < 2)
			continue;
		param_format(&v->params[k], r->v[k], val, sizeof(val));
		n += snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", v->params[k].name, val);
	}
	return n < len ? n : len;
}

void table_label(const struct result_view *v, const struct view_row *r, char *buf, size_t len)
{
	const struct view_exp *e = &v->exps[r->exp];
	struct label_ctx lc = { v, r };

	if (!len)
		return;
	if (e->label)
		template_expand(e->label, param_value, &lc, buf, len);
	else if (!row_varying(v, r, buf, len))
		snprintf(buf, len, "%s", view_exp_title(v, e));
}

static void print_metric(FILE *out, const struct workload *wl, int m, const struct summary *s)
{
	char buf[128];

	metric_format_sd_n(s->mean, s->stddev, s->n, metric_default_unit(&wl->metrics[m]), buf,
			   sizeof(buf));
	fputs(buf, out);
}

/* A row and its baseline point (NULL: none) for its values template. */
struct row_ctx {
	const struct workload *wl;	/* the view's schema */
	const struct view_row *r;
	const struct view_row *base;
	bool *per_run_shown;		/* set when a field showed the kernel's ns per run */
};

/* A {metric.stat:unit} field of a values template: see metric.h. */
static bool field_value(const char *name, const void *ctx, char *buf, size_t len)
{
	const struct row_ctx *rc = ctx;
	struct metric_field f;
	char why[256];
	size_t at;

	if (metric_field_parse(rc->wl, name, strlen(name), &f, &at, why, sizeof(why)))
		return false;
	metric_field_format(&f, rc->r, rc->base, buf, len);
	/* a number, not n/a: the block's note says where it came from */
	if (f.stat == FS_PER_RUN && rc->r->per_run.n > 0)
		*rc->per_run_shown = true;
	return true;
}

/*
 * The program counters stay out of the default row: their rates say little
 * alone, and their cost per run (ns_per_run) comes from a separate pass under
 * bpf_stats that does not hold still between runs: 3.2 µs at 1 producer and
 * 84 µs at 2 on a 2-CPU machine, -80 % and +220 % in an A/A pair.  It is in
 * summary.csv and the exports; a values template asks for it by name
 * ({prog_ns.per_run}).  The load's figures (WL_LOAD_METRICS: eight of
 * them, the same in every row of one program) would crowd out the rates
 * a row is for: they are in summary.csv, the exports and compare, and a
 * template names them ({total_insns}, {jited_size}).
 */
static bool is_prog_metric(const struct metric_def *d)
{
	return d->source == MS_PROG_RUNS || d->source == MS_PROG_NS || d->source == MS_LOAD;
}

/* A row's values as one text: "unsupported: why", or its values template expanded. */
static bool single_value(const struct view_exp *e, const struct workload *wl,
			 const struct row_ctx *rc, char *buf, size_t len)
{
	const char *tpl = e->values ? e->values : wl->values;
	const struct view_row *r = rc->r;

	if (r->status != PS_OK) {
		snprintf(buf, len, "%s%s%s", point_status_name(r->status), r->reason[0] ? ": " : "",
			 r->reason);
		return true;
	}
	if (tpl)
		template_expand(tpl, field_value, rc, buf, len);
	return tpl != NULL;
}

/*
 * The default row's "(3.742M/prod" after the headline rate, as the kernel
 * bench's Summary line has it, where the workload has producers.  How
 * many printed.
 */
static int print_per_prod(FILE *out, const struct workload *wl, const struct view_row *r)
{
	char buf[64];

	if (wl->metrics[0].kind != MK_COUNTER || !wl_has_producers(wl) || r->nr_producers <= 0)
		return 0;
	metric_format_per_prod(r->stat[0].mean, r->nr_producers,
			       metric_default_unit(&wl->metrics[0]), buf, sizeof(buf));
	fprintf(out, " (%s", buf);
	return 1;
}

/*
 * "14.970 ± 0.012M/s (drops 0.000 ± 0.000M/s, ...)", the values template
 * expanded, or "unsupported: why"
 */
static void print_values(FILE *out, const struct view_exp *e, const struct workload *wl,
			 const struct row_ctx *rc)
{
	const struct view_row *r = rc->r;
	char buf[VALUES_LEN];
	int n = 0;

	if (single_value(e, wl, rc, buf, sizeof(buf))) {
		fputs(buf, out);
		return;
	}
	print_metric(out, wl, 0, &r->stat[0]);
	n += print_per_prod(out, wl, r);
	for (int m = 1; m < wl->nr_metrics; m++) {
		if (is_prog_metric(&wl->metrics[m]))
			continue;
		fprintf(out, "%s%s ", n++ ? ", " : " (", wl->metrics[m].name);
		print_metric(out, wl, m, &r->stat[m]);
	}
	if (n)
		fputc(')', out);
}

/*
 * A markdown row's value cells: its one text (status, values template) or
 * a cell per metric, as md_head() names them.  How many printed.
 */
static int md_values(FILE *out, const struct view_exp *e, const struct workload *wl,
		     const struct row_ctx *rc)
{
	const struct view_row *r = rc->r;
	char buf[VALUES_LEN];
	int n = 0;

	if (single_value(e, wl, rc, buf, sizeof(buf))) {
		md_cell(out, buf);
		return 1;
	}
	for (int m = 0; m < wl->nr_metrics; m++) {
		if (is_prog_metric(&wl->metrics[m]))
			continue;
		metric_format_sd_n(r->stat[m].mean, r->stat[m].stddev, r->stat[m].n,
				   metric_default_unit(&wl->metrics[m]), buf, sizeof(buf));
		md_cell(out, buf);
		n++;
	}
	return n;
}

/*
 * With decide, what a row says against its baseline: summary.csv's
 * decision ("different: +5.0 % [+4.9, +5.1]", "baseline" for the point its
 * arms ran in rounds with), "" for a point that ran on its own; nothing in
 * a run without decide, whose baseline figures are its own.
 */
static const char *decision_of(const struct result_view *v, const struct row_ctx *rc)
{
	return v->decisions ? rc->r->decision : "";
}

/* How many value columns a markdown table of e has: see md_values(), and a decision's. */
static int md_columns(const struct result_view *v, const struct view_exp *e,
		      const struct workload *wl)
{
	int n = v->decisions;

	if (e->values || wl->values)
		return n + 1;
	for (int m = 0; m < wl->nr_metrics; m++)
		n += !is_prog_metric(&wl->metrics[m]);
	return n;
}

/* The column heads: "| point | hits | drops |", metrics right-aligned, then "decision". */
static void md_head(FILE *out, const struct result_view *v, const struct view_exp *e,
		    const struct workload *wl, int cols)
{
	bool one = e->values || wl->values;

	fputs(one ? "| point | values " : "| point ", out);
	for (int m = 0; !one && m < wl->nr_metrics; m++)
		if (!is_prog_metric(&wl->metrics[m]))
			md_cell(out, wl->metrics[m].name);
	if (v->decisions)
		md_cell(out, "decision");
	fputs("|\n| --- ", out);
	for (int i = 0; i < cols; i++)
		fputs(one || (v->decisions && i == cols - 1) ? "| --- " : "| ---: ", out);
	fputs("|\n", out);
}

/* Empty cells after the first done of cols. */
static void md_end_row_cells(FILE *out, int done, int cols)
{
	for (; done < cols; done++)
		fputs("| ", out);
}

/* Empty cells after the first done of cols, and the row's end. */
static void md_end_row(FILE *out, int done, int cols)
{
	md_end_row_cells(out, done, cols);
	fputs("|\n", out);
}

/* "0:hash_kmalloc 203983 events per sec": each producer's rate, map_perf_test's form. */
static void print_workers(FILE *out, const struct workload *wl, bool md, int md_cols,
			  const struct view_row *r, const char *label)
{
	int m = wl_thread_metric(wl);
	char name[LABEL_LEN + 16], rate[96];

	if (r->status != PS_OK || m < 0 || !r->thread_rate)
		return;
	for (int i = 0; i < r->nr_producers; i++) {
		snprintf(name, sizeof(name), "%d:%s", i, label);
		snprintf(rate, sizeof(rate), "%.0f %s per sec", r->thread_rate[i],
			 wl->metrics[m].name);
		if (!md) {
			fprintf(out, "%s %s\n", name, rate);
			continue;
		}
		md_cell(out, name);
		md_cell(out, rate);
		md_end_row(out, 1, md_cols);
	}
}

/* The flags a table's rows were marked with: its legend explains each once. */
struct notes {
	unsigned flags;
	bool md;
};

/*
 * " [cv=37%, zero=4/5, after 3 tries]" after a row with quality flags: the
 * row's own figures, where a footnote line per row explained its flags again.
 */
static void mark_row(FILE *out, struct notes *nt, const struct view_row *r)
{
	char marks[512], tries[32] = "";

	if (r->status != PS_OK || !r->quality.flags)
		return;
	nt->flags |= r->quality.flags;
	quality_marks(&r->quality, marks, sizeof(marks));
	if (r->tries > 1)
		snprintf(tries, sizeof(tries), ", after %d tries", r->tries);
	fprintf(out, nt->md ? "[%s%s] " : " [%s%s]", marks, tries);
}

/*
 * After the table, a blank line and what each flag its rows show means,
 * once ("[cv=N%] the intervals' stddev is N% of their mean, over 10%");
 * markdown: a paragraph each.
 */
static void print_legend(FILE *out, const struct result_view *v, const struct notes *nt)
{
	char legend[2048];

	if (!nt->flags)
		return;
	quality_legend(nt->flags, v->max_cv, nt->md ? "\n\n" : "\n", legend, sizeof(legend));
	fprintf(out, "\n%s\n", legend);
}

/* One experiment's rows, in display order. */
struct block {
	const struct view_row **rows;
	char (*labels)[LABEL_LEN];
	int *group;		/* index of the row's group value in the group axis */
	int nr;
	int width;		/* of the label column: the table's longest label (label_width()) */
	/* the whole run's points, where a row's baseline point is found */
	const struct view_row *const *set;
	int nr_set;
	bool md;		/* a markdown table, not the bench's text */
	int md_cols;		/* its value columns */
};

static int group_of(const struct view_exp *e, const struct view_row *r)
{
	for (int i = 0; e->group >= 0 && i < e->nr_vals[e->group]; i++)
		if (e->vals[e->group][i] == r->v[e->group])
			return i;
	return 0;
}

/* Insertion sort: stable, so points keep their order inside a group. */
static void sort_by_group(struct block *b)
{
	for (int i = 1; i < b->nr; i++) {
		const struct view_row *r = b->rows[i];
		int g = b->group[i], j = i;

		for (; j > 0 && b->group[j - 1] > g; j--) {
			b->rows[j] = b->rows[j - 1];
			b->group[j] = b->group[j - 1];
		}
		b->rows[j] = r;
		b->group[j] = g;
	}
}

static int block_alloc(struct block *b, int nr)
{
	memset(b, 0, sizeof(*b));
	b->rows = calloc(nr ? nr : 1, sizeof(*b->rows));
	b->labels = calloc(nr ? nr : 1, sizeof(*b->labels));
	b->group = calloc(nr ? nr : 1, sizeof(*b->group));
	return b->rows && b->labels && b->group ? 0 : -ENOMEM;
}

static void block_free(struct block *b)
{
	free(b->rows);
	free(b->labels);
	free(b->group);
}

static int block_build(struct block *b, const struct result_view *v, int exp,
		       const struct view_row *const *rows, int nr, bool md)
{
	const struct view_exp *e = &v->exps[exp];
	int err = block_alloc(b, nr);

	if (err)
		return err;
	b->set = rows;
	b->nr_set = nr;
	b->md = md;
	b->md_cols = md_columns(v, e, &v->schema);
	for (int i = 0; i < nr; i++) {
		if (rows[i]->exp != exp)
			continue;
		b->rows[b->nr] = rows[i];
		b->group[b->nr++] = group_of(e, rows[i]);
	}
	sort_by_group(b);
	for (int i = 0; i < b->nr; i++)
		table_label(v, b->rows[i], b->labels[i], LABEL_LEN);
	return 0;
}

/*
 * How groups show.  When every label names its group value (no template:
 * the varying parameters do; or a template with {group}), a blank line
 * between groups of several rows is enough.  Otherwise rows of different
 * groups would read the same, so each group gets its own titled block,
 * "Title (overwrite=on)", like the kernel's run scripts print them.
 */
enum group_style { GROUPS_NONE, GROUPS_BLANK, GROUPS_TITLED };

static enum group_style group_style(const struct result_view *v, const struct view_exp *e,
				    const struct block *b)
{
	bool several_groups = false, several_rows = false;
	char ref[80];

	for (int i = 1; i < b->nr; i++) {
		several_groups |= b->group[i] != b->group[0];
		several_rows |= b->group[i] == b->group[i - 1];
	}
	if (e->group < 0 || !several_groups)
		return GROUPS_NONE;
	snprintf(ref, sizeof(ref), "{%s}", v->params[e->group].name);
	if (e->label && !strstr(e->label, ref))
		return GROUPS_TITLED;
	return several_rows ? GROUPS_BLANK : GROUPS_NONE;
}

void table_title_notes(const struct run_facts *facts, char *buf, size_t len)
{
	/* numbers from a few short intervals must not reach a cover letter unnoticed */
	size_t n = snprintf(buf, len, "%s", facts && facts->quick ? " (smoke run: --quick)" : "");

	/* nor numbers of an emulated CPU, however long they ran */
	if (facts && facts->tcg && n < len)
		n += snprintf(buf + n, len - n, RUN_TCG_NOTE);
	/* nor instruction counts read as time: they repeat, but are no hardware's speed */
	if (facts && facts->icount && n < len)
		snprintf(buf + n, len - n, RUN_ICOUNT_NOTE);
}

/* The title, with r's group value when given, underlined to its length. */
static void print_title(FILE *out, const struct result_view *v, const struct view_exp *e,
			const struct view_row *r, const struct run_facts *facts, bool md)
{
	char title[LABEL_LEN + 160], val[128];
	size_t n;

	if (r) {
		param_format(&v->params[e->group], r->v[e->group], val, sizeof(val));
		n = snprintf(title, sizeof(title), "%s (%s=%s)", view_exp_title(v, e),
			     v->params[e->group].name, val);
	} else {
		n = snprintf(title, sizeof(title), "%s", view_exp_title(v, e));
	}
	if (n < sizeof(title))
		table_title_notes(facts, title + n, sizeof(title) - n);
	if (md) {
		fprintf(out, "### %s\n\n", title);
		return;
	}
	fprintf(out, "%s\n", title);
	for (int i = utf8_len(title); i > 0; i--)
		fputc('=', out);
	fputc('\n', out);
}

/*
 * Rows i and j are unsupported for the same reason in the same part of the
 * block (its titled group, when groups are titled): they share one line.
 */
static bool same_unsupported(const struct block *b, enum group_style style, int i, int j)
{
	const struct view_row *a = b->rows[i], *c = b->rows[j];

	return a->status == PS_UNSUPPORTED && c->status == PS_UNSUPPORTED &&
	       (style != GROUPS_TITLED || b->group[i] == b->group[j]) &&
	       !strcmp(a->reason, c->reason);
}

/* How many rows share row i's unsupported line; *first gets the first of them. */
static int count_unsupported(const struct block *b, enum group_style style, int i, int *first)
{
	int n = 0;

	*first = i;
	for (int j = 0; j < b->nr; j++) {
		if (!same_unsupported(b, style, i, j))
			continue;
		if (!n++)
			*first = j;
	}
	return n;
}

/* Is tok one of the blank-separated words of list? */
static bool has_word(const char *list, const char *tok)
{
	size_t len = strlen(tok);

	for (const char *p = strstr(list, tok); p; p = strstr(p + 1, tok))
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

/* "overwrite=on": the varying parameter values every row of row i's line shares. */
static void shared_values(const struct result_view *v, const struct block *b,
			  enum group_style style, int i, char *buf, size_t len)
{
	char mine[LABEL_LEN], other[LABEL_LEN], *tok, *save;
	size_t n = 0;

	buf[0] = '\0';
	row_varying(v, b->rows[i], mine, sizeof(mine));
	for (tok = strtok_r(mine, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		bool shared = true;

		for (int j = 0; j < b->nr && shared; j++) {
			if (!same_unsupported(b, style, i, j))
				continue;
			row_varying(v, b->rows[j], other, sizeof(other));
			shared = has_word(other, tok);
		}
		if (shared && n < len)
			n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", tok);
	}
}

/* "overwrite=on: 16 points unsupported: why", in place of their rows. */
static void print_unsupported(FILE *out, const struct result_view *v, const struct block *b,
			      enum group_style style, int i, int nr)
{
	char shared[LABEL_LEN], text[VALUES_LEN];
	const char *why = b->rows[i]->reason;

	shared_values(v, b, style, i, shared, sizeof(shared));
	if (b->md) {
		snprintf(text, sizeof(text), "%d points unsupported%s%s", nr, *why ? ": " : "",
			 why);
		md_cell(out, shared);
		md_cell(out, text);
		md_end_row(out, 1, b->md_cols);
		return;
	}
	fprintf(out, "%s%s%d points unsupported", shared, *shared ? ": " : "", nr);
	if (b->rows[i]->reason[0])
		fprintf(out, ": %s", b->rows[i]->reason);
	fputc('\n', out);
}

/*
 * Row i: its label and values, or its line of unsupported points (once).
 * True when it showed the kernel's ns per program run.
 */
static bool print_row(FILE *out, const struct result_view *v, const struct view_exp *e,
		      const struct block *b, enum group_style style, int i, struct notes *nt)
{
	int first, nr = count_unsupported(b, style, i, &first), done;
	bool per_run = false;
	struct row_ctx rc = { &v->schema, b->rows[i],
			      baseline_find_row(v, b->rows[i], b->set, b->nr_set), &per_run };

	if (nr >= 2) {
		if (first == i)
			print_unsupported(out, v, b, style, i, nr);
		return false;
	}
	if (b->md) {
		md_cell(out, b->labels[i]);
		done = md_values(out, e, &v->schema, &rc);
		mark_row(out, nt, b->rows[i]);
		if (v->decisions) {
			md_end_row_cells(out, done, b->md_cols - 1);
			md_cell(out, decision_of(v, &rc));
			done = b->md_cols;
		}
		md_end_row(out, done, b->md_cols);
	} else {
		fprintf(out, "%s%*s ", b->labels[i], b->width - utf8_len(b->labels[i]), "");
		print_values(out, e, &v->schema, &rc);
		if (*decision_of(v, &rc))
			fprintf(out, "  %s", decision_of(v, &rc));
		mark_row(out, nt, b->rows[i]);
		fputc('\n', out);
	}
	if (e->worker_rows)
		print_workers(out, &v->schema, b->md, b->md_cols, b->rows[i], b->labels[i]);
	if (v->under_row && !b->md)
		v->under_row(out, b->rows[i], b->width + 1, v->under_ctx);
	return per_run;
}

/* Is row i one that another row's unsupported line stands for? */
static bool folded(const struct block *b, enum group_style style, int i)
{
	int first;

	return count_unsupported(b, style, i, &first) >= 2 && first != i;
}

/*
 * "note: memory: no memory controller": the caveats of the block's ok
 * rows (why a number is n/a, or what it includes), each reason once.
 */
static void print_caveats(FILE *out, const struct block *b)
{
	for (int i = 0; i < b->nr; i++) {
		const struct view_row *r = b->rows[i];
		bool seen = false;

		if (r->status != PS_OK || !r->reason[0])
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = b->rows[j]->status == PS_OK && !strcmp(b->rows[j]->reason, r->reason);
		if (!seen)
			fprintf(out, "%snote: %s\n", b->md ? "\n" : "", r->reason);
	}
}

/*
 * Under a block where a row shows ns per run from the statistics pass (its
 * values template asks for it): where it comes from, and which runs it
 * averages when they are more than the workload's own (wl->prog_runs_scope).
 */
static void print_per_run_note(FILE *out, const struct workload *wl,
			       const struct run_facts *facts, const struct block *b, bool shown)
{
	if (!shown || !facts || !facts->per_run_pass)
		return;
	fprintf(out, "%snote: prog ns/run from a separate %g s pass of each point with bpf_stats "
		"on (off while the rates were measured)%s%s\n", b->md ? "\n" : "",
		facts->pass_s, wl->prog_runs_scope ? "; " : "",
		wl->prog_runs_scope ? wl->prog_runs_scope : "");
}

/*
 * Under TCG icount the guest has one vCPU: a point of more threads than
 * that ran them time-sliced on it, its rate the sum of their turns.  Said
 * once under the block, as a point of the host that shares CPUs is said
 * on stderr (cmd_run.c).
 */
static void print_timeslice_note(FILE *out, const struct block *b,
				 const struct run_facts *facts)
{
	int n = 0;

	for (int i = 0; facts && facts->icount && i < b->nr; i++) {
		const struct view_row *r = b->rows[i];

		n += r->status == PS_OK && r->nr_cpus &&
		     r->nr_producers + r->nr_consumers > r->nr_cpus;
	}
	if (n)
		fprintf(out, "%snote: %d point%s ran more threads than the guest's one vCPU "
			"(TCG icount): time-sliced on it\n", b->md ? "\n" : "", n,
			n == 1 ? "" : "s");
}

static void block_print(FILE *out, const struct result_view *v, const struct view_exp *e,
			const struct block *b, const struct run_facts *facts, struct notes *nt)
{
	enum group_style style = group_style(v, e, b);
	bool per_run = false;

	for (int i = 0; i < b->nr; i++) {
		bool new_group = i && b->group[i] != b->group[i - 1];

		if (folded(b, style, i))
			continue;
		if (!i || (new_group && style == GROUPS_TITLED)) {
			if (i)
				fputc('\n', out);
			print_title(out, v, e, style == GROUPS_TITLED ? b->rows[i] : NULL, facts,
				    b->md);
			if (b->md)
				md_head(out, v, e, &v->schema, b->md_cols);
		} else if (new_group && style == GROUPS_BLANK && !b->md) {
			/* a blank line would end a markdown table: groups just follow */
			fputc('\n', out);
		}
		per_run |= print_row(out, v, e, b, style, i, nt);
	}
	print_caveats(out, b);
	print_timeslice_note(out, b, facts);
	print_per_run_note(out, &v->schema, facts, b, per_run);
	table_load_note(out, &v->schema, b->rows, b->nr, b->md);
}

static bool known(const char *fact)
{
	return fact && *fact && strcmp(fact, "unknown");
}

/*
 * "- x86_64 (AMD EPYC 9654), kernel 6.18.0", as a cover letter names the
 * machine above its table: the kernel is half of what the numbers are of.
 */
static void print_machine(FILE *out, const struct run_facts *facts, bool md)
{
	if (!facts || !known(facts->arch))
		return;
	fprintf(out, "- %s", facts->arch);
	if (known(facts->cpu_model))
		fprintf(out, " (%s)", facts->cpu_model);
	if (known(facts->kernel_release))
		fprintf(out, ", kernel %s", facts->kernel_release);
	fputc('\n', out);
	/* markdown: the list item ends before the heading */
	if (md)
		fputc('\n', out);
}

/*
 * The label column's width: the longest label of the whole table, at
 * least the kernel scripts' 20, so that every block's numbers line up
 * (the scripts widen "%-20s" by hand where their labels are longer).
 */
static int label_width(const struct result_view *v, const struct view_row *const *rows, int nr)
{
	char label[LABEL_LEN];
	int width = MIN_LABEL_WIDTH;

	for (int i = 0; i < nr; i++) {
		table_label(v, rows[i], label, sizeof(label));
		if (utf8_len(label) > width)
			width = utf8_len(label);
	}
	return width;
}

static int render(FILE *out, const struct result_view *v, const struct run_facts *facts,
		  const struct view_row *const *rows, int nr, bool md)
{
	struct notes nt = { .md = md };
	int printed = 0, width = label_width(v, rows, nr);

	if (nr)
		print_machine(out, facts, md);

	for (int x = 0; x < v->nr_exps; x++) {
		struct block b;
		int err = block_build(&b, v, x, rows, nr, md);

		if (!err && b.nr) {
			if (printed++)
				fputc('\n', out);
			b.width = width;
			block_print(out, v, &v->exps[x], &b, facts, &nt);
		}
		block_free(&b);
		if (err)
			return err;
	}
	print_legend(out, v, &nt);
	return ferror(out) ? -EIO : 0;
}

int table_render(FILE *out, const struct result_view *v, const struct run_facts *facts,
		 const struct view_row *const *rows, int nr)
{
	return render(out, v, facts, rows, nr, false);
}

int table_render_markdown(FILE *out, const struct result_view *v, const struct run_facts *facts,
			  const struct view_row *const *rows, int nr)
{
	return render(out, v, facts, rows, nr, true);
}
