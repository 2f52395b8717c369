// SPDX-License-Identifier: GPL-2.0
/*
 * What a published page could make of its labels and titles once they are
 * cells of summary.csv or lines on a screen (docs/import.md, "What is
 * read"): a spreadsheet runs a cell led by '=', '+', '-' or '@' as a
 * formula (=HYPERLINK(...) sends data away, =cmd|... ran programs), and a
 * bidi override makes a terminal or a spreadsheet show text in another
 * order than it is (U+202E before "s/M0.5" shows "5.0M/s").  Import
 * keeps such a cell as text with the spreadsheets' own mark, a leading
 * apostrophe, and refuses a line holding a bidi override.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "termsafe.h"

/* "-5", "+1.5": a number, which a spreadsheet reads as one, not as a formula. */
static bool plain_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s == '.' && isdigit((unsigned char)s[1]))
		for (s++; isdigit((unsigned char)*s); s++)
			;
	return !*s;
}

bool import_formula_led(const char *s)
{
	return s && *s && strchr("=+-@", *s) && !plain_number(s);
}

const char *import_defused(const char *s, char *buf, size_t len)
{
	if (!import_formula_led(s))
		return s;
	snprintf(buf, len, "'%s", s);
	return buf;
}

unsigned int import_bidi_control(const char *line)
{
	size_t at;

	/* the terminal's list (termsafe.h): what a reader refuses is what a screen escapes */
	return term_bidi_control(line, strlen(line), &at);
}
