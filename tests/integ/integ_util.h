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
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "param.h"
#include "workload.h"

#define NEED_ROOT() do {							\
	if (geteuid() != 0)							\
		SKIP("needs root to load BPF programs");			\
} while (0)

static inline void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Entries of /proc/self/fd (with "." and ".."), or -1. */
static inline int count_fds(void)
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
 * A child doing act(arg) until killed; returns its pid once the first
 * act() succeeded (0 from act), or -1.  The child dies with the test.
 */
static inline pid_t spawn_loop(int (*act)(const void *arg), const void *arg)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* a test that dies before it kills us must not leave us running */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fds[0]);
		if (act(arg) || write(fds[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			act(arg);
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

static inline int getpgid_arg2(const void *arg2)
{
	syscall(SYS_getpgid, 0, *(const unsigned long long *)arg2);
	return 0;
}

/*
 * A child that calls getpgid(0, arg2) until killed; returns once it has
 * made its first call.  getpgid ignores arg2: a workload may read it.
 * Unused by the tests of workloads that no syscall triggers (csum_diff).
 */
static inline pid_t spawn_getpgid_loop(unsigned long long arg2)
{
	static unsigned long long arg;

	arg = arg2;
	return spawn_loop(getpgid_arg2, &arg);
}

/*
 * pt: wl's defaults, then each "name=value" of the NULL-terminated list
 * after it, parsed as a spec's value is; false if one names no parameter
 * or is not a value of it.
 */
static inline bool point_set(const struct workload *wl, struct wl_point *pt, ...)
{
	char err[128], name[64];
	bool ok = true;
	va_list ap;

	pt->wl = wl;
	for (int i = 0; i < wl->nr_params; i++)
		ok = ok && !param_parse_scalar(&wl->params[i], wl->params[i].def,
					       strlen(wl->params[i].def), &pt->v[i], err,
					       sizeof(err));
	va_start(ap, pt);
	for (const char *s = va_arg(ap, const char *); ok && s; s = va_arg(ap, const char *)) {
		const char *eq = strchr(s, '=');
		int i;

		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - s) : 0, s);
		i = param_index(wl->params, wl->nr_params, name);
		ok = eq && i >= 0 && !param_parse_scalar(&wl->params[i], eq + 1, strlen(eq + 1),
							 &pt->v[i], err, sizeof(err));
	}
	va_end(ap);
	return ok;
}

/* kernel.bpf_stats_enabled: 0 or 1, or -1 when it cannot be read. */
static inline int read_stats_sysctl(void)
{
	char c = 0;
	int fd = open("/proc/sys/kernel/bpf_stats_enabled", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, &c, 1);
	close(fd);
	return n == 1 ? c == '1' : -1;
}

#endif
