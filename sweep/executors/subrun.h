/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a sub-run is told what to do: two files and a directory.  The spec
 * as the sweep resolved it (every --set and --kernel in it), and its
 * settings (--quick, --only, --tag, which kernel it is for, its shard,
 * ...) in a settings file beside it, which run --subrun reads; the
 * argv carries only those two paths and where it writes.  A new option
 * of the sweep becomes a field here, never a word to re-serialise.
 * Pure but for the file: the orchestrator runs the argv through an
 * executor (docs/kernel.md, "A sub-run's settings").
 */
#ifndef SWEEP_SUBRUN_H
#define SWEEP_SUBRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "exitcode.h"
#include "meta.h"
#include "shard.h"

#define SUBRUN_MAX_ARGS		16
#define SUBRUN_MAX_TAGS		72	/* the command line's 64 and the executor's own */
#define SUBRUN_SETTINGS_MAX	(256 << 10)	/* a settings file, at most */
#define SUBRUN_MAX_QUIET	64	/* the command line's --quiet-warning */

/* The words of the argv, where an executor that moves the files renames them. */
enum { SUBRUN_ARGV_SELF = 0, SUBRUN_ARGV_SPEC = 2, SUBRUN_ARGV_SETTINGS = 4 };

/* An argv pointing into the strings it was made from; NULL-terminated. */
struct subrun_argv {
	const char *argv[SUBRUN_MAX_ARGS + 1];
	int n;
};

/* What of the sweep's command line every sub-run of it gets. */
struct subrun {
	const char *self;		/* bpfsweep, absolute */
	/* the resolved spec (orch_write_spec()), absolute: a guest starts in the same directory */
	const char *spec_path;
	bool quick;			/* --quick */
	/* with quick: the timing keys a --set gave, which --quick leaves (cli_quick_keeps()) */
	const char *quick_keeps;
	const char *only;		/* --only TITLE, or NULL */
	const char *const *tags;	/* --tag, or those of the sweep being resumed */
	int nr_tags;
	const char *const *quiet;	/* --quiet-warning NAME */
	int nr_quiet;
};

/* One sub-run's settings: each field the run option of the same name (cli.h). */
struct subrun_settings {
	bool quick;
	/*
	 * "duration interval": the sweep's --set gave them, so its resolved
	 * spec has them, and quick leaves them as they are there
	 */
	const char *quick_keeps;
	const char *only;		/* NULL: every experiment */
	const char *tags[SUBRUN_MAX_TAGS + 1];	/* NULL-terminated; none when it resumes */
	int nr_tags;
	const char *quiet[SUBRUN_MAX_QUIET];	/* the system check's warnings not to print */
	int nr_quiet;
	/*
	 * the kernel of the sweep it runs for, a value of its kernel list: it
	 * runs where it is started, as --kernel host (the spec's list would
	 * otherwise boot again)
	 */
	const char *guest_of;
	const char *guest_accel;	/* kvm, tcg or tcg-icount: it runs in a VM so accelerated */
	const char *guest_accel_reason;	/* why vm_accel = auto is tcg */
	struct shard shard;		/* count 0: every point */
	const char *fail_all;		/* a failed row per point saying this, run none */
	/* with fail_all: the rows are of this machine (name set), a fleet's host (meta.h) */
	struct told_host place;
	bool no_plots;
	/* a sweep over kernels with decide runs its units in rounds through this (gate.h) */
	const char *gate;
};

/* Append one argument (past SUBRUN_MAX_ARGS, dropped). */
void subrun_arg(struct subrun_argv *a, const char *arg);

/*
 * The settings of the sub-run of kernel (a value of the kernel list,
 * "host" or an image), run where it is started and saying which kernel it
 * is for (guest_of): the sweep's quick, only, quieted warnings and
 * (unless it resumes, keeping its own) tags, the VM's accelerator ACCEL
 * and why (NULL: none), no plots.
 */
void subrun_kernel_settings(const struct subrun *s, const char *kernel, const char *accel,
			    const char *accel_reason, bool resume, struct subrun_settings *set);

/*
 * The settings of a place that runs the spec as it is there, its own
 * kernel axis and all (a fleet's host), or share sh of it (count 0: every
 * point): the sweep's quick, only, quieted warnings and (unless it
 * resumes) tags, no plots.
 */
void subrun_place_settings(const struct subrun *s, const struct shard *sh, bool resume,
			   struct subrun_settings *set);

/* One more tag (past SUBRUN_MAX_TAGS, dropped: cli.h bounds what comes in). */
void subrun_settings_tag(struct subrun_settings *set, const char *tag);

/*
 * set written to dir/name, replacing one there, and its path into path
 * (absolute when dir is); 0 or -errno (reported).
 */
int subrun_settings_write(const char *dir, const char *name, const struct subrun_settings *set,
			  char *path, size_t len);

/*
 * The settings file at path into set, its strings pointing into *text
 * (free() it after set).  0, or -errno / -EINVAL with why.
 */
int subrun_settings_read(const char *path, struct subrun_settings *set, char **text, char *why,
			 size_t len);

/*
 * SELF run SPEC --subrun SETTINGS, then -o DIR, or --resume DIR (which
 * continues a partial result with its own tags).
 */
void subrun_argv(const char *self, const char *spec, const char *settings, const char *dir,
		 bool resume, struct subrun_argv *a);

#endif
