// SPDX-License-Identifier: GPL-2.0
/* The record of a bisect: see bisect_record.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bisect_record.h"
#include "csvfile.h"
#include "diag.h"
#include "heldir.h"
#include "meta.h"
#include "outdir.h"
#include "resultdir.h"
#include "textfile.h"

const char *bisect_term(const struct bisect_terms *t, enum bisect_verdict v)
{
	if (v == BV_GOOD)
		return t->good;
	return v == BV_BAD ? t->bad : bisect_verdict_name(v);
}

/*
 * OUT/kernels: "LABEL\tRELEASE\tIMAGE\tINCOMPLETE" a line, oldest first
 * (a release's image is fetched again from the cache: ""; INCOMPLETE 1
 * when it cannot be fetched).
 */
static int fill_kernels(FILE *f, const void *ctx)
{
	const struct bisect_list *l = ctx;

	for (int i = 0; i < l->n; i++)
		fprintf(f, "%s\t%s\t%s\t%d\n", l->k[i].label, l->k[i].release,
			l->k[i].release[0] ? "" : l->k[i].image, l->k[i].incomplete);
	return 0;
}

struct new_out {
	const char *argv_line;
	const struct bisect_terms *t;
	const struct bisect_list *l;
};

/* A new OUT's meta (the command line, its start, the terms) and OUT/kernels. */
static int fill_new_out(const struct outdir *od, void *arg)
{
	const struct new_out *n = arg;
	char terms[64];
	int err = resultdir_put_file(od->path, "meta", "", 0, false);

	snprintf(terms, sizeof(terms), "%s %s", n->t->good, n->t->bad);
	err = err ?: outdir_meta_append(od, "command", n->argv_line);
	err = err ?: outdir_meta_time(od, "start", time(NULL));
	err = err ?: outdir_meta_append(od, "bisect_terms", terms);
	err = err ?: resultdir_write_file(od->path, "kernels", false, fill_kernels, n->l);
	if (err)
		diag_err("cannot create the bisect's directory %s: %s", od->path, strerror(-err));
	return err;
}

int bisect_out_create(struct outdir *od, const char *out, const char *name,
		      const char *argv_line, const struct bisect_terms *t,
		      const struct bisect_list *l)
{
	struct new_out n = { .argv_line = argv_line, .t = t, .l = l };
	struct outdir_how how = {
		.who = "bpfsweep bisect", .out = out, .metavar = "OUT", .name = name,
		.suffix = "-bisect", .exists_hint = " (--resume OUT continues an earlier bisect)",
		.more = fill_new_out, .ctx = &n,
	};

	return outdir_open(od, &how);
}

/* One line of OUT/kernels into k. */
static int read_kernel(char *line, struct bisect_kernel *k)
{
	char *release = strchr(line, '\t'), *image = release ? strchr(release + 1, '\t') : NULL;
	char *incomplete = image ? strchr(image + 1, '\t') : NULL;

	if (!incomplete)
		return -EINVAL;
	*release++ = *image++ = *incomplete++ = '\0';
	*k = (struct bisect_kernel){ 0 };
	snprintf(k->label, sizeof(k->label), "%s", line);
	snprintf(k->release, sizeof(k->release), "%s", release);
	snprintf(k->image, sizeof(k->image), "%s", image);
	k->incomplete = !strcmp(incomplete, "1");
	return 0;
}

/* OUT/meta's bisect_terms: good and bad unless it says old and new. */
static void read_terms(const char *text, struct bisect_terms *t)
{
	if (strstr(text, "\nbisect_terms: old new\n"))
		*t = (struct bisect_terms){ "old", "new" };
}

int bisect_out_reopen(struct outdir *od, const char *out, struct bisect_list *l,
		      struct bisect_terms *t)
{
	struct outdir_how how = { .who = "bpfsweep bisect", .resume = out, .metavar = "OUT" };
	char path[PATH_MAX + 16], *text = NULL, *line, *save = NULL;
	int err = outdir_open(od, &how);

	/* held and locked (outdir.h): a second bisect --resume of OUT is refused */
	if (err)
		return err;

	snprintf(path, sizeof(path), "%s/kernels", out);
	err = err ?: read_text_file(path, &text);
	l->k = err ? NULL : calloc(BISECT_MAX_KERNELS, sizeof(*l->k));
	l->n = 0;
	for (line = l->k ? strtok_r(text, "\n", &save) : NULL; line && !err;
	     line = strtok_r(NULL, "\n", &save))
		err = l->n < BISECT_MAX_KERNELS ? read_kernel(line, &l->k[l->n++]) : -E2BIG;
	free(text);
	if (!err && l->n < 2)
		err = -EINVAL;
	snprintf(path, sizeof(path), "%s/meta", out);
	if (!err && !read_text_file(path, &text)) {
		read_terms(text, t);
		free(text);
	}
	if (err)
		diag_err("cannot resume %s: not a bisect's directory (%s/kernels: %s)", out, out,
			 strerror(-err));
	return err ?: outdir_meta_time(od, "resumed", time(NULL));
}

