// SPDX-License-Identifier: GPL-2.0
/* Scratch directories named for the bpfsweep that made them: see scratch.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "diag.h"
#include "heldir.h"
#include "scratch.h"

#define PREFIX		"bpfsweep-"
#define SUFFIX_LEN	6	/* mkdtemp()'s XXXXXX */

/*
 * Can another user swap what is made in dir?  Only its owner, or anyone
 * when it is writable by others without the sticky bit, can rename a
 * directory made in it: a $TMPDIR a user owns (`sudo -E`) would let that
 * user replace root's fresh scratch directory with one of links
 * (qemu.log -> TARGET), which root would then write through.
 */
static bool others_can_swap(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return true;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return true;
	return (st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX);
}

/*
 * $TMPDIR where a socket's path beneath it still fits and no other user
 * can swap what is made there, else /tmp (said at each use: rare, and a
 * user should see it).
 */
static const char *base(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || tmp[0] != '/' || strlen(tmp) > SCRATCH_BASE_MAX)
		return "/tmp";
	if (!others_can_swap(tmp))
		return tmp;
	diag_warn("TMPDIR %s: another user could swap what bpfsweep makes there (not this "
		  "user's or root's, or writable by others without the sticky bit): this "
		  "scratch directory goes in /tmp", tmp);
	return "/tmp";
}

int scratch_make(char *buf, size_t len, const char *what)
{
	if ((size_t)snprintf(buf, len, "%s/" PREFIX "%s.%d.XXXXXX", base(), what, getpid()) >=
	    len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

void scratch_remove(const char *path)
{
	heldir_remove_tree(path);
}

/* The pid a scratch directory's name carries, or 0 for a name that is not one. */
static pid_t owner_of(const char *name)
{
	const char *dot;
	int pid, end = -1;

	if (strncmp(name, PREFIX, strlen(PREFIX)))
		return 0;
	dot = strchr(name + strlen(PREFIX), '.');
	if (!dot || sscanf(dot + 1, "%d.%n", &pid, &end) != 1 || end < 0 || pid <= 0 ||
	    strlen(dot + 1 + end) != SUFFIX_LEN)
		return 0;
	return pid;
}

/* The directory entry name in dir (dfd) if it is ours to remove: a directory of this user. */
static bool ours(int dfd, const char *name)
{
	struct stat st;

	return !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

static void sweep_base(const char *dir, pid_t only)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		pid_t pid = owner_of(de->d_name);
		char path[PATH_MAX];

		if (!pid || !sweep_owner_gone(pid, only) || !ours(dfd, de->d_name))
			continue;
		/* by descriptor all the way down: a symlink inside is removed, not followed */
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < sizeof(path))
			heldir_remove_tree(path);
	}
	closedir(d);
}

void scratch_sweep(pid_t pid)
{
	const char *b = base();

	sweep_base(b, pid);
	if (strcmp(b, "/tmp"))
		sweep_base("/tmp", pid);	/* made before TMPDIR changed */
}
