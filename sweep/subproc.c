// SPDX-License-Identifier: GPL-2.0
/* Helper programs from an argv: see subproc.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "subproc.h"

extern char **environ;

int spawn_argv(const char *const *argv, const char *log, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int err = posix_spawn_file_actions_init(&fa);

	if (err)
		return -err;
	err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!err && log)
		err = posix_spawn_file_actions_addopen(&fa, 1, log,
						       O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (!err && log)
		err = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (!err)
		err = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

static int group_attr(posix_spawnattr_t *attr)
{
	sigset_t none, all;
	int err = posix_spawnattr_init(attr);

	if (err)
		return err;
	sigemptyset(&none);
	sigfillset(&all);
	err = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
				       POSIX_SPAWN_SETSIGDEF);
	if (!err)
		err = posix_spawnattr_setpgroup(attr, 0);
	if (!err)
		err = posix_spawnattr_setsigmask(attr, &none);
	if (!err)
		err = posix_spawnattr_setsigdefault(attr, &all);
	if (err)
		posix_spawnattr_destroy(attr);
	return err;
}

int spawn_argv_group(const char *const *argv, int out_fd, int err_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int err = group_attr(&attr);

	if (err)
		return -err;
	err = posix_spawn_file_actions_init(&fa);
	if (err)
		goto destroy_attr;
	err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	if (!err)
		err = posix_spawnp(pid, argv[0], &fa, &attr, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
destroy_attr:
	posix_spawnattr_destroy(&attr);
	return -err;
}

int spawn_argv_group_log(const char *const *argv, const char *log, pid_t *pid)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644), err;

	if (fd < 0)
		return -errno;
	err = spawn_argv_group(argv, fd, fd, pid);
	close(fd);
	return err;
}

static int shell_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int wait_until(pid_t pid, unsigned int timeout_ms, const volatile sig_atomic_t *stop,
		      bool *timed_out)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int st;

	*timed_out = false;
	for (unsigned int waited = 0; waited < timeout_ms; waited += 10) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return shell_status(st);
		if (w < 0 && errno != EINTR)
			return -errno;
		if (stop && *stop)
			return -EINTR;
		nanosleep(&tick, NULL);
	}
	*timed_out = true;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return shell_status(st);
}

int spawn_wait_stop(pid_t pid, unsigned int timeout_ms, const volatile sig_atomic_t *stop)
{
	bool timed_out;

	return wait_until(pid, timeout_ms, stop, &timed_out);
}

int spawn_wait(pid_t pid, unsigned int timeout_ms)
{
	return spawn_wait_stop(pid, timeout_ms, NULL);
}

int spawn_wait_timed(pid_t pid, unsigned int timeout_ms, bool *timed_out)
{
	return wait_until(pid, timeout_ms, NULL, timed_out);
}

int spawn_self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n < 0)
		return -errno;
	if ((size_t)n == len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

int spawn_find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH") ?: "/usr/bin:/bin";

	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, len, "%.*s/%s", (int)n, path, name);
		if (n && !access(buf, X_OK))
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}
