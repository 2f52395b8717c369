// SPDX-License-Identifier: GPL-2.0
/* A repetition's profile in its point's result: see repprofile.h. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "allowcpu.h"
#include "repprofile.h"

struct profiler *rep_profile_begin(const struct sweep_cfg *cfg, int rep,
				   struct point_result *r)
{
	int cpus[CPU_SETSIZE], nr;
	struct rep_profile *grown, *rp;

	if (!cfg->profile)
		return NULL;
	grown = realloc(r->prof, (r->nr_prof + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	r->prof = grown;
	rp = &r->prof[r->nr_prof++];
	*rp = (struct rep_profile){ .rep = rep };
	nr = rep_allowed_cpus(cpus, CPU_SETSIZE);
	return profiler_start(cfg->profile_hz, cpus, nr > 0 ? nr : 0, rp);
}

void rep_profile_end(struct profiler **p, struct point_result *r)
{
	if (!*p)
		return;
	profiler_finish(*p, &r->prof[r->nr_prof - 1]);
	*p = NULL;
}
