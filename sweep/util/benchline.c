// SPDX-License-Identifier: GPL-2.0
/*
 * Values in one line of a kernel benchmark's text output: see benchline.h.
 * import.c reads published pages with them, execparse.c a program's output.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* "e3", "E-3" at s[j]: an exponent's length, 0 if none. */
static size_t scan_exponent(const char *s, size_t j)
{
	size_t k = j + 1;

	if (s[j] != 'e' && s[j] != 'E')
		return 0;
	if (s[k] == '+' || s[k] == '-')
		k++;
	if (!isdigit((unsigned char)s[k]))
		return 0;
	while (isdigit((unsigned char)s[k]))
		k++;
	return k - j;
}

/*
 * A decimal number "12", "12.345" or "1.0e3" at s[i]; its length, 0 if none.  An exponent is
 * read, not cut off: "1.0e3M/s" is 1000 M/s, where the digits after the 'e' alone were a
 * label's "1.0e" and 3 M/s.
 */
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
	j += scan_exponent(s, j);
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

/* May u follow its number after a blank?  Not a size alone: "8 KiB" is a label's. */
static bool unit_after_blank(const struct unit *u, bool has_sd)
{
	if (has_sd || u->events || strstr(u->text, "op"))
		return true;
	return u->kind == IMPORT_RATE && !u->per_prod;
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
	 * follow a blank (bench.c prints them so), as may a rate's and any unit
	 * after "X ± Y" ("5.0 +/- 0.1 M/s"); "8 KiB" in a label is no value.
	 */
	u = scan_unit(s, j);
	if (!u && s[j] == ' ') {
		u = scan_unit(s, j + 1);
		if (u && !unit_after_blank(u, has_sd))
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

/*
 * Values a line shows but the scanner does not read, or reads wrongly: each
 * would otherwise be dropped unsaid ("-5.0M/s", "nan M/s": no value, the line
 * prose) or misread ("1,000.5M/s": a label "1," and 0.5 M/s).
 */

/* The longest text before a unit taken for its number: a longer run is no number. */
#define TOKEN_MAX 64

/*
 * The start of the blank-free run of text that ends at s[end] (a number's,
 * before its unit), looked for TOKEN_MAX + 1 bytes back at most: the whole
 * scan stays linear in a line without blanks.
 */
static size_t token_start(const char *s, size_t end)
{
	size_t stop = end > TOKEN_MAX + 1 ? end - TOKEN_MAX - 1 : 0;

	while (end > stop && !isspace((unsigned char)s[end - 1]) && s[end - 1] != '(')
		end--;
	return end;
}

static const char why_negative[] = "a negative value (no rate, size or time is below 0)";
static const char why_signed[] = "a signed value (the benches print none)";
static const char why_separator[] = "a thousands separator or a decimal comma, and which one "
				    "is not said (write 1000.5)";

static bool token_is(const char *s, size_t len, const char *word)
{
	if (len && (*s == '-' || *s == '+')) {
		s++;
		len--;
	}
	return len == strlen(word) && !strncasecmp(s, word, len);
}

static bool has_digit(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (isdigit((unsigned char)s[i]))
			return true;
	return false;
}

/*
 * Why s[0..len), the text before a unit, is no number the benches print; NULL
 * when it holds other text than a number's ("64G" of "64GB", "x86_64": a
 * label's or prose) or is one the scanner reads (a line's values past the
 * most it takes).
 */
static const char *token_why(const char *s, size_t len)
{
	double d;

	if (token_is(s, len, "nan"))
		return "not a number";
	if (token_is(s, len, "inf") || token_is(s, len, "infinity"))
		return "an infinite value";
	if (!len || len > TOKEN_MAX || strspn(s, "0123456789.,+-eE") < len || !has_digit(s, len))
		return NULL;
	if (*s == '-')
		return why_negative;
	if (*s == '+')
		return why_signed;
	if (memchr(s, ',', len))
		return why_separator;
	if (scan_number(s, 0, &d) == len)
		return NULL;
	return "not a number as the benches print one (digits, a point, digits)";
}

/* The unit at s[j] after a number the scanner did not read (*tok: where it starts); or NULL. */
static const struct unit *unread_unit(const char *s, size_t j, size_t *tok, size_t *len)
{
	const struct unit *u = scan_unit(s, j);
	size_t end = j;

	if (!u || !j)
		return NULL;
	if (s[j - 1] == ' ') {
		if (!unit_after_blank(u, false) || j < 2 || s[j - 2] == ' ')
			return NULL;
		end = j - 1;
	}
	*tok = token_start(s, end);
	*len = end - *tok;
	return u;
}

/* The length of a "±", "+-" or "+/-" that ends at s[b], 0 if none. */
static size_t pm_before(const char *s, size_t b)
{
	if (b >= 3 && scan_plus_minus(s, b - 3) == 3)
		return 3;
	return b >= 2 && scan_plus_minus(s, b - 2) == 2 ? 2 : 0;
}

/* Does the text before a read value make it wrong: "1,000.5M/s" read as 000.5, "nan ± 1M/s"? */
static const char *misread(const char *s, const struct bench_value *v, size_t *tok)
{
	size_t i = v->start, b = i, pm;

	if (i >= 2 && s[i - 1] == ',' && isdigit((unsigned char)s[i - 2])) {
		*tok = token_start(s, i);
		return why_separator;
	}
	if (i && s[i - 1] == '+') {
		*tok = i - 1;
		return why_signed;
	}
	while (b && s[b - 1] == ' ')
		b--;
	pm = pm_before(s, b);
	if (!pm)
		return NULL;
	for (b -= pm; b && s[b - 1] == ' '; b--)
		;
	*tok = token_start(s, b);
	return "a '±' without a number before it";
}

const char *bench_line_unread(const char *line, const struct bench_value *vs, int nr,
			      size_t *start, size_t *end)
{
	const struct unit *u;
	const char *why;
	size_t tok, len;
	int k = 0;

	for (int i = 0; i < nr; i++) {
		why = misread(line, &vs[i], &tok);
		if (why) {
			*start = tok;
			*end = vs[i].end;
			return why;
		}
	}
	/* vs are in the line's order: each value's text is stepped over once */
	for (size_t j = 0; line[j]; j++) {
		if (k < nr && j >= vs[k].start) {
			j = vs[k++].end - 1;
			continue;
		}
		u = unread_unit(line, j, &tok, &len);
		why = u ? token_why(line + tok, len) : NULL;
		if (why) {
			*start = tok;
			*end = j + strlen(u->text);
			return why;
		}
	}
	return NULL;
}
