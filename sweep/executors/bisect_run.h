/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bisect's rounds: one run of the spec on one kernel, through the kernel
 * sweep's machinery (`bpfsweep run SPEC --kernel IMAGE`, a VM that boots
 * it: kernelrun.c, orchestrator.c, executor_vm.c), as a child of this
 * process, into BASE/<round>; and what each run's points measured, read
 * back from its directory (docs/kernel.md, "Bisect").
 */
#ifndef SWEEP_BISECT_RUN_H
#define SWEEP_BISECT_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "bisectstep.h"

/* The --set words a round passes on: as many as a command line takes (cli.h) */
#define BISECT_MAX_SETS 64

/* What every round runs: the spec and its options, as the bisect was given them. */
struct bisect_runner {
	const char *self;		/* this binary */
	const char *spec_path;		/* SPEC (a file, a workload, an installed spec) */
	const char *const *sets;	/* --set, in order */
	int nr_sets;			/* at most BISECT_MAX_SETS */
	const char *only;		/* --only TITLE, or NULL */
	bool quick;
};

/* How a round's run went. */
struct bisect_round {
	char dir[4200];			/* BASE/<round> */
	bool reused;			/* finished before (--resume): not run again */
	int status;			/* the run's exit status (0 when reused) */
};

/*
 * Round r of image into base/<r>: reused when it finished before, resumed
 * (`run --resume`) when it was cut short, else run; its output goes to
 * base/log.  0 (whatever the run's status: failed rows say why) or
 * -EINVAL (the run refused its arguments), -EINTR (interrupted), -errno,
 * with why.
 */
int bisect_run_round(const struct bisect_runner *br, const char *image, const char *base, int r,
		     struct bisect_round *rd, char *why, size_t len);

/* The points a run measured, as the ends say: its rows' ids and names into *pts (free() it). */
int bisect_read_points(const char *dir, struct bisect_point **pts, long long **ids, int *nr);

/*
 * The run in dir: point ids[i]'s status and headline units into obs[i]
 * ("" status: no row), and whether it ran under plain TCG or icount.
 * 0 or -errno (said).
 */
int bisect_read_obs(const char *dir, const long long *ids, int nr, struct bisect_obs *obs,
		    bool *tcg, bool *icount);

#endif
