/* SPDX-License-Identifier: GPL-2.0 */
/* What main.c hands the commands: the parsed command line. */
#ifndef SWEEP_CLI_H
#define SWEEP_CLI_H

#include <stdbool.h>

#include "draw.h"
#include "exitcode.h"
#include "matrix.h"
#include "meta.h"
#include "orchestrator.h"
#include "outfmt.h"
#include "pointsel.h"
#include "shard.h"
#include "spec.h"

#define CLI_MAX_ARGS 64

/*
 * Each command gets its own options (cliopt.c's table says which it
 * takes), built from the groups several share: every command's common
 * part, the spec's (run, check, expand, fleet) and the drawing's (run,
 * report, merge, fleet).
 */
struct cli_common {
	char argv_line[1024];		/* the command line, for meta */
	const char *const *args;	/* import FILE..., report and merge DIR..., list, system */
	int nr_args;
	const char *outdir;		/* -o DIR */
	const char *tags[CLI_MAX_ARGS + 1];	/* --tag key=value, NULL-terminated */
	int nr_tags;
};

/* SPEC and what changes it (cli_load()). */
struct cli_spec {
	const char *spec_path;
	const char *sets[CLI_MAX_ARGS];	/* --set key=value, in order */
	const char *set_opt[CLI_MAX_ARGS];	/* NULL, or its shorthand: "-p/--producers" */
	int nr_sets;
	bool adhoc;			/* spec_path is a workload's name: an ad hoc run */
	const char *save_spec;		/* --save-spec FILE */
	char found_spec[4096];		/* an installed spec's path, found by name */
	bool quick;
	/* a sub-run's: the timing its sweep's --set gave, kept under --quick (subrun.h) */
	const char *quick_keeps;
	const char *kernels[MAX_KERNELS];	/* --kernel: replaces [sweep] kernel */
	int nr_kernels;
	/* a sub-run whose decide's baseline is another kernel's sub-run (gate.h) */
	bool gated;
};

/* How results are drawn and printed. */
struct cli_draw {
	bool no_plots;
	bool html;			/* report --html: the page instead of the table and charts */
	bool no_html;			/* run --no-html */
	unsigned int plot_timeout_s;	/* --plot-timeout; 0: the default */
	enum out_format format;		/* -f/--format: the table printed */
	const char *by;			/* --by: what names each run */
};

/* check and expand: the spec alone. */
struct check_opts {
	struct cli_common com;
	struct cli_spec spec;
	const char *only;		/* --only EXPERIMENT: one [params] block, by title */
};

struct run_opts {
	struct cli_common com;
	struct cli_spec spec;
	struct cli_draw draw;
	const char *resume;		/* --resume DIR */
	const char *only;		/* --only EXPERIMENT: one [params] block, by title */
	const char *quiet[CLI_MAX_ARGS];	/* --quiet-warning NAME: a system check's */
	int nr_quiet;
	struct shard shard;		/* --shard I/N: its share of the points */
	/* a sub-run's (orchestrator.h); not in --help */
	const char *guest_of;		/* --guest-of KERNEL: the kernel value this run is for */
	const char *guest_accel;	/* --guest-accel kvm|tcg|tcg-icount: it runs in a VM so accelerated */
	const char *guest_accel_reason;	/* --guest-accel-reason: why vm_accel = auto is tcg */
	const char *fail_all;		/* --fail-all REASON: a failed row per point, run none */
	struct told_host place;		/* fail_all's rows a fleet host's (name set): its facts */
	const char *gate;		/* its units run as a sweep over kernels says (gate.h) */
	char *settings_text;		/* --subrun FILE's text: the strings above point into it */
};

/* report and merge DIR...: what they draw */
struct draw_cmd_opts {
	struct cli_common com;
	struct cli_draw draw;
	const char *sets[CLI_MAX_ARGS];	/* --set: overrides of the spec drawn */
	int nr_sets;
	const char *spec_file;		/* --spec FILE */
	const char *normalize;		/* --normalize first: charts relative to it */
	const char *per;		/* --per PARAM: charts per unit of PARAM */
	bool profile;			/* report --profile: top symbols under each row */
};

struct import_opts {
	struct cli_common com;
	const char *label;		/* --label TEMPLATE */
};

struct fleet_opts {
	struct cli_common com;
	struct cli_spec spec;
	struct cli_draw draw;
	const char *resume;		/* --resume OUT */
	const char *only;		/* --only EXPERIMENT */
	const char *quiet[CLI_MAX_ARGS];	/* --quiet-warning NAME, for every host's run */
	int nr_quiet;
	const char *hosts;		/* --hosts FILE */
	const char *ssh_config;		/* --ssh-config FILE: ssh -F */
	bool shard_hosts;		/* --shard: host k of n runs --shard k/n */
	bool shard_mixed;		/* --shard-mixed: even on hosts that differ */
	const char *engine;		/* --engine ssh|slurm; NULL: ssh, or OUT's on --resume */
	/* --engine slurm: what each machine asks for where --hosts FILE does not say */
	const char *partition, *constraint, *nodelist, *time_limit;
};

