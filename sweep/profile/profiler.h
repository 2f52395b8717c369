/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A repetition's profile (docs/profile.md): the sampler opened before the
 * first profiled repetition's set-up, enabled at the edges of each
 * measured part only, then read and symbolised from /proc/kallsyms while
 * the workload's programs are still loaded, and reset for the next.  A kernel that refuses the perf
 * event or the program gives a profile that says so, not a failed point.
 */
#ifndef SWEEP_PROFILER_H
#define SWEEP_PROFILER_H

#include <stdbool.h>
#include <stdint.h>

#include "folded.h"

/* What one repetition's profile holds. */
struct rep_profile {
	int rep;
	int err;		/* 0, or -errno: no profile, why in the kernel's words */
	char why[256];		/* why none, or a caveat (symbols hidden) */
	uint64_t samples;	/* the sampler's runs in the measured part */
	uint64_t lost;		/* of them, not counted (a map full) */
	bool hidden;		/* kallsyms hid the addresses: kernel frames are "[kernel]" */
	struct folded folded;	/* "task;kernel root;...;leaf count", merged */
};

struct profiler;

/*
 * Open the sampler at hz on cpus[0..nr) (those the point may run on), for
 * repetition rp->rep.  NULL when the kernel refused (rp->err, rp->why);
 * the repetition runs all the same.
 */
struct profiler *profiler_start(int hz, const int *cpus, int nr, struct rep_profile *rp);

/* Count samples on cpus[0..nr) (all opened ones when nr is 0); NULL p: nothing. */
void profiler_enable(struct profiler *p, const int *cpus, int nr);
void profiler_disable(struct profiler *p);

/*
 * Stop, read the counts, name the kernel frames from /proc/kallsyms and
 * reset the counts: rp filled (rp->err when reading failed).  Before the
 * workload's teardown, while its programs have their symbols.
 */
void profiler_collect(struct profiler *p, struct rep_profile *rp);

/* Can p count another repetition (false: its reset failed, or NULL)? */
bool profiler_usable(const struct profiler *p);

/* The sampler closed: its program, maps and events gone.  NULL is fine. */
void profiler_close(struct profiler *p);

void rep_profile_free(struct rep_profile *rp);

#endif
