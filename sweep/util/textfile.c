// SPDX-License-Identifier: GPL-2.0
/* Reading a whole text file into memory; see textfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heldir.h"
#include "textfile.h"

/* Regular files only: a FIFO could block, a device (/dev/zero) never ends. */
static int check_regular(int fd, size_t max, size_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*size = st.st_size;
	return (size_t)st.st_size > max ? -EFBIG : 0;
}

/*
 * Up to max + 1 bytes, so that a file that grew is still caught; the buffer starts at the
 * file's size and grows only if it did, so a large cap costs nothing for a small file.
 */
static int read_all(int fd, size_t max, size_t size, char **bufp, size_t *len)
{
	size_t cap = (size < max ? size : max) + 2;
	char *buf = malloc(cap), *bigger;
	ssize_t n;

	*len = 0;
	while (buf && *len <= max) {
		if (*len + 1 == cap) {
			cap = cap - 2 < max / 2 ? 2 * cap : max + 2;
			bigger = realloc(buf, cap);
			if (!bigger)
				break;
			buf = bigger;
		}
		n = read(fd, buf + *len, cap - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (!n) {
			*bufp = buf;
			return 0;
		}
		if (n < 0) {
			n = -errno;
			free(buf);
			return n;
		}
		*len += n;
	}
	n = buf && *len > max ? -EFBIG : -ENOMEM;
	free(buf);
	return n;
}

int read_text_file_max(const char *path, size_t max, char **out, size_t *len)
{
	size_t got, size = 0;
	char *buf = NULL, *fit;
	int fd, err;

	fd = heldir_open(path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return fd;
	err = check_regular(fd, max, &size);
	if (!err)
		err = read_all(fd, max, size, &buf, &got);
	if (!err) {
		buf[got] = '\0';
		fit = realloc(buf, got + 1);
		*out = fit ? fit : buf;
		if (len)
			*len = got;
	}
	close(fd);
	return err;
}

int read_text_file_len(const char *path, char **out, size_t *len)
{
	return read_text_file_max(path, TEXTFILE_MAX_BYTES, out, len);
}

int read_text_file(const char *path, char **out)
{
	return read_text_file_len(path, out, NULL);
}

int text_nul_line(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	int line = 1;

	if (!nul)
		return 0;
	for (const char *s = text; (s = memchr(s, '\n', nul - s)); s++)
		line++;
	return line;
}

const char *textfile_strerror(int err)
{
	switch (err) {
	case -EISDIR:
		return "is a directory";
	case -EINVAL:
		return "not a regular file";
	case -EFBIG:
		return "larger than " TEXTFILE_MAX_TEXT ", the most a text file may be";
	default:
		return strerror(-err);
	}
}

/* a sysfs or procfs fact's first line, at most: /proc/cmdline's 2048 bytes fit */
#define FACT_MAX	8192

char *read_first_line(const char *path)
{
	char buf[FACT_MAX];
	int n = read_small_file(path, buf, sizeof(buf));

	if (n <= 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/*
 * path opened for reading without blocking, when it is a regular file
 * (procfs and sysfs files are): a FIFO or a device (in a fake root,
 * BPFSWEEP_SYSROOT, or a hostile meta) would block for ever or never end.
 * held: resolved as heldir.h does (a result directory's file).  The
 * descriptor, or -errno (-EINVAL: not a regular file).
 */
static int open_regular(const char *path, bool held)
{
	int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
	int fd = held ? heldir_open(path, flags, 0) : open(path, flags);
	struct stat st;

	if (fd < 0)
		return held ? fd : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* what keyed_value_sep() reads of a file at most: /proc/cpuinfo of 1024 CPUs is 1.5 MiB */
#define KEYED_MAX	(16 << 20)
/* a line's head that is read: a CPU's flags are about 1.5 KiB */
#define KEYED_LINE_MAX	8192

/* keyed_value_sep()'s file: a stream of open_regular()'s descriptor, or NULL */
static FILE *fopen_regular(const char *path)
{
	int fd = open_regular(path, true);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

bool keyed_value_sep(const char *path, const char *key, const char *sep, char *buf,
		     size_t len)
{
	char line[KEYED_LINE_MAX], *colon;
	size_t n = 0, read = 0;
	bool found = false, whole = true, was_whole;
	FILE *f = fopen_regular(path);

	while (f && (sep || !found) && read < KEYED_MAX && fgets(line, sizeof(line), f)) {
		/* a line longer than the buffer: its head is read, the rest skipped */
		was_whole = whole;
		whole = strchr(line, '\n') != NULL;
		read += strlen(line);
		colon = strchr(line, ':');
		if (!was_whole || !colon)
			continue;
		*colon = '\0';
		if (strcmp(trim(line), key) || n >= len)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", found ? sep : "", trim(colon + 1));
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

bool keyed_value(const char *path, const char *key, char *buf, size_t len)
{
	return keyed_value_sep(path, key, NULL, buf, len);
}

int read_small_file(const char *path, char *buf, size_t len)
{
	/* a fact of procfs or sysfs (regular files): by path, no registry of held directories */
	int fd = open_regular(path, false);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}
