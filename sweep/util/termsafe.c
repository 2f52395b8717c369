// SPDX-License-Identifier: GPL-2.0
/* Text made safe for a terminal: see termsafe.h. */
#include <stdlib.h>
#include <string.h>

#include "termsafe.h"

/* Length of the valid UTF-8 character at s[0..n) (its code point in *cp), or 0. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned int *cp)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;

	*cp = s[0] & (0x3f >> (len - 1));
	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, past Unicode */
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * The bidi controls: embeddings and overrides (U+202A..U+202E), isolates
 * (U+2066..U+2069) and the marks (U+200E LRM, U+200F RLM, U+061C ALM).
 * Each shows the text after it in another order than it is (Trojan Source,
 * CVE-2021-42574: what gcc's -Wbidi-chars=any names).
 */
static bool is_bidi(unsigned int cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of the printable UTF-8 character at s, or 0 for a control or invalid byte. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
	unsigned int cp;
	size_t len = utf8_decode(s, n, &cp);

	/* C1 controls (U+0080..U+009F: a terminal takes U+009B for ESC [) and bidi controls */
	if (!len || cp < 0xa0 || is_bidi(cp))
		return 0;
	return len;
}

/* Length of the first byte run term_put() writes as it is, from s[0..n). */
static size_t safe_prefix(const unsigned char *s, size_t n)
{
	size_t i = 0, len;

	while (i < n) {
		if ((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\t')
			i++;
		else if (s[i] >= 0x80 && (len = utf8_printable(s + i, n - i)))
			i += len;
		else
			break;
	}
	return i;
}

void term_put(FILE *f, const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;

	while (i < n) {
		size_t ok = safe_prefix(s + i, n - i);

		fwrite(s + i, 1, ok, f);
		i += ok;
		if (i == n)
			break;
		if (s[i] == '\r' || s[i] == '\n' || s[i] == 0x1b)
			fprintf(f, "\\%c", s[i] == '\r' ? 'r' : s[i] == '\n' ? 'n' : 'e');
		else
			fprintf(f, "\\x%02x", s[i]);
		i++;
	}
}

bool term_unsafe(const char *s)
{
	size_t n = strlen(s);

	return safe_prefix((const unsigned char *)s, n) < n;
}

unsigned int term_bidi_control(const char *text, size_t len, size_t *at)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned int cp;

	for (size_t i = 0, n; i < len; i += n ? n : 1) {
		n = s[i] >= 0xc2 ? utf8_decode(s + i, len - i, &cp) : 0;
		if (n && is_bidi(cp)) {
			*at = i;
			return cp;
		}
	}
	return 0;
}

char *term_escape(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	term_put(f, s, strlen(s));
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
