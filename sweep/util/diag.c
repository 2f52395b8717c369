// SPDX-License-Identifier: GPL-2.0
/*
 * The one error printer: every diagnostic of bpfsweep goes through here.
 * What it prints may quote a spec, so control characters are escaped (a
 * spec must not recolour or rewrite the terminal), and after DIAG_MAX_SHOWN
 * located errors the rest are only counted (one bad line can hold 500000).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "termsafe.h"

static const char *progname = "bpfsweep";
static int nr_errors;
static int nr_shown;		/* located errors shown since diag_finish() */
static int nr_hidden;		/* and those counted, not shown */
static FILE *diag_stream;

void diag_set_stream(FILE *f)
{
	diag_stream = f;
	nr_shown = 0;
	nr_hidden = 0;
}

static FILE *out(void)
{
	return diag_stream ? diag_stream : stderr;
}

void diag_set_progname(const char *name)
{
	progname = name;
}

int diag_error_count(void)
{
	return nr_errors;
}

/* Length of the UTF-8 sequence at s (at most n bytes) that may be shown raw, or 0. */
/* Format, then print escaped: the arguments are what may hold spec text. */
static void put_message(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		text = malloc(n + 1);
		if (!text)
			return;
		vsnprintf(text, n + 1, fmt, ap);
	}
	term_put(f, text, n);
	if (text != small)
		free(text);
}

/* By --set number (diag_label_set()); unnamed ones are "--set #n". */
#define DIAG_MAX_LABELS	128
static char set_labels[DIAG_MAX_LABELS][32];

void diag_label_set(int n, const char *label)
{
	if (n > 0 && n < DIAG_MAX_LABELS)
		snprintf(set_labels[n], sizeof(set_labels[n]), "%s", label);
}

void diag_label_sets_clear(void)
{
	memset(set_labels, 0, sizeof(set_labels));
}

/* What follows a location's file: one format for diag_at() and diag_where() */
#define DIAG_AT_FMT ":%d:%d: error: "

int diag_where(char *buf, size_t len, const char *file, int line, int col)
{
	return snprintf(buf, len, "%s" DIAG_AT_FMT, file, line, col);
}

static void put_location(FILE *f, const struct loc *loc)
{
	if (loc->set > 0 && loc->set < DIAG_MAX_LABELS && set_labels[loc->set][0])
		fputs(set_labels[loc->set], f);
	else if (loc->set)
		fprintf(f, "--set #%d", loc->set);
	else
		term_put(f, loc->file, strlen(loc->file));
	fprintf(f, DIAG_AT_FMT, loc->line, loc->col);
}

/* One more located error: is it shown, or only counted? */
static bool located_shown(void)
{
	nr_errors++;
	if (nr_shown == DIAG_MAX_SHOWN) {
		nr_hidden++;
		return false;
	}
	nr_shown++;
	return true;
}

void diag_at(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	if (!located_shown())
		return;
	put_location(out(), loc);
	va_start(ap, fmt);
	put_message(out(), fmt, ap);
	va_end(ap);
	fputc('\n', out());
}

void diag_located(const char *text)
{
	if (!located_shown())
		return;
	term_put(out(), text, strlen(text));
	fputc('\n', out());
}

void diag_finish(void)
{
	if (nr_hidden)
		fprintf(out(), "%s: %d more error%s not shown\n", progname, nr_hidden,
			nr_hidden == 1 ? "" : "s");
	nr_shown = 0;
	nr_hidden = 0;
}

static void diag_prefixed(const char *kind, const char *fmt, va_list ap)
{
	fprintf(out(), "%s: %s: ", progname, kind);
	put_message(out(), fmt, ap);
	fputc('\n', out());
}

void diag_err(const char *fmt, ...)
{
	va_list ap;

	nr_errors++;
	va_start(ap, fmt);
	diag_prefixed("error", fmt, ap);
	va_end(ap);
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_prefixed("warning", fmt, ap);
	va_end(ap);
}
