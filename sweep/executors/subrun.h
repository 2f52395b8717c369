/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of a kernel sweep's sub-run: the spec as the sweep
 * resolved it (a file: every --set and --kernel already in it), the
 * sweep's --quick, --only and --tag, for one of its kernels, run where it
 * is started (--kernel host), saying which kernel of the sweep it is for.
 * Pure: the orchestrator runs it through an executor (docs/kernel.md).
 */
#ifndef SWEEP_SUBRUN_H
#define SWEEP_SUBRUN_H

#include <stdbool.h>

#include "exitcode.h"
#include "shard.h"

#define SUBRUN_MAX_ARGS		(4 * 64 + 32)	/* a tag each of at most 64 --tag (kernelrun.c) */

/* An argv pointing into the strings it was made from; NULL-terminated. */
struct subrun_argv {
	const char *argv[SUBRUN_MAX_ARGS + 1];
	int n;
	char shard[32];			/* --shard's K/N */
};

struct subrun {
	const char *self;		/* bpfsweep, absolute */
	/* the resolved spec (orch_write_spec()), absolute: a guest starts in the same directory */
	const char *spec_path;
	/* what of the sweep's command line every sub-run carries */
	bool quick;			/* --quick */
	const char *only;		/* --only TITLE, or NULL */
	const char *const *tags;	/* --tag, or those of the sweep being resumed */
	int nr_tags;
};

/* Append one argument (past SUBRUN_MAX_ARGS, dropped: cli.h bounds what comes in). */
void subrun_arg(struct subrun_argv *a, const char *arg);

/*
 * The sub-run of kernel (a value of the kernel axis, "host" or an image):
 * run SPEC [--quick] [--only T] --kernel host --guest-of KERNEL
 * [--guest-accel ACCEL [--guest-accel-reason WHY]] --no-plots (WHY: why
 * auto is tcg, "" or NULL for none).  Options may follow; then subrun_dir().
 */
void subrun_argv(const struct subrun *s, const char *kernel, const char *accel,
		 const char *accel_reason, struct subrun_argv *a);

/*
 * The sub-run of a place that runs the spec as it is there, its own kernel
 * axis and all (a fleet's host), or share sh of it (count 0: every point):
 * SELF run SPEC [--quick] [--only T] [--shard K/N] --no-plots, SELF and
 * SPEC as the place names them.  Then subrun_dir().
 */
void subrun_place_argv(const struct subrun *s, const char *self, const char *spec,
		       const struct shard *sh, struct subrun_argv *a);

/* Where it writes: -o DIR with the tags, or --resume DIR (which keeps its own). */
void subrun_dir(const struct subrun *s, const char *dir, bool resume, struct subrun_argv *a);

#endif
