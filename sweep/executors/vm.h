/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Booting a kernel under test to run one job in it: virtiofsd exports the
 * host's root (mounted read-only by the guest) and a writable directory
 * (`share`), qemu boots the image with bpfsweep as init (vminit.c), and
 * the job (a working directory and an argv, never a shell line) runs as
 * root in the guest.  The console is kept in a file and echoed.
 */
#ifndef SWEEP_VM_H
#define SWEEP_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels.h"

struct vm_job {
	const char *image;		/* the file qemu boots (kernel_image()) */
	const struct kernel_axis *ka;	/* CPUs, memory, boot timeout */
	enum vm_accel accel;		/* kvm, tcg or tcg-icount: vm_pick_accel()'s */
	const char *share;		/* host directory the guest writes: job, booted, status */
	const char *console;		/* the console log, a new file */
	const char *cwd;		/* the job's working directory (the host's path) */
	const char *const *argv;	/* the job, argv[0] an absolute path */
	uint64_t run_timeout_ns;	/* from boot to the job's end; 0: none */
	FILE *echo;			/* the console is copied here as it comes; NULL: not */
	volatile sig_atomic_t *stop;	/* set by a signal: power the guest off */
	const char *gate;		/* a FIFO pair as the guest's VM_GUEST_GATE; NULL: none */
};

struct vm_outcome {
	enum vm_accel accel;		/* what ran it: kvm, tcg or tcg-icount */
	bool booted;			/* the guest ran its init */
	char release[128];		/* its uname -r */
	int status;			/* the job's exit status; -1: it did not finish */
	bool interrupted;		/* job->stop cut it short */
	char reason[1024];		/* when status is -1: why, with the console's last lines */
};

/*
 * Boot job->image and run the job.  0 when the VM ran (out->status says
 * how the job ended), -errno when it could not start (out->reason says
 * why: no qemu, no virtiofsd).
 */
int vm_run(const struct vm_job *job, struct vm_outcome *out);

/* qemu-system-<machine> found in PATH into buf; -ENOENT with why (how to install it). */
int vm_qemu_path(const char *machine, char *buf, size_t len, char *why, size_t whylen);

/* The last lines of a console log, on one line ("a | b | c"), control characters dropped. */
void vm_console_tail(const char *path, int lines, char *buf, size_t len);

#endif
