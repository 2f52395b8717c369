// SPDX-License-Identifier: GPL-2.0
/*
 * One command on a kernel under test, in a VM (vmcommand.h): the kernel's
 * image found, the command resolved to an absolute path (the guest's init
 * runs no shell), the accelerator picked, a share for the guest's job and
 * console (-o DIR, kept; else a scratch directory, removed), then the boot.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "exitcode.h"
#include "resultdir.h"
#include "scratch.h"
#include "stop.h"
#include "subproc.h"
#include "vm.h"
#include "vm_probe.h"
#include "vmcommand.h"

/* A run's paths: on the heap (four of PATH_MAX). */
struct vm_paths {
	struct vm_accel_pick accel;
	char dir[PATH_MAX];		/* the share */
	char image[PATH_MAX];
	char cmd[PATH_MAX];		/* COMMAND, absolute */
	char cwd[PATH_MAX];
};

/* COMMAND as the guest's execve() needs it: an absolute path, found in PATH like a shell. */
static int resolve_cmd(struct vm_paths *p, const char *name)
{
	if (strchr(name, '/')) {
		if (realpath(name, p->cmd))
			return 0;
		diag_err("%s: %s", name, strerror(errno));
		return -errno;
	}
	if (!spawn_find_in_path(name, p->cmd, sizeof(p->cmd)))
		return 0;
	diag_err("%s: command not found", name);
	return -ENOENT;
}

/* The share: -o DIR (new, kept), or a directory under /tmp removed at the end. */
static int make_share(const struct vm_command *c, struct vm_paths *p)
{
	int err;

	if (c->outdir) {
		snprintf(p->dir, sizeof(p->dir), "%s", c->outdir);
		err = resultdir_create(p->dir);
		if (err)
			diag_err("cannot create %s: %s", p->dir, strerror(-err));
		return err;
	}
	err = scratch_make(p->dir, sizeof(p->dir), "vm-job");
	if (err)
		diag_err("mkdtemp: %s", strerror(-err));
	return err;
}

static int boot_and_run(const struct vm_command *c, struct vm_paths *p)
{
	char console[PATH_MAX + 16];
	struct vm_outcome out;
	struct vm_job job = {
		.image = p->image, .ka = c->ka, .accel = p->accel.accel, .share = p->dir,
		.console = console, .cwd = p->cwd, .argv = (const char *const *)c->argv,
		.echo = stdout, .stop = &stop_requested,
	};
	int err;

	snprintf(console, sizeof(console), "%s/console.log", p->dir);
	c->argv[0] = p->cmd;
	stop_catch();
	err = vm_run(&job, &out);
	fflush(stdout);
	if (out.interrupted) {
		diag_err("vm: interrupted (%s): the guest was stopped", strsignal(stop_requested));
		return stop_exit_status(stop_requested);
	}
	if (err || out.status < 0) {
		diag_err("vm: %s", out.reason);
		return EXIT_USAGE;
	}
	fprintf(stderr, "vm: kernel %s (%s): exit status %d\n", out.release,
		vm_accel_names[out.accel], out.status);
	return out.status;
}

int vm_command_probe(const struct kernel_axis *ka)
{
	struct vm_accel_pick accel;
	char why[1024];

	if (vm_pick_accel(ka, &accel, why, sizeof(why))) {
		diag_err("vm: %s", why);
		return EXIT_USAGE;
	}
	if (accel.refused[0])
		printf("%s (%s)\n", vm_accel_names[accel.accel], accel.refused);
	else
		printf("%s\n", vm_accel_names[accel.accel]);
	return EXIT_OK;
}

static int prepare_and_run(const struct vm_command *c, struct vm_paths *p)
{
	char why[4400];
	int status;

	if (kernel_image(c->kernel, p->image, sizeof(p->image), why, sizeof(why))) {
		diag_err("%s", why);
		return EXIT_USAGE;
	}
	if (!getcwd(p->cwd, sizeof(p->cwd)) || resolve_cmd(p, c->argv[0]))
		return EXIT_USAGE;
	if (vm_pick_accel(c->ka, &p->accel, why, sizeof(why))) {
		diag_err("vm: %s", why);
		return EXIT_USAGE;
	}
	if (make_share(c, p))
		return EXIT_USAGE;
	status = boot_and_run(c, p);
	/* a scratch share ($TMPDIR or /tmp), with whatever the guest left in it; -o DIR's is kept */
	if (!c->outdir)
		scratch_remove(p->dir);
	return status;
}

int vm_command_run(const struct vm_command *c)
{
	struct vm_paths *p = calloc(1, sizeof(*p));
	int status;

	if (!p) {
		diag_err("vm: %s", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	status = prepare_and_run(c, p);
	free(p);
	return status;
}
