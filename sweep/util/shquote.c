// SPDX-License-Identifier: GPL-2.0
/* Words for a remote shell: see shquote.h. */
#include <errno.h>
#include <stdbool.h>
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

/* Would a shell read word as itself?  Only with none of its special characters. */
static bool shell_plain(const char *word)
{
	if (!*word)
		return false;
	return strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./=:,+@%-") == strlen(word);
}

/* word at buf, bare when the shell reads it as itself, else quoted; 0 or -ENAMETOOLONG. */
static int put_word(const char *word, char *buf, size_t room)
{
	if (!shell_plain(word))
		return shquote(word, buf, room);
	if (strlen(word) >= room)
		return -ENAMETOOLONG;
	strcpy(buf, word);
	return 0;
}

int shquote_line(const char *const *argv, int argc, char *buf, size_t len)
{
	static const char cut[] = " ...";
	size_t limit = len > sizeof(cut) ? len - sizeof(cut) : 0, off = 0;

	if (!limit)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		size_t start = off;
		int err = 0;

		if (i && off + 1 >= limit)
			err = -ENAMETOOLONG;
		else if (i)
			buf[off++] = ' ';
		if (!err)
			err = put_word(argv[i], buf + off, limit - off);
		if (err) {
			/* said as cut, never as a shorter command that would run */
			strcpy(buf + start, cut);
			return err;
		}
		off += strlen(buf + off);
	}
	return 0;
}
