// SPDX-License-Identifier: GPL-2.0
/* Helper programs from an argv: see subproc.h. */
#define _GNU_SOURCE	/* posix_spawn_file_actions_addchdir_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "subproc.h"

extern char **environ;

/* stdin from /dev/null, stdout and stderr appended to log (if any), in dir (if any). */
static int spawn_plain(const char *const *argv, const char *log, const char *dir, pid_t *pid)
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
	if (!err && dir)
		err = posix_spawn_file_actions_addchdir_np(&fa, dir);
	if (!err)
		err = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

int spawn_argv(const char *const *argv, const char *log, pid_t *pid)
{
	return spawn_plain(argv, log, NULL, pid);
}

int spawn_argv_in(const char *const *argv, const char *dir, pid_t *pid)
{
	return spawn_plain(argv, NULL, dir, pid);
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

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* How long a wait that may be stopped sleeps at most between looks at *stop. */
#define STOP_LOOK_MS	20

/*
 * Sleep on pid's pidfd, which becomes readable when pid exits, until pid
 * is reaped (0), the deadline passes (-ETIMEDOUT) or *stop is set
 * (-EINTR).  A signal handler that sets *stop interrupts poll(); the look
 * every STOP_LOOK_MS covers one that came just before poll() began.
 */
static int reap_by(pid_t pid, int pidfd, long long deadline,
		   const volatile sig_atomic_t *stop, int *status)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		long long left = deadline - now_ms();

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (stop && *stop)
			return -EINTR;
		if (left <= 0)
			return -ETIMEDOUT;
		if (stop && left > STOP_LOOK_MS)
			left = STOP_LOOK_MS;
		if (poll(&pfd, 1, left) < 0 && errno != EINTR)
			return -errno;
	}
}

static int kill_and_reap(pid_t pid, int *status)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/*
 * The waits below all come here.  Without pidfd_open() (Linux 5.3) there
 * is no wait with a timeout that is not a busy look: pid is killed, so
 * that nothing is left running, and the error is pidfd_open's (-ENOSYS).
 * -ESRCH: no such child, nothing to kill.
 */
static int wait_status(pid_t pid, unsigned int timeout_ms, const volatile sig_atomic_t *stop,
		       int *status)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0), err;

	if (pidfd < 0) {
		err = -errno;
		if (err != -ESRCH)
			kill_and_reap(pid, status);
		return err;
	}
	err = reap_by(pid, pidfd, now_ms() + timeout_ms, stop, status);
	close(pidfd);
	if (err == -ETIMEDOUT)
		return kill_and_reap(pid, status) ?: -ETIMEDOUT;
	return err;
}

int spawn_wait_status(pid_t pid, unsigned int timeout_ms, int *status)
{
	return wait_status(pid, timeout_ms, NULL, status);
}

static int wait_until(pid_t pid, unsigned int timeout_ms, const volatile sig_atomic_t *stop,
		      bool *timed_out)
{
	int st, err = wait_status(pid, timeout_ms, stop, &st);

	*timed_out = err == -ETIMEDOUT;
	if (err && !*timed_out)
		return err;
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
