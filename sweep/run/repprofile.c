// SPDX-License-Identifier: GPL-2.0
/*
 * A repetition's profile in its point's result (repprofile.h).  One
 * sampler serves every repetition of the run: made at the first (its
 * stack map takes about 0.1 s to make), reset after each, closed when
 * the runner ends.  A kernel that refused it is asked again at the next
 * repetition, which then says why again.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "allowcpu.h"
#include "repprofile.h"

static struct profiler *sampler;	/* open, counting nothing between repetitions */

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
	if (!sampler) {
		nr = rep_allowed_cpus(cpus, CPU_SETSIZE);
		sampler = profiler_start(cfg->profile_hz, cpus, nr > 0 ? nr : 0, rp);
	}
	return sampler;
}

void rep_profile_end(struct profiler **p, struct point_result *r)
{
	if (!*p)
		return;
	profiler_collect(*p, &r->prof[r->nr_prof - 1]);
	if (!profiler_usable(*p))
		rep_profile_close();
	*p = NULL;
}

void rep_profile_close(void)
{
	profiler_close(sampler);
	sampler = NULL;
}
