// SPDX-License-Identifier: GPL-2.0
/* The cgroup file system as bpfsweep uses it: see cgroup.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "textfile.h"

/* rmdir may see the cgroup busy until the tasks killed in it are gone */
#define RMDIR_TRIES	100
#define RMDIR_WAIT_NS	10000000L
/* kill rounds without cgroup.kill: a process may fork while its siblings die */
#define KILL_ROUNDS	200
#define KILL_WAIT_NS	5000000L

bool cgroup_has_word(const char *list, const char *tok, const char *sep)
{
	size_t len = strlen(tok);

	for (const char *p = list; *p; p += strcspn(p, sep), p += strspn(p, sep))
		if (strcspn(p, sep) == len && !strncmp(p, tok, len))
			return true;
	return false;
}

/* Split line at spaces into at most max fields, in place; how many. */
static int split(char *line, char **f, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(line, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	return n;
}

/* mountinfo writes a space, tab, newline or backslash as \ooo; undo it in place. */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int cgroup_mount(bool v2, char *mnt, size_t len)
{
	char *text, *line, *save = NULL;
	int err = read_text_file("/proc/self/mountinfo", &text);

	if (err)
		return err;
	err = -ENOENT;
	for (line = strtok_r(text, "\n", &save); line && err; line = strtok_r(NULL, "\n", &save)) {
		/* "36 25 0:31 / /sys/fs/cgroup/memory rw shared:14 - cgroup cgroup rw,memory" */
		char *tail = strstr(line, " - "), *f[5], *t[3];

		if (!tail)
			continue;
		*tail = '\0';
		/* f: id, parent, dev, root, mount point; t: type, source, super options */
		if (split(line, f, 5) < 5 || split(tail + 3, t, 3) < 3 || strcmp(f[3], "/"))
			continue;
		if (v2 ? strcmp(t[0], "cgroup2") :
			 strcmp(t[0], "cgroup") || !cgroup_has_word(t[2], "memory", ","))
			continue;
		unescape_octal(f[4]);
		if ((size_t)snprintf(mnt, len, "%s", f[4]) < len)
			err = 0;
	}
	free(text);
	return err;
}

int cgroup_own(bool v2, char *path, size_t len)
{
	char *text, *line, *save = NULL;
	int err = read_text_file("/proc/self/cgroup", &text);

	if (err)
		return err;
	err = -ENOENT;
	for (line = strtok_r(text, "\n", &save); line && err; line = strtok_r(NULL, "\n", &save)) {
		char *ctrl = strchr(line, ':'), *cg = ctrl ? strchr(ctrl + 1, ':') : NULL;

		if (!cg)
			continue;
		*cg++ = '\0';
		ctrl++;
		if (v2 ? strcmp(line, "0:") || *ctrl : !cgroup_has_word(ctrl, "memory", ","))
			continue;
		err = (size_t)snprintf(path, len, "%s", cg) < len ? 0 : -ENAMETOOLONG;
	}
	free(text);
	return err;
}

int cgroup_join(char *out, size_t len, const char *dir, const char *rest)
{
	int n = snprintf(out, len, "%s%s", dir, strcmp(rest, "/") ? rest : "");

	return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

int cgroup_own_dir(bool v2, char *dir, size_t len)
{
	char mnt[PATH_MAX], own[PATH_MAX];
	int err = cgroup_mount(v2, mnt, sizeof(mnt));

	err = err ?: cgroup_own(v2, own, sizeof(own));
	return err ?: cgroup_join(dir, len, mnt, own);
}

int cgroup_write(const char *dir, const char *name, const char *s)
{
	char path[PATH_MAX + 32];
	ssize_t n, len = strlen(s);
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n != len)
		err = n < 0 ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Call fn(path) for every cgroup directly below dir. */
static void each_child(const char *dir, void (*fn)(const char *path, void *arg), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 256];

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < sizeof(path))
			fn(path, arg);
	}
	closedir(d);
}

/* One round: SIGKILL every process in dir and below; *left counts those seen. */
static void kill_listed(const char *dir, void *arg)
{
	char path[PATH_MAX + 32], *text;
	int *left = arg;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (!read_text_file(path, &text)) {
		for (char *p = text, *end; *p; p = end + (*end == '\n')) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			if (pid > 0 && pid != getpid() && !kill(pid, SIGKILL))
				(*left)++;
		}
		free(text);
	}
	each_child(dir, kill_listed, left);
}

static void kill_all_in(const char *dir)
{
	struct timespec wait = { 0, KILL_WAIT_NS };

	/* v2 since Linux 5.14: the whole subtree at once, forks and all */
	if (!cgroup_write(dir, "cgroup.kill", "1"))
		return;
	for (int i = 0; i < KILL_ROUNDS; i++) {
		int left = 0;

		kill_listed(dir, &left);
		if (!left)
			return;
		nanosleep(&wait, NULL);
	}
}

static void remove_below(const char *dir, void *arg)
{
	struct timespec wait = { 0, RMDIR_WAIT_NS };
	int *err = arg;

	each_child(dir, remove_below, arg);
	for (int i = 0; rmdir(dir); i++) {
		if (errno != EBUSY || i + 1 == RMDIR_TRIES) {
			*err = -errno;
			return;
		}
		nanosleep(&wait, NULL);
	}
}

int cgroup_destroy(const char *dir)
{
	int err = 0;

	kill_all_in(dir);
	remove_below(dir, &err);
	return err == -ENOENT ? 0 : err;
}

bool sweep_owner_gone(pid_t pid, pid_t only)
{
	if (only)
		return pid == only;
	/* a pid reused by another program counts as live: what it named waits */
	return pid != getpid() && kill(pid, 0) && errno == ESRCH;
}

/* Destroy the bpfsweep-<pid>-... cgroups directly in place (see cgroup_sweep()). */
static void sweep_place(const char *place, pid_t only)
{
	DIR *d = opendir(place);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 256];
		int pid, end = 0;

		if (sscanf(de->d_name, CGROUP_PREFIX "%d-%n", &pid, &end) != 1 || !end || pid <= 0)
			continue;
		if (!sweep_owner_gone(pid, only))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", place, de->d_name) < sizeof(path))
			cgroup_destroy(path);
	}
	closedir(d);
}

void cgroup_sweep(pid_t pid)
{
	char root[PATH_MAX], own[PATH_MAX], parent[PATH_MAX], v1[PATH_MAX];

	/* v2: the root, our cgroup and its parent (memcg.c's siblings); v1: our memory cgroup */
	if (!cgroup_mount(true, root, sizeof(root))) {
		sweep_place(root, pid);
		if (!cgroup_own_dir(true, own, sizeof(own)) && strcmp(own, root)) {
			sweep_place(own, pid);
			snprintf(parent, sizeof(parent), "%s", own);
			*strrchr(parent, '/') = '\0';
			if (strcmp(parent, root))
				sweep_place(parent, pid);
		}
	}
	if (!cgroup_own_dir(false, v1, sizeof(v1)))
		sweep_place(v1, pid);
}
