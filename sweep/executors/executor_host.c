// SPDX-License-Identifier: GPL-2.0
/*
 * The host-child executor (executor.h): the sub-run is a child of this
 * process on this machine's kernel, writing OUT/runs/<n> itself, so there
 * is nothing to fetch or clean.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "executor.h"
#include "exitcode.h"
#include "heldir.h"
#include "subrun.h"
#include "subproc.h"

#define NSEC_PER_MSEC	1000000ULL

/* path beneath dir ("dir/rest"): rest, else NULL */
static const char *beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n && !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : NULL;
}

const char *executor_through_fd(const struct subrun_slot *s, const char *path, int fd, char *buf,
				size_t len)
{
	const char *rest;
	int n = -1;

	if ((rest = beneath(path, s->sub_dir)))
		n = snprintf(buf, len, "/proc/self/fd/%d/subrun/%s", fd, rest);
	else if ((rest = beneath(path, s->out)))
		n = snprintf(buf, len, "/proc/self/fd/%d/%s", fd, rest);
	return n >= 0 && (size_t)n < len ? buf : path;
}

int executor_host_spawn(const struct subrun_slot *s, const char *const *argv,
			uint64_t timeout_ns)
{
	/* the spec, the settings and the directory (subrun_argv()): on the stack, per thread */
	char bufs[3][PATH_MAX + 64];
	const char *args[SUBRUN_MAX_ARGS + 1] = { 0 };
	uint64_t ms = timeout_ns / NSEC_PER_MSEC;
	int fd = heldir_open_dir(s->out), err, used = 0;
	pid_t pid;

	for (int i = 0; fd >= 0 && argv[i] && i < SUBRUN_MAX_ARGS; i++) {
		args[i] = argv[i];
		if (i && used < 3)
			args[i] = executor_through_fd(s, argv[i], fd, bufs[used],
						      sizeof(bufs[used]));
		used += args[i] != argv[i];
	}
	err = fd < 0 ? fd : spawn(args, &(struct spawn_opts){ .pass_fd = fd }, &pid);
	if (fd >= 0)
		close(fd);
	if (err) {
		diag_err("cannot start %s: %s", argv[0], strerror(-err));
		return err;
	}
	return spawn_wait(pid, ms > UINT32_MAX ? UINT32_MAX : ms);
}

static int host_prepare(struct executor *ex, struct subrun_slot *s)
{
	(void)ex;
	snprintf(s->dir, sizeof(s->dir), "%s", s->local);
	s->resume = !heldir_access(s->local);
	s->accel = s->accel_reason = NULL;
	return 0;
}

static int host_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		    uint64_t timeout_ns)
{
	int st;

	(void)ex;
	fprintf(stderr, "kernel %s: running the sweep here\n", s->label);
	st = executor_host_spawn(s, argv, timeout_ns);
	s->status = st < 0 ? EXIT_USAGE : st;
	snprintf(s->why, sizeof(s->why), "bpfsweep exited with status %d before this point",
		 s->status);
	return 0;
}

/* It wrote its result where it belongs. */
static int host_fetch(struct executor *ex, struct subrun_slot *s)
{
	(void)ex;
	(void)s;
	return 0;
}

static const struct executor_ops host_ops = {
	.prepare = host_prepare,
	.run = host_run,
	.fetch = host_fetch,
};

struct executor executor_host = { .ops = &host_ops };
