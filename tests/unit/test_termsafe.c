// SPDX-License-Identifier: GPL-2.0
/*
 * The one sanitiser (termsafe.c): printable text and UTF-8 pass as they
 * are; C0 controls, DEL, C1 controls and invalid UTF-8 become escapes.
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

RUN_TESTS(printable_text_passes, controls_become_escapes)
