// SPDX-License-Identifier: GPL-2.0
/*
 * The VM executor (executor.h): a sub-run is the job of a VM that boots
 * one kernel of the axis (vm.c).  The guest writes through the writable
 * export OUT/vm/<n>, whose result/ moves into OUT/runs/<n> when the VM is
 * off; a resumed kernel's partial directory moves there first, so that
 * the guest continues it.  The share keeps the console.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "executor.h"
#include "heldir.h"
#include "resultdir.h"
#include "stop.h"
#include "subrun.h"
#include "textfile.h"
#include "vm.h"
#include "vm_cmdline.h"

/* The files of OUT a guest reads (subrun_argv()): the spec and the settings. */
#define GUEST_COPIES	2

/*
 * OUT/vm/<n>: the export the guest writes (job, booted, status, result/)
 * and its console; OUT/vm/<n>-2 and on for the boots of later resumes.
 */
static int make_share(const struct executor_vm *vm, int k, char *share, size_t len)
{
	char dir[PATH_MAX + 8];
	int err = 0;

	snprintf(dir, sizeof(dir), "%s/vm", vm->out);
	err = heldir_mkdir(dir, 0755);
	if (err && err != -EEXIST)
		return err;
	for (int boot = 1; boot < 100; boot++) {
		if (boot == 1)
			snprintf(share, len, "%s/%d", dir, k + 1);
		else
			snprintf(share, len, "%s/%d-%d", dir, k + 1, boot);
		err = heldir_mkdir(share, 0755);
		if (err != -EEXIST)
			break;
	}
	return err;
}

/* The share made, and a resumed kernel's directory moved where the guest continues it. */
static int vm_prepare(struct executor *ex, struct subrun_slot *s)
{
	struct executor_vm *vm = (struct executor_vm *)ex;
	int err;

	vm->result[0] = '\0';
	/* vm_accel = kvm that cannot run: every point of the kernel fails, saying so */
	if (vm->accel_err) {
		snprintf(s->why, sizeof(s->why), "%s", vm->accel_why);
		return -ENODEV;
	}
	s->accel = vm_accel_names[vm->accel.accel];
	s->accel_reason = vm->accel.refused;
	err = make_share(vm, s->index, vm->share, sizeof(vm->share));
	if (err) {
		snprintf(s->why, sizeof(s->why), "cannot create %.900s: %s", vm->share,
			 strerror(-err));
		return err;
	}
	snprintf(vm->console, sizeof(vm->console), "%s/console.log", vm->share);
	snprintf(vm->result, sizeof(vm->result), "%s/result", vm->share);
	snprintf(s->dir, sizeof(s->dir), VM_GUEST_DIR "/result");
	s->resume = !heldir_access(s->local);
	if (s->resume)
		err = heldir_rename(s->local, vm->result, 0);
	if (err) {
		snprintf(s->why, sizeof(s->why), "cannot move %.400s to %.400s: %s", s->local,
			 vm->result, strerror(-err));
	}
	return err;
}

static void vm_reason(const struct vm_outcome *out, char *why, size_t len)
{
	if (out->status < 0)
		snprintf(why, len, "%s", out->reason);
	else
		snprintf(why, len, "bpfsweep in the guest (kernel %s) exited with status %d "
			 "before this point", out->release, out->status);
}

/*
 * path, a file of OUT (held) that the guest is to read (the spec and the
 * settings in OUT/subrun), copied into the share: read through fd, the
 * held OUT, written beneath it, and named in guest as the guest mounts the
 * share.  Through the / share the guest would look OUT's path up in this
 * machine's live tree seconds into its boot, where a swap of OUT's path
 * would give it another user's files.  1 when path is not beneath OUT.
 */
