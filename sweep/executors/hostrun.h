/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep on this host, in this process: the run command's (cli/cmd_run.c
 * fills the request from its options), and so a kernel sweep's or a
 * fleet's sub-run's.  Its OUT through results/outdir.c, created or
 * reopened for --resume; each finished point appended to the CSVs at
 * once; at the end OUT read back and drawn as report draws it.
 */
#ifndef SWEEP_HOSTRUN_H
#define SWEEP_HOSTRUN_H

#include <stdbool.h>

#include "draw.h"
#include "matrix.h"
#include "meta.h"
#include "shard.h"
#include "spec.h"

/* What the run was asked: each field the run option of the same name (cli.h). */
struct run_request {
	const char *out;		/* -o DIR, or NULL: results/<spec>/<stamp> */
	const char *resume;		/* --resume DIR */
	const char *argv_line;		/* the command line, for meta */
	const char *const *tags;	/* --tag key=value, NULL-terminated */
	int nr_tags;
	bool quick;			/* --quick (cfg has it applied already): for meta */
	const char *only;		/* --only EXPERIMENT, or NULL */
	const char *const *quiet;	/* --quiet-warning NAME: not printed, kept in meta */
	int nr_quiet;
	struct shard shard;		/* --shard I/N; count 0: every point */
	/* the run's end: no_plots, no_html, plot_timeout_s and format */
	struct draw_opts draw;
	/* a sub-run's (orchestrator.h, subrun.h) */
	const char *guest_of;		/* the kernel value of the sweep it runs for */
	const char *guest_accel;	/* kvm, tcg or tcg-icount: it runs in a VM so accelerated */
	const char *guest_accel_reason;	/* why vm_accel = auto is tcg */
	const char *fail_all;		/* a failed row per point saying this, run none */
	const struct told_host *place;	/* fail_all's rows a fleet host's (name set) */
	const char *gate;		/* its units run as a sweep over kernels says (gate.h) */
};

/*
 * The sweep of spec, bound as cfg (one kernel: this host's), as rq asks;
 * it frees spec and cfg.  Returns an exit status (exitcode.h).
 */
int host_run(const struct run_request *rq, struct spec *spec, struct sweep_cfg *cfg);

#endif
