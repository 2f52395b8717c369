// SPDX-License-Identifier: GPL-2.0
/*
 * Values in one line of a kernel benchmark's text output: see benchline.h.
 * import.c reads published pages with them, execparse.c a program's output.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchline.h"

#define PLUS_MINUS "\xc2\xb1"	/* ± in UTF-8, as bench.c prints it */

struct unit {
	const char *text;
	enum import_kind kind;
	double scale;
	bool per_prod;		/* "M/prod": a per-producer copy of hits, not a metric */
	bool events;		/* "events per sec": names the value "events" */
};

/* Longest first where one is a prefix of another. */
static const struct unit units[] = {
	{ .text = "M/prod", .kind = IMPORT_RATE, .scale = 1e6, .per_prod = true },
	{ .text = "k/prod", .kind = IMPORT_RATE, .scale = 1e3, .per_prod = true },
	{ .text = "K/prod", .kind = IMPORT_RATE, .scale = 1e3, .per_prod = true },
	{ .text = "/prod", .kind = IMPORT_RATE, .scale = 1, .per_prod = true },
	{ .text = "M ops/prod", .kind = IMPORT_RATE, .scale = 1e6, .per_prod = true },
	{ .text = "K ops/prod", .kind = IMPORT_RATE, .scale = 1e3, .per_prod = true },
	{ .text = "ns/op /prod", .kind = IMPORT_NS, .scale = 1, .per_prod = true },
	{ .text = "M ops/s", .kind = IMPORT_RATE, .scale = 1e6 },
	{ .text = "K ops/s", .kind = IMPORT_RATE, .scale = 1e3 },
	{ .text = "ops/s", .kind = IMPORT_RATE, .scale = 1 },
	{ .text = "ns/op", .kind = IMPORT_NS, .scale = 1 },
	{ .text = "us/op", .kind = IMPORT_NS, .scale = 1e3 },
	{ .text = "ms/op", .kind = IMPORT_NS, .scale = 1e6 },
	{ .text = "G/s", .kind = IMPORT_RATE, .scale = 1e9 },
	{ .text = "M/s", .kind = IMPORT_RATE, .scale = 1e6 },
	{ .text = "K/s", .kind = IMPORT_RATE, .scale = 1e3 },
	{ .text = "k/s", .kind = IMPORT_RATE, .scale = 1e3 },
	{ .text = "/s", .kind = IMPORT_RATE, .scale = 1 },
	{ .text = "M events per sec", .kind = IMPORT_RATE, .scale = 1e6, .events = true },
	{ .text = "K events per sec", .kind = IMPORT_RATE, .scale = 1e3, .events = true },
	{ .text = "k events per sec", .kind = IMPORT_RATE, .scale = 1e3, .events = true },
	{ .text = "Mevents per sec", .kind = IMPORT_RATE, .scale = 1e6, .events = true },
	{ .text = "Kevents per sec", .kind = IMPORT_RATE, .scale = 1e3, .events = true },
	{ .text = "kevents per sec", .kind = IMPORT_RATE, .scale = 1e3, .events = true },
	{ .text = "events per sec", .kind = IMPORT_RATE, .scale = 1, .events = true },
	{ .text = "GiB", .kind = IMPORT_BYTES, .scale = 1024.0 * 1024 * 1024 },
	{ .text = "MiB", .kind = IMPORT_BYTES, .scale = 1024.0 * 1024 },
	{ .text = "KiB", .kind = IMPORT_BYTES, .scale = 1024.0 },
	{ .text = "B", .kind = IMPORT_BYTES, .scale = 1 },
};

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

size_t bench_skip_blanks(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

/* A decimal number "12" or "12.345" at s[i]; its length, 0 if none. */
static size_t scan_number(const char *s, size_t i, double *out)
{
	size_t j = i;

	while (isdigit((unsigned char)s[j]))
		j++;
	if (j == i)
		return 0;
	if (s[j] == '.' && isdigit((unsigned char)s[j + 1]))
		for (j++; isdigit((unsigned char)s[j]); j++)
			;
	*out = strtod(s + i, NULL);
	return j - i;
}

/* "±", "+-" or "+/-" at s[i]; its length, 0 if none. */
static size_t scan_plus_minus(const char *s, size_t i)
{
	if (!strncmp(s + i, PLUS_MINUS, 2) || !strncmp(s + i, "+-", 2))
		return 2;
	return strncmp(s + i, "+/-", 3) ? 0 : 3;
}

static const struct unit *scan_unit(const char *s, size_t i)
{
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		size_t len = strlen(units[u].text);

		if (!strncmp(s + i, units[u].text, len) && !isalnum((unsigned char)s[i + len]))
			return &units[u];
	}
	return NULL;
}

/* NUMBER [± NUMBER] UNIT at s[i], blanks allowed between; false if none. */
static bool scan_value(const char *s, size_t i, struct bench_value *f)
{
	const struct unit *u;
	double mean, sd = 0;
	size_t n, j, pm;
	bool has_sd = false;

	/* before the digits are read: a run of them is scanned once, not from each of its digits */
	if (i && (is_word_char(s[i - 1]) || s[i - 1] == ':'))
		return false;
	n = scan_number(s, i, &mean);
	if (!n)
		return false;
	j = bench_skip_blanks(s, i + n);
	pm = scan_plus_minus(s, j);
	if (pm) {
		j = bench_skip_blanks(s, j + pm);
		n = scan_number(s, j, &sd);
		if (!n)
			return false;
		has_sd = true;
		j += n;
	} else {
		j = i + n;
	}
	/*
	 * "194677 events per sec", "1.2 M ops/s", "3.4 ns/op": these units may
	 * follow a blank (bench.c prints them so); "8 KiB" in a label is no value.
	 */
	u = scan_unit(s, j);
	if (!u && s[j] == ' ') {
		u = scan_unit(s, j + 1);
		if (u && !u->events && !strstr(u->text, "op"))
			u = NULL;
		else
			j++;
	}
	if (!u)
		return false;
	*f = (struct bench_value){ .start = i, .end = j + strlen(u->text), .per_prod = u->per_prod,
			     .events = u->events };
	f->v = (struct import_value){ .kind = u->kind, .mean = mean * u->scale,
				      .stddev = sd * u->scale, .has_stddev = has_sd };
	/* not !(x < max): strtod() gives inf for a number past a double's range */
	f->too_large = !(f->v.mean < BENCH_VALUE_MAX && f->v.stddev < BENCH_VALUE_MAX);
	return true;
}

int bench_line_values(const char *line, struct bench_value *fs, int max)
{
	int nr = 0;

	for (size_t i = 0; line[i] && nr < max; i++) {
		if (scan_value(line, i, &fs[nr])) {
			i = fs[nr].end - 1;
			nr++;
		}
	}
	return nr;
}


bool bench_line_connector(const char *seg, size_t len, char *name, size_t namelen)
{
	size_t i = bench_skip_blanks(seg, 0), end = len;

	if (i < len && seg[i] == ')')
		i = bench_skip_blanks(seg, i + 1);
	if (i >= len || (seg[i] != '(' && seg[i] != ','))
		return false;
	i = bench_skip_blanks(seg, i + 1);
	while (end > i && (isspace((unsigned char)seg[end - 1]) || seg[end - 1] == ':'))
		end--;
	snprintf(name, namelen, "%.*s", (int)(end - i), seg + i);
	return true;
}
