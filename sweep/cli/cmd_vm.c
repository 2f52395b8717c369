// SPDX-License-Identifier: GPL-2.0
/*
 * The vm command's options: boot a kernel under test and run one command
 * in it, in the current directory, with the host's root read-only
 * (executors/vmcommand.h does it).
 *
 *   bpfsweep vm [--set vm_accel=tcg ...] [-o DIR] KERNEL -- COMMAND [ARG...]
 *   bpfsweep vm [--set vm_accel=...] --probe-accel
 *
 * The exit status is COMMAND's; 2 when the VM could not run it; 128 + N
 * when signal N (SIGINT, SIGTERM) made it power the guest off.
 * --probe-accel prints what would run a VM here, as vm_accel resolves
 * (vm_probe.h): "kvm", "tcg", or "tcg (kvm refused: WHY)" (tests ask it).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopt.h"
#include "cmd_vm.h"
#include "diag.h"
#include "kernels.h"
#include "opterr.h"
#include "vmcommand.h"

struct vm_cmd {
	struct kernel_axis ka;
	bool probe_only;		/* --probe-accel */
	const char *outdir;		/* -o: keep the console and job here */
};

static void vm_usage(FILE *f)
{
	fputs("usage: bpfsweep vm [OPTIONS] KERNEL -- COMMAND [ARG...]\n"
	      "       bpfsweep vm [--set vm_accel=A] --probe-accel\n"
	      "boot KERNEL (an image or a build tree) in a VM with this machine's root\n"
	      "read-only, run COMMAND there in the current directory, power off\n\n", f);
	cliopt_help(f, CMD_VM);
	fputs("exit status: COMMAND's; 2 when the VM could not run it; 128 + N when signal N\n"
	      "(SIGINT, SIGTERM) stopped the guest\n", f);
}

/* --set vm_mem=4G: the [sweep] key's own binding, errors at "--set #N". */
static int apply_set(struct vm_cmd *vc, const char *arg, int n)
{
	const char *eq = strchr(arg, '=');
	char key[64];
	struct spec_entry e = { 0 };
	int k = -1, errors = diag_error_count();

	snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - arg) : 0, arg);
	for (int i = 0; eq && spec_sweep_keys[i]; i++)
		if (!strcmp(spec_sweep_keys[i], key) && !strncmp(key, "vm_", 3))
			k = i;
	if (k < 0) {
		diag_err("vm --set takes vm_accel, vm_cpus, vm_mem, vm_boot_timeout or "
			 "vm_ssh_port, not '%s'", arg);
		return -EINVAL;
	}
	e.key = key;
	e.value = (char *)eq + 1;
	e.val_loc = (struct loc){ "--set", 1, (int)(eq + 1 - arg) + 1, n };
	kernel_axis_bind(&vc->ka, k, &e);
	return diag_error_count() == errors ? 0 : -EINVAL;
}

static int parse(int argc, char **argv, struct vm_cmd *vc)
{
	struct cli_getopt g;
	int opt, nr_sets = 0;

	/*
	 * cliopt's table; '+' first there: options stop at KERNEL, so that
	 * COMMAND's own options stay its own
	 */
	cliopt_getopt(CMD_VM, &g);
	while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (apply_set(vc, optarg, ++nr_sets))
				return EXIT_USAGE;
			break;
		case 'o':
			vc->outdir = optarg;
			break;
		case OPT_PROBE_ACCEL:
			vc->probe_only = true;
			break;
		case 'h':
			vm_usage(stdout);
			return EXIT_OK;
		default:
			if (cliopt_misplaced(CMD_VM, opt, argv))
				opt_hint("bpfsweep vm");
			else
				opt_error(opt, argv, g.longopts, "bpfsweep vm");
			return EXIT_USAGE;
		}
	}
	if (vc->probe_only && argc == optind)
		return -1;
	if (vc->probe_only) {
		diag_err("vm --probe-accel takes no KERNEL or COMMAND");
		return EXIT_USAGE;
	}
	if (argc - optind < 3 || strcmp(argv[optind + 1], "--")) {
		diag_err("vm needs KERNEL -- COMMAND");
		vm_usage(stderr);
		return EXIT_USAGE;
	}
	return -1;
}

static int vm_main(int argc, char **argv, struct vm_cmd *vc)
{
	int status;

	kernel_axis_init(&vc->ka);
	optind = 1;
	status = parse(argc, argv, vc);
	if (status >= 0)
		return status;
	if (kernel_axis_check(&vc->ka))
		return EXIT_USAGE;
	if (vc->probe_only)
		return vm_command_probe(&vc->ka);
	return vm_command_run(&(struct vm_command){ .ka = &vc->ka, .kernel = argv[optind],
						    .outdir = vc->outdir,
						    .argv = argv + optind + 2 });
}

int cmd_vm(int argc, char **argv)
{
	struct vm_cmd *vc = calloc(1, sizeof(*vc));
	int status;

	if (!vc) {
		diag_err("vm: %s", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	status = vm_main(argc, argv, vc);
	kernel_axis_free(&vc->ka);
	free(vc);
	return status;
}
