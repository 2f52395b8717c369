// SPDX-License-Identifier: GPL-2.0
/* Directories held by descriptor, and paths beneath them resolved from it: see heldir.h. */
#define _GNU_SOURCE	/* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "growarray.h"
#include "heldir.h"

struct held {
	char *path;	/* as the caller spelt it, trailing slashes cut */
	int fd;
};

static struct held *held;
static size_t nr_held;

/*
 * The registry and the descriptors resolve() lends out, kept for one call
 * at a time: fleet's host threads open files while the main thread may
 * hold or release.  Recursive: the calls below call each other.
 */
static pthread_mutex_t registry_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static inline int registry_lock(void)
{
	return pthread_mutex_lock(&registry_mutex);
}

static inline void registry_unlock(int *locked)
{
	if (!*locked)
		pthread_mutex_unlock(&registry_mutex);
}

/* The registry held from here to the end of the enclosing block. */
#define REGISTRY_GUARD() int registry_guard_ __attribute__((cleanup(registry_unlock))) = \
	registry_lock()

/* Where a call on a path goes: the directory descriptor and name of an *at() call. */
struct at {
	int dfd;		/* AT_FDCWD, a held descriptor, or one opened here (own) */
	bool own;
	bool self;		/* the held directory itself */
	const char *name;
	char last[NAME_MAX + 1];
};

/* path's length without trailing slashes ("/" stays "/"). */
static size_t trimmed_len(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return len;
}

/* Is path the held directory h, or beneath it?  *rest: what follows h's path. */
static bool in_held(const struct held *h, const char *path, const char **rest)
{
	size_t n = strlen(h->path);

	if (strncmp(path, h->path, n) || (path[n] && path[n] != '/'))
		return false;
	*rest = path + n;
	return true;
}

/* The held directory path lies in, the deepest when several do; NULL when none. */
static const struct held *held_of(const char *path, const char **rest)
{
	const struct held *best = NULL;
	const char *r;

	for (size_t i = 0; i < nr_held; i++)
		if (in_held(&held[i], path, &r) && (!best || r > *rest)) {
			best = &held[i];
			*rest = r;
		}
	return best;
}

/*
 * -errno of an openat() with O_NOFOLLOW that failed: O_DIRECTORY says
 * ENOTDIR of a symlink, which is said as what it is, ELOOP.
 */
static int nofollow_error(int dfd, const char *name)
{
	struct stat st;
	int err = errno;

	if (err == ENOTDIR && !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(st.st_mode))
		err = ELOOP;
	return -err;
}

/*
 * Without openat2() (before Linux 5.6): rel opened from dfd one component
 * at a time, none of them a symlink nor "..".
 */
static int open_nofollow(int dfd, const char *rel, int flags, mode_t mode)
{
	char name[NAME_MAX + 1];
	int cur = dfd, fd;

	for (;;) {
		size_t n = strcspn(rel, "/");
		const char *next = rel + n + strspn(rel + n, "/");
		bool last = !*next;

		if (n > NAME_MAX) {
			fd = -ENAMETOOLONG;
		} else if (n == 2 && !strncmp(rel, "..", 2)) {
			fd = -EXDEV;
		} else {
			snprintf(name, sizeof(name), "%.*s", (int)n, n ? rel : ".");
			fd = openat(cur, name, (last ? flags : O_RDONLY | O_DIRECTORY) |
				    O_NOFOLLOW | O_CLOEXEC, mode);
			if (fd < 0)
				fd = nofollow_error(cur, name);
		}
		if (cur != dfd)
			close(cur);
		if (fd < 0 || last)
			return fd;
		cur = fd;
		rel = next;
	}
}

/*
 * rel opened beneath dfd: symlinks followed only while they stay in it,
 * ".." never out of it (RESOLVE_BENEATH: -EXDEV otherwise).
 */
static int open_beneath(int dfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = { .flags = flags | O_CLOEXEC, .resolve = RESOLVE_BENEATH |
				RESOLVE_NO_MAGICLINKS };
	long fd;

	rel += strspn(rel, "/");
	if (flags & (O_CREAT | O_TMPFILE))
		how.mode = mode;
	fd = syscall(SYS_openat2, dfd, *rel ? rel : ".", &how, sizeof(how));
	if (fd >= 0)
		return fd;
	if (errno != ENOSYS)
		return -errno;
	return open_nofollow(dfd, rel, flags, mode);
}

static void at_done(struct at *at)
{
	if (at->own)
		close(at->dfd);
	at->own = false;
}

/*
 * at for path: beneath its held directory, the directory of its last
 * component opened as open_beneath() does, and the last component (not
 * ".."; "." for the held directory itself); else path relative to the cwd.
 */
