// SPDX-License-Identifier: GPL-2.0
/* Reading a whole text file into memory; see textfile.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "textfile.h"

int read_text_file(const char *path, char **out)
{
	size_t len = 0, cap = 4096, n;
	char *buf, *tmp;
	FILE *f;
	int err = 0;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto close_file;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		tmp = realloc(buf, cap *= 2);
		if (!tmp) {
			err = -ENOMEM;
			goto free_buf;
		}
		buf = tmp;
	}
	if (ferror(f)) {
		err = -EIO;
		goto free_buf;
	}
	buf[len] = '\0';
	*out = buf;
	goto close_file;
free_buf:
	free(buf);
close_file:
	fclose(f);
	return err;
}
