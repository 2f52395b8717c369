// SPDX-License-Identifier: GPL-2.0
/* Helper programs from an argv: see subproc.h. */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "heldir.h"
#include "procguard.h"
#include "subproc.h"

extern char **environ;

/* How a child starts: where its output goes, where it runs. */
struct spawn_how {
	int out_fd, err_fd;	/* -1: the caller's */
	int dir_fd;		/* where it runs, by descriptor (heldir.h); -1: the caller's */
	bool own_group;		/* a process group of its own, else the caller's */
	bool keep;		/* what it leaves running is wanted (procguard.h) */
	int pass_fd;		/* above 2: left open across the exec; else none */
	long long file_max;	/* above 0: RLIMIT_FSIZE */
};

/*
 * In the child, between fork() and exec: async-signal-safe calls only.
 * Its own process group if asked, its cgroup, killed with the thread that
 * started it, every signal at its default and unblocked; exec's errno to err_fd.
 */
static void child_exec(const char *path, const char *const *argv, const struct spawn_how *how,
		       int procs_fd, pid_t parent, int err_fd)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int null = open("/dev/null", O_RDONLY), err;
	sigset_t none;

	if (how->own_group && setpgid(0, 0))
		goto fail;
	if (procs_fd >= 0 && write(procs_fd, "0", 1) != 1)
		goto fail;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		goto fail;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null < 0 || dup2(null, 0) < 0 || (how->out_fd >= 0 && dup2(how->out_fd, 1) < 0) ||
	    (how->err_fd >= 0 && dup2(how->err_fd, 2) < 0) || (how->dir_fd >= 0 && fchdir(how->dir_fd)))
		goto fail;
	if (how->pass_fd > 2 && fcntl(how->pass_fd, F_SETFD, 0))
		goto fail;
	if (how->file_max > 0 &&
	    setrlimit(RLIMIT_FSIZE, &(struct rlimit){ how->file_max, how->file_max }))
		goto fail;
	execve(path, (char *const *)argv, environ);
fail:
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* The child's exec error (-errno) from the pipe, or 0 once exec closed it. */
static int exec_result(int fd)
{
	int err = 0;
	ssize_t n;

	while ((n = read(fd, &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(fd);
	return n == sizeof(err) ? -(err ?: EIO) : 0;
}

/* fork() and exec with every signal blocked in between: no handler runs in the child. */
static int start(const char *path, const char *const *argv, const struct spawn_how *how,
		 int procs_fd, pid_t *pid)
{
	sigset_t all, old;
	pid_t parent = getpid();
	int ep[2], err;

	if (pipe2(ep, O_CLOEXEC))
		return -errno;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	*pid = fork();
	if (!*pid)
		child_exec(path, argv, how, procs_fd, parent, ep[1]);
	err = *pid < 0 ? -errno : 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(ep[1]);
	if (err) {
		close(ep[0]);
		return err;
	}
	err = exec_result(ep[0]);
	if (err)
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
	return err;
}

/* Start argv as how says, in a cgroup of its own where one can be made. */
static int spawn_how(const char *const *argv, const struct spawn_how *how, pid_t *pid)
{
	char path[PATH_MAX], *cg;
	int procs_fd, err = 0;

	if (strchr(argv[0], '/'))
		err = snprintf(path, sizeof(path), "%s", argv[0]) < (int)sizeof(path) ?
		      0 : -ENAMETOOLONG;
	else
		err = spawn_find_in_path(argv[0], path, sizeof(path));
	if (err)
		return err;
	procguard_cgroup(&procs_fd, &cg);
	err = start(path, argv, how, procs_fd, pid);
	if (procs_fd >= 0)
		close(procs_fd);
	if (err) {
		if (cg)
			cgroup_destroy(cg);
		free(cg);
		return err;
	}
	procguard_add(*pid, cg, how->keep);
	return 0;
}

int spawn(const char *const *argv, const struct spawn_opts *o, pid_t *pid)
{
	const struct spawn_opts none = { 0 };
	struct spawn_how how;
	int log_fd = -1, err = 0;

	o = o ?: &none;
	how = (struct spawn_how){ .out_fd = o->out_fd > 2 ? o->out_fd : -1,
				  .err_fd = o->err_fd > 2 ? o->err_fd : -1, .dir_fd = -1,
				  .own_group = o->own_group, .keep = o->keep,
				  .pass_fd = o->pass_fd, .file_max = o->file_max };
	if (o->pass_fd && o->pass_fd <= 2)
		return -EBADF;
	if (o->log) {
		log_fd = heldir_open(o->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		how.out_fd = how.err_fd = log_fd;
		err = log_fd < 0 ? log_fd : 0;
	}
	if (!err && o->dir) {
		how.dir_fd = heldir_open_dir(o->dir);
		err = how.dir_fd < 0 ? how.dir_fd : 0;
	}
	err = err ?: spawn_how(argv, &how, pid);
	if (log_fd >= 0)
		close(log_fd);
	if (how.dir_fd >= 0)
		close(how.dir_fd);
	return err;
}

void spawn_reaped(pid_t pid)
{
	procguard_reaped(pid);
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

		if (w == pid) {
			procguard_reaped(pid);
			return 0;
		}
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
	procguard_reaped(pid);
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
