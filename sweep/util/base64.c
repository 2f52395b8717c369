// SPDX-License-Identifier: GPL-2.0
/* Base64: see base64.h. */
#include "base64.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Three bytes (have of them real, 1..3) as four characters, '=' for the missing. */
static void put_group(FILE *f, const unsigned char *p, size_t have)
{
	unsigned long v = (unsigned long)p[0] << 16 |
			  (unsigned long)(have > 1 ? p[1] : 0) << 8 | (have > 2 ? p[2] : 0);
	char out[4];

	for (int i = 0; i < 4; i++)
		out[i] = (size_t)i <= have ? alphabet[(v >> (18 - 6 * i)) & 63] : '=';
	fwrite(out, 1, 4, f);
}

void base64_put(FILE *f, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i += 3)
		put_group(f, p + i, n - i < 3 ? n - i : 3);
}
