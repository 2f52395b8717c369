/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What run's, check's and expand's positional argument names, in this
 * order: an existing file (a spec), a workload (an ad hoc run), a spec
 * installed under a name (specs/NAME.spec of the checkout the binary sits
 * in or of the working directory, then BPFSWEEP_DATADIR/specs/NAME.spec).
 * Anything else is an error naming what is nearest.
 */
#ifndef SWEEP_SPECFIND_H
#define SWEEP_SPECFIND_H

#include <stddef.h>

enum spec_arg { SPEC_ARG_FILE, SPEC_ARG_WORKLOAD, SPEC_ARG_INSTALLED };

/*
 * Resolve arg.  A file's path (itself, or the installed spec's) goes to
 * path.  cmds (NULL-terminated, or NULL) are command names that are
 * candidates too, for "bpfsweep X" without a command.  Returns the kind,
 * or -ENOENT after saying what was not found and what is nearest.
 */
int specfind_resolve(const char *arg, const char *const *cmds, char *path, size_t len);

#endif