/* Kernels a bisect's --kernel lists: Debian serves about 60 versions */
#define CLI_MAX_BISECT_KERNELS	256

/* bisect SPEC --good K1 --bad K2, or --step IMAGE --good DIR --bad DIR (cmd_bisect.c) */
struct bisect_opts {
	struct cli_common com;
	struct cli_spec spec;
	const char *resume;		/* --resume OUT */
	const char *only;		/* --only EXPERIMENT */
	const char *good, *bad;		/* --good/--old, --bad/--new: the ends */
	bool old_new;			/* the terms are old and new (--old, --new) */
	const char *step;		/* --step IMAGE: git bisect run's predicate */
	bool allow_tcg;			/* a timed metric under plain TCG all the same */
	const char *kernels[CLI_MAX_BISECT_KERNELS];	/* --kernel: the user's images, in order */
	int nr_kernels;
};

/*
 * A command that found standard output failing has said so, with its
 * cause (ENOSPC): main's last check of stdout then raises the exit status
 * without a second message (which could only say EIO: errno is gone).
 */
void cli_stdout_failure_said(void);
bool cli_stdout_failure_was_said(void);

/*
 * Spec file (or an ad hoc run's spec) + --set overrides and their
 * shorthands + --quick → a bound configuration; --save-spec writes it.
 * Diagnostics are printed; returns 0 or -EINVAL / -errno.
 */
int cli_load(const struct cli_spec *o, struct spec **spec, struct sweep_cfg **cfg);

/*
 * Under --quick, the timing keys ("warmup duration interval", a subset in
 * that order) that a --set gives, or a sub-run's settings kept: --quick
 * leaves them as set.  NULL without --quick or when it sets them all.
 * The sub-runs of a sweep get it in their settings (subrun.h).
 */
const char *cli_quick_keeps(const struct cli_spec *o);

/* The run command; returns an exit status. */
int cmd_run(const struct run_opts *o);

/* import FILE... -o OUT (cmd_import.c); returns an exit status. */
int cmd_import(const struct import_opts *o);
/* report DIR... and merge DIR... -o OUT; return an exit status. */
int cmd_report(const struct draw_cmd_opts *o);
int cmd_merge(const struct draw_cmd_opts *o);

/*
 * How results are drawn (draw.h) as d says, with the spec's --set (sets,
 * nr_sets of them) applied to the spec drawn.
 */
struct draw_opts cli_draw_opts(const struct cli_draw *d, const char *const *sets, int nr_sets);
/* What report and merge draw: their DIR..., -o, --spec, --normalize and --per too. */
struct draw_opts cli_report_draw_opts(const struct draw_cmd_opts *o);
/*
 * A merged OUT's report.html (a kernel sweep's, a fleet's) drawn with its
 * table and charts (d's page), as a run writes its own at its end: none
 * under --no-plots or --no-html.  The run's --set are in its runs' specs.
 */
void cli_draw_page(const struct cli_draw *c, struct draw_opts *d);

/* The options run over kernels and the fleet share, for cli_orch_request(). */
struct cli_orch_args {
	const struct cli_common *com;
	const struct cli_spec *spec;
	const struct cli_draw *draw;
	const char *resume;
	const char *only;
	const char *const *quiet;
	int nr_quiet;
};

/*
 * What a command that drives sub-runs (a sweep over kernels, a fleet) was
 * asked: OUT, --resume, what every sub-run gets, OUT's page drawn as a
 * run draws its own.
 */
struct orch_request cli_orch_request(const struct cli_orch_args *a);

/*
 * fleet SPEC --hosts FILE: the spec on every host over ssh or Slurm, merged
 * (cmd_fleet.c: a fleet_request for executors/fleet.c).
 */
int cmd_fleet(const struct fleet_opts *o);

/* system [ACTION]: the system check (cmd_system.c, syscheck.h); ACTION NULL or show. */
int cmd_system(const char *action);

/* bisect SPEC: which kernel changed a point (cmd_bisect.c); an exit status. */
int cmd_bisect(const struct bisect_opts *o);

/*
 * The status of a usage error of bisect's arguments argv[0..argc): 2, or
 * with --step among them 128, which stops git bisect run (it takes 1-127
 * but 125 for "bad").  Also the least status when writing stdout failed.
 */
int cmd_bisect_usage_status(int argc, char *const *argv);

#endif
