// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms read whole (about 5 MB, 120k text symbols here: 60 ms),
 * its text symbols sorted by address for a binary search per frame.  The
 * names stay in the file's buffer, cut by NULs: no copy per symbol.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"

#define KSYMS_MAX_BYTES	(64u << 20)

/* Room for more of the file, doubling up to KSYMS_MAX_BYTES. */
static int grow(char **buf, size_t *max)
{
	char *grown;

	if (*max >= KSYMS_MAX_BYTES)
		return -EFBIG;
	grown = realloc(*buf, 2 * *max + 1);
	if (!grown)
		return -ENOMEM;
	*buf = grown;
	*max *= 2;
	return 0;
}

/* The whole file (proc files have no size to stat), NUL-terminated. */
static int read_all(const char *path, char **out)
{
	size_t len = 0, max = 1 << 20;
	char *buf = malloc(max + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0 || !buf)
		err = fd < 0 ? -errno : -ENOMEM;
	while (!err && (n = read(fd, buf + len, max - len)) != 0) {
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n < 0)
			continue;
		else if ((len += n) == max)
			err = grow(&buf, &max);
	}
	if (fd >= 0)
		close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* "addr type name[\t[module]]": the name cut out in place; false if not a text symbol. */
static bool parse_line(char *line, struct ksym *sym, bool *nonzero)
{
	char *end, *name;

	sym->addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	*nonzero |= sym->addr != 0;
	if (!is_text(end[1]))
		return false;
	name = end + 3;
	name[strcspn(name, " \t")] = '\0';
	sym->name = name;
	return name[0] != '\0';
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One symbol a line at most: count the lines for the array's size. */
static int count_lines(const char *text)
{
	int n = 1;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

int ksyms_load(const char *path, struct ksyms *ks)
{
	bool nonzero = false;
	char *line, *next;
	int err;

	*ks = (struct ksyms){ 0 };
	err = read_all(path, &ks->names);
	if (err)
		return err;
	ks->sym = malloc(count_lines(ks->names) * sizeof(*ks->sym));
	if (!ks->sym) {
		ksyms_free(ks);
		return -ENOMEM;
	}
	for (line = ks->names; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		ks->nr += parse_line(line, &ks->sym[ks->nr], &nonzero);
	}
	if (!nonzero) {
		ks->hidden = ks->nr > 0;
		ks->nr = 0;
	}
	qsort(ks->sym, ks->nr, sizeof(*ks->sym), by_addr);
	return 0;
}

const char *ksyms_name(const struct ksyms *ks, uint64_t ip)
{
	int lo = 0, hi = ks->nr - 1, found = -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= ip) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found < 0 ? NULL : ks->sym[found].name;
}

void ksyms_free(struct ksyms *ks)
{
	free(ks->sym);
	free(ks->names);
	*ks = (struct ksyms){ 0 };
}
