// SPDX-License-Identifier: GPL-2.0
/* No child outlives bpfsweep: see procguard.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "procguard.h"
#include "scratch.h"

struct child {
	pid_t pid;
	bool keep;
	char *cg;		/* its cgroup's directory, or NULL */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct child *children;
static int nr_children, max_children;
static unsigned int cgroup_seq;	/* tells this process's child cgroups apart */
static int guard_fd = -1;	/* to the guardian: the process groups to kill (tell()) */

/* The most process groups the guardian keeps; past it, new ones go untold. */
#define GUARD_MAX_GROUPS	4096

/* The signals the guardian must outlive: a Ctrl-C, a hangup, a closed pipe, kill's default. */
static const int guard_ignores[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ,
};

/*
 * The guardian learns of every child as it starts (pid) and ends (-pid):
 * one record a message on a SOCK_SEQPACKET pair, sent with the lock held.
 * Where no cgroup holds a child (not root), what the child leaves in its
 * process group is found by that group, which bpfsweep kills after every
 * reap and at exit, and the guardian after a SIGKILL of bpfsweep.  No
 * SIGPIPE if the guardian is gone: the child is still killed as before.
 */
static void tell(pid_t pid)
{
	if (guard_fd >= 0)
		send(guard_fd, &pid, sizeof(pid), MSG_NOSIGNAL);
}

/* The guardian's set of live children's process groups: pid added, -pid removed. */
static void note(pid_t *groups, int *nr, pid_t rec)
{
	for (int i = 0; i < *nr; i++) {
		if (groups[i] != (rec < 0 ? -rec : rec))
			continue;
		if (rec < 0)
			groups[i] = groups[--*nr];
		return;
	}
	if (rec > 0 && *nr < GUARD_MAX_GROUPS)
		groups[(*nr)++] = rec;
}

/*
 * The guardian: out of bpfsweep's session, so that no signal for the
 * terminal or bpfsweep's process group reaches it, and off its stdio, so
 * that no pipe waits for it.  Its socket reads EOF when the last copy of
 * bpfsweep's end closes: at bpfsweep's end, whatever ends it.  Then the
 * process groups of the children bpfsweep did not see end are killed
 * (their own programs went with bpfsweep: PR_SET_PDEATHSIG), every
 * cgroup of bpfsweep's pid destroyed and its scratch directories removed.
 */
static void guard(int fd, pid_t bpfsweep)
{
	pid_t groups[GUARD_MAX_GROUPS];	/* 16 KiB of the guardian's own stack */
	int null = open("/dev/null", O_RDWR), nr = 0;
	pid_t rec;
	ssize_t n;

	setsid();
	prctl(PR_SET_NAME, "bpfsweep-guard");
	for (size_t i = 0; i < sizeof(guard_ignores) / sizeof(guard_ignores[0]); i++)
		signal(guard_ignores[i], SIG_IGN);
	for (int i = 0; i < 3 && null >= 0; i++)
		dup2(null, i);
	if (dup2(fd, 3) == 3)
		fd = 3;
	close_range(4, ~0U, 0);
	while ((n = recv(fd, &rec, sizeof(rec), 0)) != 0) {
		if (n == sizeof(rec))
			note(groups, &nr, rec);
		else if (n < 0 && errno != EINTR)
			break;
	}
	for (int i = 0; i < nr; i++)
		kill(-groups[i], SIGKILL);
	cgroup_sweep(bpfsweep);
	scratch_sweep(bpfsweep);
	_exit(0);
}

int procguard_start(void)
{
	int p[2];
	pid_t pid, self = getpid();

	cgroup_sweep(0);
	scratch_sweep(0);
	atexit(procguard_end);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p))
		return -errno;
	pid = fork();
	if (!pid) {
		close(p[1]);
		guard(p[0], self);
	}
	close(p[0]);
	/* this end stays open until this process ends: its close is the guardian's cue */
	if (pid < 0) {
		close(p[1]);
		return -errno;
	}
	guard_fd = p[1];
	return 0;
}

void procguard_cgroup(int *procs_fd, char **cg)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	unsigned int seq;

	*procs_fd = -1;
	*cg = NULL;
	/* cgroup2 where mounted (any cgroup can hold one), else the v1 memory hierarchy */
	if (cgroup_own_dir(true, dir, sizeof(dir)) && cgroup_own_dir(false, dir, sizeof(dir)))
		return;
	pthread_mutex_lock(&lock);
	seq = cgroup_seq++;
	pthread_mutex_unlock(&lock);
	if ((size_t)snprintf(path, sizeof(path), "%s/" CGROUP_PREFIX "%d-c%u", dir, getpid(),
			     seq) >= sizeof(path) - 16 || mkdir(path, 0755))
		return;
	*cg = strdup(path);
	strcat(path, "/cgroup.procs");
	*procs_fd = *cg ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (*procs_fd < 0 && *cg) {
		rmdir(*cg);
		free(*cg);
		*cg = NULL;
	}
}

/*
 * Kill the child's process group (while it is not reaped: pid > 0) and
 * destroy its cgroup; with the lock held.
 */
static void end_child(struct child *c)
{
	if (c->pid > 0) {
		kill(-c->pid, SIGKILL);
		tell(-c->pid);
	}
	if (c->cg)
		cgroup_destroy(c->cg);
	free(c->cg);
	c->cg = NULL;
}

static struct child *find(pid_t pid)
{
	for (int i = 0; i < nr_children; i++)
		if (children[i].pid == pid)
			return &children[i];
	return NULL;
}

void procguard_add(pid_t pid, char *cg, bool keep)
{
	struct child *c;

	pthread_mutex_lock(&lock);
	c = find(pid);
	if (!c && nr_children == max_children) {
		int max = max_children ? 2 * max_children : 8;
		struct child *grown = realloc(children, max * sizeof(*grown));

		if (grown) {
			children = grown;
			max_children = max;
		}
	}
	if (!c && nr_children < max_children)
		c = &children[nr_children++];
	else if (c)
		end_child(c);	/* a pid reaped without procguard_reaped(), now reused */
	if (c) {
		*c = (struct child){ .pid = pid, .keep = keep, .cg = cg };
		tell(pid);
	} else {
		free(cg);	/* no room to track it: the guardian's sweep still covers it */
	}
	pthread_mutex_unlock(&lock);
}

void procguard_reaped(pid_t pid)
{
	struct child *c;

	pthread_mutex_lock(&lock);
	c = find(pid);
	if (c && c->keep && c->cg && rmdir(c->cg)) {
		/* not empty: what it left runs on until the end, without a group to kill */
		tell(-c->pid);
		c->pid = 0;
	} else if (c) {
		if (c->keep) {
			tell(-c->pid);
			c->pid = 0;
		}
		end_child(c);
		*c = children[--nr_children];
	}
	pthread_mutex_unlock(&lock);
}

void procguard_end(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nr_children; i++)
		end_child(&children[i]);
	nr_children = 0;
	pthread_mutex_unlock(&lock);
}
