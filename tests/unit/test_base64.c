// SPDX-License-Identifier: GPL-2.0
/* The base64 encoder of the HTML page's charts (base64.c): RFC 4648's vectors. */
#include <string.h>

#include "base64.h"
#include "check.h"

/* data's base64 in buf (at least 256 bytes), as base64_put() writes it */
static const char *encoded(const void *data, size_t n, char *buf)
{
	FILE *f;

	/* nothing written (the empty input) leaves buf as it was: empty, then */
	buf[0] = '\0';
	f = fmemopen(buf, 256, "w");

	base64_put(f, data, n);
	fclose(f);
	return buf;
}

/* RFC 4648 section 10: every length of padding */
TEST(rfc4648_vectors)
{
	static const char *const in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
					   "Zm9vYmFy" };

	char buf[256];

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK_STR(encoded(in[i], strlen(in[i]), buf), out[i]);
}

/* bytes with the high bit set and NUL: the whole alphabet's ends, '+' and '/' */
TEST(binary_bytes)
{
	static const unsigned char b[] = { 0x00, 0x10, 0x83, 0xfb, 0xff, 0xbf, 0xff };
	char buf[256];

	CHECK_STR(encoded(b, 3, buf), "ABCD");
	CHECK_STR(encoded(b + 3, 3, buf), "+/+/");
	CHECK_STR(encoded(b + 4, 3, buf), "/7//");
	CHECK_STR(encoded(b + 6, 1, buf), "/w==");
}

RUN_TESTS(rfc4648_vectors, binary_bytes)
