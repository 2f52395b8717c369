// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a chart's SVG rebuilt for the HTML page (html_svg(),
 * htmlsvg.h), from the bytes as given: no NUL after them, so that a read
 * past the end is ASan's to see.  What it lets through is checked:
 *
 *   - no "<script" anywhere, in any case;
 *   - in every tag, no attribute named on* or style, an href only to
 *     "#id", a url() only to "#id" and no CSS escape (a backslash) in a
 *     value, every value quoted with '"' and free of '<';
 *   - well-formed: read again (the prefix "" this time) it passes and
 *     comes out the same bytes, so its tags nest and its references are
 *     known ones.
 *
 * A breach aborts, and libFuzzer keeps the input.  Built with
 * -fsanitize=fuzzer,address,undefined (make fuzz); run by
 * tests/fuzz/run.sh svg, seeded from tests/fuzz/corpus-svg and the charts
 * of a quick run.
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "htmlsvg.h"

static void breach(const char *what, const char *at, const char *out, size_t len)
{
	fprintf(stderr, "fuzz_svg: %s at byte %zu of the output:\n%.*s\n", what,
		(size_t)(at - out), (int)len, out);
	abort();
}

/* html_svg(s[0..n)) into a buffer of its own (*len bytes): 0, or its error. */
static int rebuild(const char *s, size_t n, const char *prefix, char **out, size_t *len)
{
	char why[128];
	FILE *f = open_memstream(out, len);
	int err;

	if (!f)
		return -1;
	err = html_svg(f, s, n, prefix, why, sizeof(why));
	fclose(f);
	return err;
}

static bool has_ci(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, needle, k))
			return true;
	return false;
}

/* One value v[0..len) of attribute name: loads nothing. */
static void check_value(const char *name, size_t name_len, const char *v, size_t len,
			const char *out, size_t out_len)
{
	bool href = (name_len == 4 && !strncasecmp(name, "href", 4)) ||
		    (name_len == 10 && !strncasecmp(name, "xlink:href", 10));

	if (href && (!len || v[0] != '#'))
		breach("an href to other than #id", v, out, out_len);
	if (memchr(v, '\\', len) || memchr(v, '<', len))
		breach("a backslash or '<' in a value", v, out, out_len);
	for (size_t i = 0; i + 4 <= len; i++)
		if (!strncasecmp(v + i, "url(", 4) && (i + 4 == len || v[i + 4] != '#'))
			breach("a url() to other than #id", v + i, out, out_len);
}

/* The attributes of the tag at out + at (after its name) up to its '>': the index after it. */
static size_t check_attrs(const char *out, size_t len, size_t at)
{
	while (at < len && out[at] != '>' && out[at] != '/') {
		const char *name = out + at + 1, *v, *end;
		size_t name_len;

		if (out[at] != ' ')
			breach("an attribute not after a space", out + at, out, len);
		v = memchr(name, '=', len - at - 1);
		if (!v || v + 1 >= out + len || v[1] != '"')
			breach("an attribute not name=\"value\"", name, out, len);
		name_len = v - name;
		if (name_len >= 2 && !strncasecmp(name, "on", 2))
			breach("an on* attribute", name, out, len);
		if (name_len == 5 && !strncasecmp(name, "style", 5))
			breach("a style attribute", name, out, len);
		end = memchr(v + 2, '"', out + len - v - 2);
		if (!end)
			breach("an unterminated value", v, out, len);
		check_value(name, name_len, v + 2, end - v - 2, out, len);
		at = end - out + 1;
	}
	return at;
}

/* Every tag of out[0..len): its attributes checked. */
static void check_tags(const char *out, size_t len)
{
	for (size_t at = 0; at < len; at++) {
		if (out[at] != '<' || (at + 1 < len && out[at + 1] == '/'))
			continue;
		at++;
		while (at < len && (isalnum((unsigned char)out[at]) || out[at] == ':'))
			at++;
		at = check_attrs(out, len, at);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, *again = NULL;
	size_t len = 0, again_len = 0;

	if (rebuild((const char *)data, size, "c1-", &out, &len))
		goto out;
	if (has_ci(out, len, "<script"))
		breach("a <script", out, out, len);
	check_tags(out, len);
	if (rebuild(out, len, "", &again, &again_len))
		breach("not read again", out, out, len);
	if (again_len != len || memcmp(again, out, len))
		breach("not the same bytes read again", out, out, len);
out:
	free(again);
	free(out);
	return 0;
}
