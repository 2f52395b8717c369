/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ctrl-C (SIGINT) and SIGTERM for the commands that drive other processes
 * (a kernel sweep's sub-runs and VMs, a fleet's ssh): the handler only sets
 * stop_requested, and the driver stops its children and keeps what they
 * finished.  The runner has its own (runner.c: a second Ctrl-C ends a hung
 * workload).
 */
#ifndef SWEEP_STOP_H
#define SWEEP_STOP_H

#include <signal.h>

/* 0, or the signal that asked for the stop (vm exits 128 + it) */
extern volatile sig_atomic_t stop_requested;

/*
 * Catch SIGINT and SIGTERM into stop_requested, without SA_RESTART: a
 * blocking wait in the thread that takes the signal returns EINTR.
 */
void stop_catch(void);

#endif
