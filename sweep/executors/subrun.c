// SPDX-License-Identifier: GPL-2.0
/* A kernel sweep's sub-run command line: see subrun.h. */
#include <stdio.h>

#include "kernels.h"
#include "subrun.h"

void subrun_arg(struct subrun_argv *a, const char *arg)
{
	if (a->n < SUBRUN_MAX_ARGS)
		a->argv[a->n++] = arg;
	a->argv[a->n] = NULL;
}

static void opt(struct subrun_argv *a, const char *name, const char *value)
{
	subrun_arg(a, name);
	subrun_arg(a, value);
}

/* SELF run SPEC [--quick] [--only T]: what every sub-run runs, from the resolved spec. */
static void run_spec(const struct subrun *s, const char *self, const char *spec,
		     struct subrun_argv *a)
{
	a->n = 0;
	subrun_arg(a, self);
	subrun_arg(a, "run");
	subrun_arg(a, spec);
	if (s->quick)
		subrun_arg(a, "--quick");
	if (s->only)
		opt(a, "--only", s->only);
}

void subrun_place_argv(const struct subrun *s, const char *self, const char *spec,
		       const struct shard *sh, struct subrun_argv *a)
{
	run_spec(s, self, spec, a);
	if (sh->count) {
		snprintf(a->shard, sizeof(a->shard), "%d/%d", sh->index, sh->count);
		opt(a, "--shard", a->shard);
	}
	subrun_arg(a, "--no-plots");
}

void subrun_argv(const struct subrun *s, const char *kernel, const char *accel,
		 const char *accel_reason, struct subrun_argv *a)
{
	run_spec(s, s->self, s->spec_path, a);
	/* the spec's own kernel list would otherwise boot again */
	opt(a, "--kernel", KERNEL_HOST);
	opt(a, "--guest-of", kernel);
	if (accel)
		opt(a, "--guest-accel", accel);
	if (accel && accel_reason && accel_reason[0])
		opt(a, "--guest-accel-reason", accel_reason);
	subrun_arg(a, "--no-plots");
}

void subrun_dir(const struct subrun *s, const char *dir, bool resume, struct subrun_argv *a)
{
	if (resume) {
		opt(a, "--resume", dir);
		return;
	}
	for (int i = 0; i < s->nr_tags; i++)
		opt(a, "--tag", s->tags[i]);
	opt(a, "-o", dir);
}
