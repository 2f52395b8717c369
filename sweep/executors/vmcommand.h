/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One command on a kernel under test, in a VM (the vm command; cli/cmd_vm.c
 * parses its options): the kernel booted with this machine's root
 * read-only, the command run in the current directory, the guest powered
 * off; what the kernel axis does for a sweep, for anything else (a test
 * binary, bpftool).
 */
#ifndef SWEEP_VMCOMMAND_H
#define SWEEP_VMCOMMAND_H

#include "kernels.h"

struct vm_command {
	struct kernel_axis *ka;		/* the vm_* settings, checked */
	const char *kernel;		/* KERNEL: an image or a build tree */
	const char *outdir;		/* -o DIR: a new directory keeping the console and job */
	char **argv;			/* COMMAND [ARG...]; argv[0] becomes its absolute path */
};

/*
 * Boot c->kernel and run the command: its exit status; 2 when the VM could
 * not run it (said); 128 + N when signal N made the guest power off.
 */
int vm_command_run(const struct vm_command *c);

/*
 * --probe-accel: what would run a VM here, as vm_accel resolves
 * (vm_probe.h), on stdout: "kvm", "tcg", or "tcg (kvm refused: WHY)".
 * An exit status.
 */
int vm_command_probe(const struct kernel_axis *ka);

#endif
