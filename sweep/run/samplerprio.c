// SPDX-License-Identifier: GPL-2.0
/* The sampler's priority while the workers run (samplerprio.h). */
#include <errno.h>
#include <stdbool.h>
#include <sys/resource.h>

#include "samplerprio.h"

/* Linux's nice values are per thread: who = 0 is the calling thread. */
void sampler_prio_raise(struct sampler_prio *sp)
{
	errno = 0;
	sp->old_nice = getpriority(PRIO_PROCESS, 0);
	sp->raised = !errno && sp->old_nice > -20 && !setpriority(PRIO_PROCESS, 0, -20);
}

void sampler_prio_restore(struct sampler_prio *sp)
{
	if (sp->raised)
		setpriority(PRIO_PROCESS, 0, sp->old_nice);
	sp->raised = false;
}