int bisect_step_dir(const char *out, const struct bisect_list *l, int k, char *buf, size_t len)
{
	const char *label = l->k[k].release[0] ? l->k[k].label : strrchr(l->k[k].label, '/');
	char name[64];
	int err;

	/* a user's image by its file name, anything but [A-Za-z0-9._+-] as _ */
	snprintf(name, sizeof(name), "%.63s", label ? label + (*label == '/') : l->k[k].label);
	for (char *p = name; *p; p++)
		if (!strchr("._+-", *p) && !(*p >= '0' && *p <= '9') &&
		    !((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
			*p = '_';
	snprintf(buf, len, "%s/steps", out);
	err = heldir_mkdir(buf, 0755);
	snprintf(buf, len, "%s/steps/%03d-%s", out, k, name);
	if (err == -EEXIST || !err)
		err = heldir_mkdir(buf, 0755);
	return err == -EEXIST ? 0 : err;
}

static void step_row(FILE *f, int i, const struct bisect_step *st, const struct bisect_list *l,
		     const struct bisect_terms *t)
{
	char num[4][32];
	const char *cells[10];
	const double v[3] = { st->est_pct, st->lo_pct, st->hi_pct };

	for (int j = 0; j < 3; j++)
		snprintf(num[j], sizeof(num[j]), isnan(v[j]) ? "" : "%.3f", v[j]);
	snprintf(num[3], sizeof(num[3]), "%d", i + 1);
	cells[0] = num[3];
	cells[1] = l->k[st->kernel].label;
	cells[2] = l->k[st->kernel].release;
	cells[3] = bisect_term(t, st->verdict);
	cells[4] = num[0];
	cells[5] = num[1];
	cells[6] = num[2];
	cells[7] = st->figure;
	cells[8] = st->why;
	csv_write_row(f, cells, 9);
}

/* What the record's writers fill a file from. */
struct record {
	const struct bisect *b;
	const struct bisect_list *l;
	const struct bisect_terms *t;
};

static int fill_steps(FILE *f, const void *ctx)
{
	static const char *const head[] = { "step", "kernel", "release", "verdict", "est_pct",
					    "lo_pct", "hi_pct", "figure", "why" };
	const struct record *r = ctx;

	csv_write_row(f, head, 9);
	for (int i = 0; i < r->b->nr_steps; i++)
		step_row(f, i, &r->b->steps[i], r->l, r->t);
	return 0;
}

int bisect_write_steps(const char *out, const struct bisect *b, const struct bisect_list *l,
		       const struct bisect_terms *t)
{
	struct record r = { b, l, t };

	return resultdir_write_file(out, "steps.csv", true, fill_steps, &r);
}

/* The outcome's lines: the last good and first bad kernels, or why none. */
static void print_outcome(FILE *f, const struct bisect *b, const struct bisect_list *l,
			  const struct bisect_terms *t)
{
	const struct bisect_kernel *g = &l->k[b->last_good], *x = &l->k[b->first_bad];

	switch (b->outcome) {
	case BO_FOUND:
		fprintf(f, "first %s: %s%s%s%s\nlast %s: %s\n", t->bad, x->label,
			x->release[0] ? " (" : "", x->release, x->release[0] ? ")" : "", t->good,
			g->label);
		break;
	case BO_UNDECIDED:
		fprintf(f, "first %s that ran: %s%s%s%s\nlast %s: %s\n", t->bad, x->label,
			x->release[0] ? " (" : "", x->release, x->release[0] ? ")" : "", t->good,
			g->label);
		fprintf(f, "undecided: the first %s kernel may be one between them, none of which "
			"was decided (%d):", t->bad, b->first_bad - b->last_good - 1);
		for (int k = b->last_good + 1; k < b->first_bad; k++)
			fprintf(f, " %s (%s%s)", l->k[k].label, bisect_verdict_name(b->state[k]),
				l->k[k].incomplete ? ": cannot be fetched" : "");
		fprintf(f, "\n");
		break;
	case BO_NO_STEP:
		fprintf(f, "no step to bisect: %s\n", b->ends_why);
		break;
	default:
		fprintf(f, "the bisect stopped: %s\n", b->err == -EINTR ? "interrupted" :
			strerror(-b->err));
	}
}

void bisect_print(FILE *f, const struct bisect *b, const struct bisect_list *l,
		  const struct bisect_terms *t)
{
	int w = 6;

	for (int i = 0; i < b->nr_steps; i++) {
		int n = (int)strlen(l->k[b->steps[i].kernel].label);

		w = n > w ? n : w;
	}
	fprintf(f, "%d kernels from %s (%s) to %s (%s)%s%s\n", l->n, l->k[0].label, t->good,
		l->k[l->n - 1].label, t->bad, b->outcome == BO_NO_STEP ? "" : ": ",
		b->outcome == BO_NO_STEP ? "" : b->ends_why);
	fprintf(f, "%-4s  %-*s  %-9s  %-34s  %s\n", "step", w, "kernel", "verdict", "figure", "why");
	for (int i = 0; i < b->nr_steps; i++) {
		const struct bisect_step *st = &b->steps[i];

		fprintf(f, "%-4d  %-*s  %-9s  %-34s  %s\n", i + 1, w, l->k[st->kernel].label,
			bisect_term(t, st->verdict), st->figure[0] ? st->figure : "-", st->why);
	}
	print_outcome(f, b, l, t);
}

static int fill_result(FILE *f, const void *ctx)
{
	const struct record *r = ctx;

	bisect_print(f, r->b, r->l, r->t);
	return 0;
}

int bisect_write_result(const char *out, const struct bisect *b, const struct bisect_list *l,
			const struct bisect_terms *t)
{
	struct record r = { b, l, t };
	char meta[PATH_MAX + 8], value[PATH_MAX + 160];
	int err = resultdir_write_file(out, "bisect.txt", true, fill_result, &r);

	snprintf(meta, sizeof(meta), "%s/meta", out);
	if (!err && b->outcome == BO_FOUND) {
		snprintf(value, sizeof(value), "%s %s", l->k[b->first_bad].label, t->bad);
		err = meta_append(meta, "bisect_first", value);
		snprintf(value, sizeof(value), "%s %s", l->k[b->last_good].label, t->good);
		err = err ?: meta_append(meta, "bisect_last", value);
	}
	return err ?: meta_append_time(meta, "end", time(NULL));
}
