/* SPDX-License-Identifier: GPL-2.0 */
/* The exit statuses of every command (DESIGN §8), for the libraries that give one. */
#ifndef SWEEP_EXITCODE_H
#define SWEEP_EXITCODE_H

/* plus 128 + N for a sweep cut short by stop signal N: 130 Ctrl-C, 143 SIGTERM (stop.h) */
enum {
	EXIT_OK = 0,
	EXIT_POINTS_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_INTERRUPTED = 130,
};

#endif
