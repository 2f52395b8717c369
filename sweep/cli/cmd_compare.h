/* SPDX-License-Identifier: GPL-2.0 */
/* bpfsweep compare BASE NEW [NEW...]: see docs/compare.md. */
#ifndef SWEEP_CMD_COMPARE_H
#define SWEEP_CMD_COMPARE_H

/* Parses its own arguments (argv[0] is "compare"); returns an exit status. */
int cmd_compare(int argc, char **argv);

#endif
