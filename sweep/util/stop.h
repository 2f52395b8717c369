/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signals that ask bpfsweep to stop, and the stop request of the
 * commands that drive other processes (a kernel sweep's sub-runs and VMs,
 * a fleet's ssh): the handler only sets stop_requested, and the driver
 * stops its children and keeps what they finished.  The runner has its
 * own handler over the same signals (runner.c: a second Ctrl-C ends a
 * hung workload).
 *
 * A stop signal is one whose default action ends the process and that
 * comes from outside: Ctrl-C, kill, a closed terminal or ssh session
 * (SIGHUP), a reader that went away (SIGPIPE: `bpfsweep ... | head`),
 * SIGUSR1/2, a timer (SIGALRM, SIGVTALRM) or the CPU time limit
 * (SIGXCPU).  Each is handled as SIGTERM always was: what runs is
 * stopped and cleaned up, and the exit status says which signal it was
 * (stop_exit_status()).
 */
#ifndef SWEEP_STOP_H
#define SWEEP_STOP_H

#include <signal.h>

/* 0, or the signal that asked for the stop (vm exits 128 + it) */
extern volatile sig_atomic_t stop_requested;

/*
 * Catch every stop signal into stop_requested, without SA_RESTART: a
 * blocking wait in the thread that takes the signal returns EINTR.
 */
void stop_catch(void);

/* How many stop signals there are: the size of stop_install()'s old. */
#define STOP_NR_SIGNALS	9

/*
 * handler on every stop signal, with flags and all of them blocked while
 * it runs; old[STOP_NR_SIGNALS] (if not NULL) gets what was there.
 */
void stop_install(void (*handler)(int), int flags, struct sigaction *old);

/* Put back what stop_install() saved in old. */
void stop_restore(const struct sigaction *old);

/* Every stop signal in *set (emptied first): for the threads that must not take them. */
void stop_sigset(sigset_t *set);

/*
 * The exit status after a stop by sig, as a shell says a death by it:
 * 128 + sig (130 for Ctrl-C, 143 for SIGTERM).
 */
int stop_exit_status(int sig);

#endif
