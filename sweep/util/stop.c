// SPDX-License-Identifier: GPL-2.0
/* The stop signals and the stop request of a driver of other processes: stop.h. */
#include <signal.h>
#include <stddef.h>

#include "exitcode.h"
#include "stop.h"

volatile sig_atomic_t stop_requested;

static const int stop_signals[STOP_NR_SIGNALS] = {
	SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU,
};

static void on_stop(int sig)
{
	stop_requested = sig;
}

void stop_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (int i = 0; i < STOP_NR_SIGNALS; i++)
		sigaddset(set, stop_signals[i]);
}

void stop_install(void (*handler)(int), int flags, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags };

	/* two stop signals at once are one request: never nested */
	stop_sigset(&sa.sa_mask);
	for (int i = 0; i < STOP_NR_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, old ? &old[i] : NULL);
}

void stop_restore(const struct sigaction *old)
{
	for (int i = 0; i < STOP_NR_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

void stop_catch(void)
{
	stop_install(on_stop, 0, NULL);
}

int stop_exit_status(int sig)
{
	return 128 + sig;
}
