// SPDX-License-Identifier: GPL-2.0
/* The stop request of a driver of other processes: stop.h. */
#include <signal.h>
#include <stddef.h>

#include "stop.h"

volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = sig;
}

void stop_catch(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
