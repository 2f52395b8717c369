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
#include "resultdir.h"
#include "textfile.h"

const char *bisect_term(const struct bisect_terms *t, enum bisect_verdict v)
{
	if (v == BV_GOOD)
		return t->good;
	return v == BV_BAD ? t->bad : bisect_verdict_name(v);
}

/* OUT/kernels: "LABEL\tRELEASE\tIMAGE" a line, oldest first (an image not yet fetched: ""). */
static int write_kernels(const char *out, const struct bisect_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -ENOMEM;
	for (int i = 0; i < l->n; i++)
		fprintf(f, "%s\t%s\t%s\n", l->k[i].label, l->k[i].release,
			l->k[i].release[0] ? "" : l->k[i].image);
	err = fclose(f) ? -ENOMEM : resultdir_put_file(out, "kernels", buf, len, false);
	free(buf);
	return err;
}

int bisect_out_create(const char *out, const char *name, const char *argv_line,
		      const struct bisect_terms *t, const struct bisect_list *l, char *buf,
		      size_t len)
{
	char meta[PATH_MAX + 8], terms[64];
	int err;

	if (out)
		snprintf(buf, len, "%s", out);
	else
		resultdir_default_path(buf, len, name, time(NULL), "-bisect");
	err = resultdir_create(buf);
	snprintf(meta, sizeof(meta), "%s/meta", buf);
	snprintf(terms, sizeof(terms), "%s %s", t->good, t->bad);
	err = err ?: resultdir_put_file(buf, "meta", "", 0, false);
	err = err ?: meta_append(meta, "command", argv_line);
	err = err ?: meta_append_time(meta, "start", time(NULL));
	err = err ?: meta_append(meta, "bisect_terms", terms);
	err = err ?: write_kernels(buf, l);
	if (err)
		diag_err("cannot create the bisect's directory %s: %s", buf, strerror(-err));
	return err;
}

/* One line of OUT/kernels into k. */
static int read_kernel(char *line, struct bisect_kernel *k)
{
	char *release = strchr(line, '\t'), *image = release ? strchr(release + 1, '\t') : NULL;

	if (!image)
		return -EINVAL;
	*release++ = *image++ = '\0';
	*k = (struct bisect_kernel){ 0 };
	snprintf(k->label, sizeof(k->label), "%s", line);
	snprintf(k->release, sizeof(k->release), "%s", release);
	snprintf(k->image, sizeof(k->image), "%s", image);
	return 0;
}

/* OUT/meta's bisect_terms: good and bad unless it says old and new. */
static void read_terms(const char *text, struct bisect_terms *t)
{
	if (strstr(text, "\nbisect_terms: old new\n"))
		*t = (struct bisect_terms){ "old", "new" };
}

int bisect_out_reopen(const char *out, struct bisect_list *l, struct bisect_terms *t)
{
	char path[PATH_MAX + 16], *text = NULL, *line, *save = NULL;
	int err = resultdir_hold(out);

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
	return err ?: meta_append_time(path, "resumed", time(NULL));
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

int bisect_write_steps(const char *out, const struct bisect *b, const struct bisect_list *l,
		       const struct bisect_terms *t)
{
	static const char *const head[] = { "step", "kernel", "release", "verdict", "est_pct",
					    "lo_pct", "hi_pct", "figure", "why" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -ENOMEM;
	csv_write_row(f, head, 9);
	for (int i = 0; i < b->nr_steps; i++)
		step_row(f, i, &b->steps[i], l, t);
	err = fclose(f) ? -ENOMEM : resultdir_put_file(out, "steps.csv", buf, len, true);
	free(buf);
	return err;
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
		fprintf(f, "undecided: the first %s kernel is one of those after %s up to %s; "
			"between them only undecided or skipped ones:", t->bad, g->label, x->label);
		for (int k = b->last_good + 1; k < b->first_bad; k++)
			fprintf(f, " %s (%s)", l->k[k].label, bisect_verdict_name(b->state[k]));
		fprintf(f, "\n");
		break;
	case BO_NO_STEP:
		fprintf(f, "no step to bisect: %s\n", b->ends_why);
		break;
	default:
		fprintf(f, "the bisect stopped: %s\n", strerror(-b->err));
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

int bisect_write_result(const char *out, const struct bisect *b, const struct bisect_list *l,
			const struct bisect_terms *t)
{
	char *buf = NULL, meta[PATH_MAX + 8], value[PATH_MAX + 160];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return -ENOMEM;
	bisect_print(f, b, l, t);
	err = fclose(f) ? -ENOMEM : resultdir_put_file(out, "bisect.txt", buf, len, true);
	free(buf);
	snprintf(meta, sizeof(meta), "%s/meta", out);
	if (!err && b->outcome == BO_FOUND) {
		snprintf(value, sizeof(value), "%s %s", l->k[b->first_bad].label, t->bad);
		err = meta_append(meta, "bisect_first", value);
		snprintf(value, sizeof(value), "%s %s", l->k[b->last_good].label, t->good);
		err = err ?: meta_append(meta, "bisect_last", value);
	}
	return err ?: meta_append_time(meta, "end", time(NULL));
}
