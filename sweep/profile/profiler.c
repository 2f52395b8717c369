// SPDX-License-Identifier: GPL-2.0
/*
 * The profile of a repetition (profiler.h) over the sampler
 * (stacksampler.h) and the kernel's symbols (ksyms.h), folded by
 * stackfold.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "profiler.h"
#include "stackfold.h"
#include "stacksampler.h"

#define KALLSYMS	"/proc/kallsyms"

struct profiler {
	struct stack_sampler *s;
	bool broken;		/* its counts could not be reset: close it */
};

struct profiler *profiler_start(int hz, const int *cpus, int nr, struct rep_profile *rp)
{
	struct profiler *p = calloc(1, sizeof(*p));

	if (!p) {
		rp->err = -ENOMEM;
		snprintf(rp->why, sizeof(rp->why), "profile: %s", strerror(-rp->err));
		return NULL;
	}
	rp->err = stack_sampler_open(hz, cpus, nr, &p->s, rp->why, sizeof(rp->why));
	if (rp->err) {
		free(p);
		return NULL;
	}
	return p;
}

void profiler_enable(struct profiler *p, const int *cpus, int nr)
{
	if (p)
		stack_sampler_enable(p->s, cpus, nr);
}

void profiler_disable(struct profiler *p)
{
	if (p)
		stack_sampler_disable(p->s);
}

void profiler_collect(struct profiler *p, struct rep_profile *rp)
{
	struct stack_counts c = { 0 };
	struct ksyms ks = { 0 };
	int err;

	if (!p)
		return;
	stack_sampler_disable(p->s);
	err = stack_sampler_read(p->s, &c, rp->why, sizeof(rp->why));
	if (!err) {
		rp->samples = c.samples;
		rp->lost = c.lost;
		err = ksyms_load(KALLSYMS, &ks);
		if (err)
			snprintf(rp->why, sizeof(rp->why), "profile: reading %s: %s", KALLSYMS,
				 strerror(-err));
	}
	if (!err && ks.hidden) {
		rp->hidden = true;
		snprintf(rp->why, sizeof(rp->why), "%s hides kernel addresses (kptr_restrict, or "
			 "not root): kernel frames shown as [kernel]", KALLSYMS);
	}
	if (!err) {
		err = stack_fold(&c, &ks, rp->hidden, &rp->folded);
		if (err)
			snprintf(rp->why, sizeof(rp->why), "profile: %s", strerror(-err));
	}
	rp->err = err;
	ksyms_free(&ks);
	stack_counts_free(&c);
	/* a sampler that cannot forget this repetition must not count into the next */
	if (stack_sampler_reset(p->s))
		p->broken = true;
}

bool profiler_usable(const struct profiler *p)
{
	return p && !p->broken;
}

void profiler_close(struct profiler *p)
{
	if (!p)
		return;
	stack_sampler_close(p->s);
	free(p);
}

void rep_profile_free(struct rep_profile *rp)
{
	folded_free(&rp->folded);
}
