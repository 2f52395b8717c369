// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot.c's quoting: a script's text single-quoted, a data file's
 * "..." with octal escapes, each read back by gnuplot as written
 * (test_plot.c's titles_round_trip checks it with gnuplot itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gnuplot.h"

/* fn(s) as a string (free()): what a script or a .dat holds of s. */
static char *quoted(void (*fn)(FILE *, const char *), const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return NULL;
	fn(mem, s);
	fclose(mem);
	return text;
}

/*
 * A script's text is single-quoted, where gnuplot expands nothing and
 * reads no escape: only ' is doubled, lines are joined by "\n", other
 * control characters are spaces.
 */
TEST(script_quote_is_inert)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "speed `touch /tmp/x`", "'speed `touch /tmp/x`'" },
		{ "@m \"q\" \\ 'x'", "'@m \"q\" \\ ''x'''" },
		{ "1..8*2 \\0522", "'1..8*2 \\0522'" },
		{ "t\tab\r\033[2J", "'t ab  [2J'" },
		{ "title\n(smoke run)", "'title' . \"\\n\" . '(smoke run)'" },
		{ "\xc3\xa9t\xc3\xa9", "'\xc3\xa9t\xc3\xa9'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = quoted(gnuplot_put_quoted, cases[i].in);

		CHECK_STR(out, cases[i].out);
		free(out);
	}
}

/*
 * What gnuplot reads from a data file's "..." string, as its parse_esc()
 * does: a \ takes every octal digit after it, however many.
 */
static void gnuplot_unescape(const char *s, char *out)
{
	for (; *s; s++) {
		unsigned int v = 0;

		if (*s != '\\') {
			*out++ = *s;
			continue;
		}
		if (s[1] < '0' || s[1] > '7') {
			*out++ = *++s;
			continue;
		}
		while (s[1] >= '0' && s[1] <= '7')
			v = v * 8 + (*++s - '0');
		*out++ = (char)v;
	}
	*out = '\0';
}

/* A .dat's text reads back as written, whatever digit follows an escaped byte. */
TEST(data_text_round_trips)
{
	static const char specials[] = "!\"#$%&'*;<>?\\`@{}^_~[]|";
	char in[16], back[64], *out;

	for (const char *c = specials; *c; c++) {
		for (char d = '0'; d <= '9'; d++) {
			snprintf(in, sizeof(in), "x%c%c%c7", *c, d, d);
			out = quoted(gnuplot_put_data_text, in);
			CHECK(out && out[0] == '"' && out[strlen(out) - 1] == '"');
			out[strlen(out) - 1] = '\0';
			CHECK(!strchr(out + 1, '"') && !strchr(out + 1, '`'));
			gnuplot_unescape(out + 1, back);
			CHECK_STR(back, in);
			free(out);
		}
	}
	out = quoted(gnuplot_put_data_text, "a\tb\xc3\xa9" "1");
	CHECK_STR(out, "\"a b\\303\\251\\061\"");
	free(out);
}

RUN_TESTS(script_quote_is_inert, data_text_round_trips)
