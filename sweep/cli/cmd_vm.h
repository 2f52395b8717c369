/* SPDX-License-Identifier: GPL-2.0 */
/* bpfsweep vm KERNEL -- COMMAND: one command on a kernel under test (cmd_vm.c). */
#ifndef SWEEP_CMD_VM_H
#define SWEEP_CMD_VM_H

/* Parses its own arguments (argv[0] is "vm"); returns an exit status. */
int cmd_vm(int argc, char **argv);

#endif
