// SPDX-License-Identifier: GPL-2.0
/* Reading a whole text file into memory; see textfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textfile.h"

/* Regular files only: a FIFO could block, a device (/dev/zero) never ends. */
static int check_regular(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return st.st_size > TEXTFILE_MAX_BYTES ? -EFBIG : 0;
}

/* Up to TEXTFILE_MAX_BYTES + 1 bytes, so that a file that grew is still caught. */
static int read_all(int fd, char *buf, size_t *len)
{
	ssize_t n;

	*len = 0;
	while (*len <= TEXTFILE_MAX_BYTES) {
		n = read(fd, buf + *len, TEXTFILE_MAX_BYTES + 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		*len += n;
	}
	return -EFBIG;
}

int read_text_file_len(const char *path, char **out, size_t *len)
{
	size_t got;
	char *buf, *fit;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	err = check_regular(fd);
	if (err)
		goto close_fd;
	err = -ENOMEM;
	buf = malloc(TEXTFILE_MAX_BYTES + 2);
	if (!buf)
		goto close_fd;
	err = read_all(fd, buf, &got);
	if (err) {
		free(buf);
		goto close_fd;
	}
	buf[got] = '\0';
	fit = realloc(buf, got + 1);
	*out = fit ? fit : buf;
	if (len)
		*len = got;
close_fd:
	close(fd);
	return err;
}

int read_text_file(const char *path, char **out)
{
	return read_text_file_len(path, out, NULL);
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
