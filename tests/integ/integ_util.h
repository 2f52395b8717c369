/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the root integration tests of the BPF workloads share: a sleep that
 * survives signals, the process's open descriptors (leak checks), and a
 * foreign process making the syscall the workloads trigger on (filter
 * checks), and the skip of a test that loads BPF without root.  Include
 * once per test binary, after check.h.
 */
#ifndef TESTS_INTEG_UTIL_H
#define TESTS_INTEG_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NEED_ROOT() do {							\
	if (geteuid() != 0)							\
		SKIP("needs root to load BPF programs");			\
} while (0)

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Entries of /proc/self/fd (with "." and ".."), or -1. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * A child that calls getpgid(0, arg2) until killed; returns once it has
 * made its first call.  getpgid ignores arg2: a workload may read it.
 */
static __attribute__((unused)) pid_t spawn_getpgid_loop(unsigned long long arg2)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		syscall(SYS_getpgid, 0, arg2);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			syscall(SYS_getpgid, 0, arg2);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

#endif
