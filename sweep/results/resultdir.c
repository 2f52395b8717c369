// SPDX-License-Identifier: GPL-2.0
/*
 * Creating the files of a result directory so that a kill, a full disk or
 * a second run never leaves one overwritten, empty or half-written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heldir.h"
#include "resultdir.h"
#include "spec.h"

#define PATH_LEN 4096

int resultdir_sync(const char *dir)
{
	return heldir_sync(dir);
}

/*
 * The parents as mkdir -p makes them, then the run's own directory, held
 * by descriptor from its mkdir on (heldir.h): every file below is opened
 * from it, so a path swapped mid-run cannot redirect the run.
 */
int resultdir_create(const char *dir)
{
	char path[PATH_LEN];
	size_t len = strlen(dir);
	int err;

	if (!len)
		return -ENOENT;
	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	/* "out/" is "out": a trailing slash must not make "out" a parent */
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		err = heldir_mkdir(path, 0755);
		if (err && err != -EEXIST)
			return err;
		*p = '/';
	}
	/* the run's own directory: existing is refused, never reused */
	return heldir_create(path, 0755);
}

int resultdir_hold(const char *dir)
{
	return heldir_hold(dir);
}

/* An flock(2) of kind op (LOCK_EX, LOCK_SH) on dir, never waited for. */
static int lock_dir(const char *dir, int op)
{
	int fd = heldir_open_dir(dir);

	if (fd < 0)
		return fd;
	if (flock(fd, op | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		close(fd);
		return err;
	}
	return fd;
}

int resultdir_lock(const char *dir)
{
	return lock_dir(dir, LOCK_EX);
}

int resultdir_lock_shared(const char *dir)
{
	return lock_dir(dir, LOCK_SH);
}

int resultdir_write_at(int fd, off_t off, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return fsync(fd) ? -errno : 0;
}

/* Give the unnamed file fd the name dirfd/name; -EEXIST if taken. */
static int link_tmpfile(int fd, int dirfd, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno != ENOENT)
		return -errno;
	/* no /proc: AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH, which root has) */
	return linkat(fd, "", dirfd, name, AT_EMPTY_PATH) ? -errno : 0;
}

/* Filesystems without O_TMPFILE: an exclusive create, briefly empty. */
static int create_plain(int dirfd, const char *name, const void *buf, size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int err;

	if (fd < 0)
		return -errno;
	err = resultdir_write_at(fd, 0, buf, len);
	if (err) {
		close(fd);
		unlinkat(dirfd, name, 0);
		return err;
	}
	return fd;
}

static int create_unnamed(int dirfd, const char *name, const void *buf, size_t len)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	int err;

	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		return create_plain(dirfd, name, buf, len);
	if (fd < 0)
		return -errno;
	err = resultdir_write_at(fd, 0, buf, len);
	if (!err)
		err = link_tmpfile(fd, dirfd, name);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int resultdir_create_file(const char *dir, const char *name, const void *buf, size_t len)
{
	int dirfd = heldir_open_dir(dir);
	int fd, err;

	if (dirfd < 0)
		return dirfd;
	fd = create_unnamed(dirfd, name, buf, len);
	if (fd >= 0 && fsync(dirfd)) {
		err = -errno;
		close(fd);
		fd = err;
	}
	close(dirfd);
	return fd;
}

/*
 * Written under no name, then linked as name.tmp and renamed over name: a
 * kill leaves name.tmp only in the moment between link and rename.
 */
int resultdir_replace_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char tmp[PATH_LEN];
	int dirfd, fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", name) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	dirfd = heldir_open_dir(dir);
	if (dirfd < 0)
		return dirfd;
	unlinkat(dirfd, tmp, 0);
	fd = create_unnamed(dirfd, tmp, buf, len);
	if (fd < 0)
		err = fd;
	else
		close(fd);
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	else if (fsync(dirfd))
		err = -errno;
	close(dirfd);
	return err;
}

int membuf_open(struct membuf *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f ? 0 : -errno;
}

int membuf_close(struct membuf *m)
{
	int err = ferror(m->f) ? -EIO : 0;

	if (fclose(m->f) && !err)
		err = -errno;
	m->f = NULL;
	return err;
}

void membuf_free(struct membuf *m)
{
	if (m->f)
		fclose(m->f);
	free(m->buf);
	m->f = NULL;
	m->buf = NULL;
	m->len = 0;
}

int resultdir_remove_tree(const char *path)
{
	return heldir_remove_tree(path);
}

int resultdir_put_file(const char *dir, const char *name, const void *buf, size_t len,
		       bool replace)
{
	int fd;

	if (replace)
		return resultdir_replace_file(dir, name, buf, len);
	fd = resultdir_create_file(dir, name, buf, len);
	return fd < 0 ? fd : close(fd) ? -errno : 0;
}

int resultdir_write_file(const char *dir, const char *name, bool replace,
			 int (*fill)(FILE *f, const void *ctx), const void *ctx)
{
	struct membuf m;
	int err;

	err = membuf_open(&m);
	if (!err) {
		err = fill(m.f, ctx);
		err = membuf_close(&m) ?: err;
	}
	if (!err)
		err = resultdir_put_file(dir, name, m.buf, m.len, replace);
	membuf_free(&m);
	return err;
}

static int spec_fill(FILE *f, const void *spec)
{
	return spec_write(spec, f);
}

int resultdir_write_spec(const char *dir, const struct spec *spec, bool replace)
{
	return resultdir_write_file(dir, "spec", replace, spec_fill, spec);
}

void resultdir_default_path(char *buf, size_t len, const char *name, time_t when,
			    const char *suffix)
{
	char stamp[32];
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/%s/%s%s", name, stamp, suffix);
}
