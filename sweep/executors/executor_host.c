// SPDX-License-Identifier: GPL-2.0
/*
 * The host-child executor (executor.h): the sub-run is a child of this
 * process on this machine's kernel, writing OUT/runs/<n> itself, so there
 * is nothing to fetch or clean.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "executor.h"
#include "exitcode.h"
#include "subproc.h"

#define NSEC_PER_MSEC	1000000ULL

int executor_host_spawn(const char *const *argv, uint64_t timeout_ns)
{
	uint64_t ms = timeout_ns / NSEC_PER_MSEC;
	pid_t pid;
	int err = spawn_argv(argv, NULL, &pid);

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
	s->resume = !access(s->local, F_OK);
	s->accel = s->accel_reason = NULL;
	return 0;
}

static int host_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		    uint64_t timeout_ns)
{
	int st;

	(void)ex;
	fprintf(stderr, "kernel %s: running the sweep here\n", s->label);
	st = executor_host_spawn(argv, timeout_ns);
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
