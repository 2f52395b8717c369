// SPDX-License-Identifier: GPL-2.0
/* The one error printer: every diagnostic of bpfsweep goes through here. */
#include <stdarg.h>
#include <stdio.h>

#include "diag.h"

static const char *progname = "bpfsweep";
static int nr_errors;
static FILE *diag_stream;

void diag_set_stream(FILE *f)
{
	diag_stream = f;
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

void diag_at(const struct loc *loc, const char *fmt, ...)
{
	va_list ap;

	nr_errors++;
	fprintf(out(), "%s:%d:%d: error: ", loc->file, loc->line, loc->col);
	va_start(ap, fmt);
	vfprintf(out(), fmt, ap);
	va_end(ap);
	fputc('\n', out());
}

static void diag_prefixed(const char *kind, const char *fmt, va_list ap)
{
	fprintf(out(), "%s: %s: ", progname, kind);
	vfprintf(out(), fmt, ap);
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