static int copy_to_share(const struct executor_vm *vm, struct subrun_slot *s, const char *path,
			 int fd, char *guest, size_t len)
{
	char through[PATH_MAX + 64], *text = NULL;
	const char *from = executor_through_fd(s, path, fd, through, sizeof(through));
	const char *name = strrchr(path, '/');
	size_t size;
	int err;

	/* beneath OUT it has a slash; not beneath it, the guest takes it as it is */
	if (from == path || !name++)
		return 1;
	err = read_text_file_len(from, &text, &size);
	err = err ?: resultdir_put_file(vm->share, name, text, size, false);
	if (!err && (size_t)snprintf(guest, len, VM_GUEST_DIR "/%s", name) >= len)
		err = -ENAMETOOLONG;
	if (err)
		snprintf(s->why, sizeof(s->why), "cannot copy %.400s into %.400s: %s", path,
			 vm->share, strerror(-err));
	free(text);
	return err;
}

/* The guest's argv: argv, its files beneath OUT named as copies in the share. */
static int guest_argv(const struct executor_vm *vm, struct subrun_slot *s,
		      const char *const *argv, const char **gargv, char (*copies)[NAME_MAX + 32])
{
	int fd = heldir_open_dir(s->out), err = fd < 0 ? fd : 0, used = 0;

	gargv[0] = NULL;
	if (err)
		snprintf(s->why, sizeof(s->why), "cannot open %.900s: %s", s->out, strerror(-err));
	for (int i = 0; !err && argv[i] && i < SUBRUN_MAX_ARGS; i++) {
		gargv[i] = argv[i];
		gargv[i + 1] = NULL;
		if (!i || used == GUEST_COPIES)
			continue;
		err = copy_to_share(vm, s, argv[i], fd, copies[used], sizeof(copies[used]));
		if (!err)
			gargv[i] = copies[used++];
		err = err < 0 ? err : 0;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

static int vm_exec(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		   uint64_t timeout_ns)
{
	struct executor_vm *vm = (struct executor_vm *)ex;
	char image[PATH_MAX], copies[GUEST_COPIES][NAME_MAX + 32];
	const char *gargv[SUBRUN_MAX_ARGS + 1];
	struct vm_outcome out;
	/*
	 * The console goes to stderr (stdout is the sweep's table, -f json),
	 * but not of guests that run side by side (a gate's): their lines
	 * would mix, and the conductor says what they decide.
	 */
	struct vm_job job = {
		.image = image, .ka = vm->ka, .accel = vm->accel.accel, .share = vm->share,
		.console = vm->console, .cwd = vm->cwd, .argv = gargv,
		.run_timeout_ns = timeout_ns, .echo = s->gate ? NULL : stderr,
		.stop = &stop_requested, .gate = s->gate_pipe,
	};
	int err = kernel_image(s->label, image, sizeof(image), s->why, sizeof(s->why));

	err = err ?: guest_argv(vm, s, argv, gargv, copies);
	if (err)
		return err;
	fprintf(stderr, "kernel %s: booting it in a VM (%s), console in %s\n", s->label,
		s->accel, vm->console);
	err = vm_run(&job, &out);
	if (err) {
		snprintf(s->why, sizeof(s->why), "%s", out.reason);
		return err;
	}
	vm_reason(&out, s->why, sizeof(s->why));
	s->interrupted = out.interrupted;
	s->status = out.status;
	return 0;
}

/* The guest's result directory joins the others; the share keeps the console. */
static int vm_fetch(struct executor *ex, struct subrun_slot *s)
{
	struct executor_vm *vm = (struct executor_vm *)ex;
	int err;

	if (!vm->result[0] || heldir_access(vm->result))
		return 0;
	err = heldir_rename(vm->result, s->local, 0);
	if (!err)
		return 0;
	diag_err("cannot move %s to %s: %s", vm->result, s->local, strerror(-err));
	return err;
}

static const struct executor_ops vm_ops = {
	.prepare = vm_prepare,
	.run = vm_exec,
	.fetch = vm_fetch,
};

void executor_vm_init(struct executor_vm *vm, const struct kernel_axis *ka, const char *out,
		      const char *cwd)
{
	*vm = (struct executor_vm){ .ex = { .ops = &vm_ops }, .ka = ka, .out = out, .cwd = cwd };
	/* one probe for every VM of the sweep; its verdict goes down to each guest's meta */
	vm->accel_err = vm_pick_accel(ka, &vm->accel, vm->accel_why, sizeof(vm->accel_why));
	if (vm->accel_err)
		diag_err("%s", vm->accel_why);
}