static int resolve(const char *path, struct at *at)
{
	const char *rest = NULL, *last;
	const struct held *h = held_of(path, &rest);
	char dir[PATH_MAX];
	size_t n;
	int fd;

	*at = (struct at){ .dfd = AT_FDCWD, .name = path };
	if (!h)
		return 0;
	rest += strspn(rest, "/");
	n = strlen(rest);
	while (n && rest[n - 1] == '/')
		n--;
	last = memrchr(rest, '/', n);
	last = last ? last + 1 : rest;
	if ((size_t)(rest + n - last) > NAME_MAX || (size_t)(last - rest) >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(at->last, sizeof(at->last), "%.*s", (int)(rest + n - last), last);
	if (!strcmp(at->last, ".."))
		return -EXDEV;
	at->name = *at->last ? at->last : ".";
	at->dfd = h->fd;
	at->self = !n;
	if (last == rest)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(last - rest), rest);
	fd = open_beneath(h->fd, dir, O_PATH | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	at->dfd = fd;
	at->own = true;
	return 0;
}

int heldir_open(const char *path, int flags, mode_t mode)
{
	REGISTRY_GUARD();
	const char *rest = NULL;
	const struct held *h = held_of(path, &rest);
	int fd;

	if (h)
		return open_beneath(h->fd, rest, flags, mode);
	fd = open(path, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int heldir_open_dir(const char *path)
{
	return heldir_open(path, O_RDONLY | O_DIRECTORY, 0);
}

int heldir_stat(const char *path, struct stat *st)
{
	int fd = heldir_open(path, O_PATH, 0), err;

	if (fd < 0)
		return fd;
	err = fstat(fd, st) ? -errno : 0;
	close(fd);
	return err;
}

int heldir_access(const char *path)
{
	struct stat st;

	return heldir_stat(path, &st);
}

FILE *heldir_fopen(const char *path, const char *how)
{
	int flags = !strcmp(how, "r") ? O_RDONLY :
		    !strcmp(how, "w") ? O_WRONLY | O_CREAT | O_TRUNC :
		    !strcmp(how, "a") ? O_WRONLY | O_CREAT | O_APPEND : -1;
	int fd = flags < 0 ? -EINVAL : heldir_open(path, flags, 0666);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, how);
	if (!f) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return f;
}

/*
 * Hold fd (>= 0, or a -errno passed on) as path; an entry of the same path
 * is replaced.  fd is the registry's from here on: closed when it fails.
 */
static int hold(const char *path, int fd)
{
	char *copy = fd < 0 ? NULL : strndup(path, trimmed_len(path));

	if (fd < 0)
		return fd;
	if (!copy) {
		close(fd);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr_held; i++)
		if (!strcmp(held[i].path, copy)) {
			free(held[i].path);
			close(held[i].fd);
			held[i] = (struct held){ .path = copy, .fd = fd };
			return 0;
		}
	if (ARRAY_ROOM(held, nr_held)) {
		free(copy);
		close(fd);
		return -ENOMEM;
	}
	held[nr_held++] = (struct held){ .path = copy, .fd = fd };
	return 0;
}

int heldir_hold(const char *path)
{
	REGISTRY_GUARD();

	return hold(path, heldir_open_dir(path));
}

bool heldir_moved(const char *path)
{
	REGISTRY_GUARD();
	const char *rest = NULL;
	const struct held *h = held_of(path, &rest);
	struct stat was, now;

	if (!h || rest[strspn(rest, "/")])
		return false;
	if (fstat(h->fd, &was) || lstat(path, &now))
		return true;
	return was.st_dev != now.st_dev || was.st_ino != now.st_ino;
}

/* Stop holding path and every held directory beneath it. */
static void release_under(const char *path)
{
	size_t len = trimmed_len(path);
	char *copy = strndup(path, len);
	const char *rest;

	for (size_t i = 0; copy && i < nr_held;) {
		struct held h = { .path = copy };

		if (!in_held(&h, held[i].path, &rest)) {
			i++;
			continue;
		}
		free(held[i].path);
		close(held[i].fd);
		held[i] = held[--nr_held];
	}
	free(copy);
}

void heldir_release(const char *path)
{
	REGISTRY_GUARD();
	release_under(path);
}

/* The parent of path ("." or "/" when it has none) and its last component, name. */
static int split_parent(const char *path, char *parent, size_t len, char *name)
{
	size_t n = trimmed_len(path);
	const char *slash = memrchr(path, '/', n);
	const char *last = slash ? slash + 1 : path;

	if (n >= len || (size_t)(path + n - last) > NAME_MAX)
		return -ENAMETOOLONG;
	/* "/" has no last component: "." stands for it (mkdir says EEXIST) */
	snprintf(name, NAME_MAX + 1, "%.*s", (int)(path + n - last), last);
	if (!*name)
		strcpy(name, ".");
	if (!slash)
		strcpy(parent, ".");
	else
		snprintf(parent, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return 0;
}

/* mkdir and open name beneath pfd, the parent's descriptor: the new directory's fd. */
static int make_open(int pfd, const char *name, mode_t mode)
{
	int fd;

	if (mkdirat(pfd, name, mode))
		return -errno;
	/* what is there now must be what mkdir made: a symlink swapped in is refused */
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return nofollow_error(pfd, name);
	if (fsync(pfd)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* A descriptor of path's parent directory (resolved as any path), and path's last component. */
static int open_parent(const char *path, char *name)
{
	char parent[PATH_MAX];
	int err = split_parent(path, parent, sizeof(parent), name);

	return err ?: heldir_open_dir(parent);
}

int heldir_create(const char *path, mode_t mode)
{
	REGISTRY_GUARD();
	char name[NAME_MAX + 1];
	int pfd, fd;

	pfd = open_parent(path, name);
	if (pfd < 0)
		return pfd;
	fd = make_open(pfd, name, mode);
	close(pfd);
	return hold(path, fd);
}

/*
 * rmdir of the held directory fd at path, if path still names it: moved
 * away, it is left where it went (-ESTALE), and whatever took its place too.
 */
static int rmdir_held(const char *path, int fd)
{
	char name[NAME_MAX + 1];
	struct stat was, now;
	int pfd, err = 0;

	pfd = open_parent(path, name);
	if (pfd < 0)
		return pfd;
	if (fstat(fd, &was) || fstatat(pfd, name, &now, AT_SYMLINK_NOFOLLOW))
		err = -errno;
	else if (was.st_dev != now.st_dev || was.st_ino != now.st_ino)
		err = -ESTALE;
	else if (unlinkat(pfd, name, AT_REMOVEDIR))
		err = -errno;
	close(pfd);
	return err;
}

/* mkdirat, or unlinkat with flags, on path's place. */
static int entry_op(const char *path, bool make, mode_t mode, int flags)
{
	REGISTRY_GUARD();
	struct at at;
	int err = resolve(path, &at);

	if (err)
		return err;
	if (flags == AT_REMOVEDIR && at.self)
		err = rmdir_held(path, at.dfd);
	else if (make ? mkdirat(at.dfd, at.name, mode) : unlinkat(at.dfd, at.name, flags))
		err = -errno;
	at_done(&at);
	if (!err && flags == AT_REMOVEDIR)
		release_under(path);
	return err;
}

int heldir_mkdir(const char *path, mode_t mode)
{
	return entry_op(path, true, mode, 0);
}

int heldir_symlink(const char *target, const char *path)
{
	REGISTRY_GUARD();
	struct at at;
	int err = resolve(path, &at);

	if (err)
		return err;
	err = symlinkat(target, at.dfd, at.name) ? -errno : 0;
	at_done(&at);
	return err;
}

int heldir_unlink(const char *path)
{
	return entry_op(path, false, 0, 0);
}

int heldir_rmdir(const char *path)
{
	return entry_op(path, false, 0, AT_REMOVEDIR);
}

int heldir_rename(const char *from, const char *to, unsigned int flags)
{
	REGISTRY_GUARD();
	struct at a, b;
	int err = resolve(from, &a);

	if (err)
		return err;
	err = resolve(to, &b);
	if (!err) {
		err = renameat2(a.dfd, a.name, b.dfd, b.name, flags) ? -errno : 0;
		at_done(&b);
	}
	at_done(&a);
	return err;
}

int heldir_sync(const char *path)
{
	int fd = heldir_open_dir(path), err;

	if (fd < 0)
		return fd;
	err = fsync(fd) ? -errno : 0;
	close(fd);
	return err;
}

static int remove_at(int dfd, const char *name);

/* Remove everything in the directory fd (closed here). */
static int remove_contents(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int err = 0;

	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	while (!err && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			err = remove_at(dirfd(d), e->d_name);
	closedir(d);
	return err;
}

/* Remove name in dfd and, for a directory, all under it; symlinks are removed, not followed. */
static int remove_at(int dfd, const char *name)
{
	int fd, err;

	if (!unlinkat(dfd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	err = remove_contents(fd);
	if (!err && unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT)
		err = -errno;
	return err;
}

int heldir_remove_tree(const char *path)
{
	REGISTRY_GUARD();
	struct at at;
	int err = resolve(path, &at), fd;

	if (err)
		return err == -ENOENT ? 0 : err;
	if (!at.self) {
		err = remove_at(at.dfd, at.name);
	} else {
		/* the held directory itself: emptied by descriptor, then removed if still there */
		fd = openat(at.dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		err = fd < 0 ? -errno : remove_contents(fd);
		err = err ?: rmdir_held(path, at.dfd);
	}
	at_done(&at);
	if (!err)
		release_under(path);
	return err;
}
