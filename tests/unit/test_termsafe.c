// SPDX-License-Identifier: GPL-2.0
/*
 * The one sanitiser (termsafe.c): printable text and UTF-8 pass as they
 * are; C0 controls, DEL, C1 controls, bidi controls and invalid UTF-8
 * become escapes.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "termsafe.h"

static const char *escaped(const char *s)
{
	static char buf[256];
	char *e = term_escape(s);

	snprintf(buf, sizeof(buf), "%s", e ? e : "(null)");
	free(e);
	return buf;
}

TEST(printable_text_passes)
{
	CHECK(!term_unsafe("ringbuf rb-prod 4 ± 0.1M/s\tµs"));
	CHECK_STR(escaped("ringbuf rb-prod 4 ± 0.1M/s\tµs"), "ringbuf rb-prod 4 ± 0.1M/s\tµs");
}

TEST(controls_become_escapes)
{
	/* OSC title, OSC 52 clipboard, clear screen, CR, DEL, C1 CSI (U+009B), bad UTF-8 */
	CHECK(term_unsafe("a\033]0;pwn\007b"));
	CHECK_STR(escaped("a\033]0;pwn\007b"), "a\\e]0;pwn\\x07b");
	CHECK_STR(escaped("\033]52;c;Zm9v\007"), "\\e]52;c;Zm9v\\x07");
	CHECK_STR(escaped("x\033[2Jy\rz\n"), "x\\e[2Jy\\rz\\n");
	CHECK_STR(escaped("del\177"), "del\\x7f");
	CHECK_STR(escaped("csi\302\2332J"), "csi\\xc2\\x9b2J");
	CHECK_STR(escaped("bad\xff\xc3"), "bad\\xff\\xc3");
}

/*
 * A bidi control shows what follows it reversed or reordered ("RLO 1.0"
 * reads as "0.1"): each of them becomes the escapes of its bytes, as a C1
 * control does; the letters of right-to-left scripts pass.
 */
TEST(bidi_controls_become_escapes)
{
	static const char *const bidi[] = {
		"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
		"\u2069", "\u200e", "\u200f", "\u061c",
	};
	char text[32], want[64];
	size_t at;

	for (size_t i = 0; i < sizeof(bidi) / sizeof(bidi[0]); i++) {
		const unsigned char *b = (const unsigned char *)bidi[i];

		snprintf(text, sizeof(text), "ab%scd", bidi[i]);
		CHECK(term_unsafe(text));
		snprintf(want, sizeof(want), "ab\\x%02x\\x%02x\\x%02xcd", b[0], b[1], b[2]);
		if (!b[2])
			snprintf(want, sizeof(want), "ab\\x%02x\\x%02xcd", b[0], b[1]);
		CHECK_STR(escaped(text), want);
		CHECK(term_bidi_control(text, strlen(text), &at) != 0);
		CHECK_INT(at, 2);
	}
	CHECK_STR(escaped("rate \u202e1.0M/s"), "rate \\xe2\\x80\\xae1.0M/s");
	/* Hebrew and Arabic letters, and the neighbours of the controls, are text */
	CHECK(!term_unsafe("\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 "
			   "\u2010\u2065\u206a\u061b\u200d"));
	CHECK_INT(term_bidi_control("\u05e9\u05dc\u05d5\u05dd \u200d", 13, &at), 0);
	/* found in valid UTF-8 only, where it starts */
	CHECK_INT(term_bidi_control("\xe2\x80x\xe2\x81\xa6", 6, &at), 0x2066);
	CHECK_INT(at, 3);
}

RUN_TESTS(printable_text_passes, controls_become_escapes, bidi_controls_become_escapes)
