/* SPDX-License-Identifier: GPL-2.0 */
/* The exit statuses of every command (DESIGN §8), for the libraries that give one. */
#ifndef SWEEP_EXITCODE_H
#define SWEEP_EXITCODE_H

#include <errno.h>

/* plus 128 + N for a sweep cut short by stop signal N: 130 Ctrl-C, 143 SIGTERM (stop.h) */
enum {
	EXIT_OK = 0,
	EXIT_POINTS_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_UNDECIDED = 3,	/* compare --fail-above: a point it could not pass */
	EXIT_INTERRUPTED = 130,
};

/*
 * The status of a command whose writing failed with err (-errno): no room
 * or the disk itself (a full disk, a quota, a file size limit, an I/O
 * error) is 1, "a result could not be written", as a run says it; any
 * other refusal (OUT exists, a bad input) is a usage error, 2.
 */
static inline int exit_write_status(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG || err == -EIO ?
	       EXIT_POINTS_FAILED : EXIT_USAGE;
}

#endif
