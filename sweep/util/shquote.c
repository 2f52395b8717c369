// SPDX-License-Identifier: GPL-2.0
/* Words for a remote shell: see shquote.h. */
#include <errno.h>
#include <string.h>

#include "shquote.h"

int shquote(const char *word, char *buf, size_t len)
{
	size_t n = 0;

	/* worst case 4 bytes per byte, two quotes and the NUL */
	if (len < 3)
		return -ENAMETOOLONG;
	buf[n++] = '\'';
	for (const char *p = word; *p; p++) {
		if (n + 6 > len)
			return -ENAMETOOLONG;
		if (*p == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return 0;
}

int shquote_argv(const char *const *argv, char *buf, size_t len)
{
	size_t off = 0;
	int err;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (int i = 0; argv[i]; i++) {
		if (i) {
			if (off + 2 > len)
				return -ENAMETOOLONG;
			buf[off++] = ' ';
		}
		err = shquote(argv[i], buf + off, len - off);
		if (err)
			return err;
		off += strlen(buf + off);
	}
	return 0;
}
