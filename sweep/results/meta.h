/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The meta file of a result directory: "key: value" lines describing the
 * machine, kernel, tool versions and the run.
 */
#ifndef SWEEP_META_H
#define SWEEP_META_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "model.h"

struct sys_check;

/*
 * The machine a run's rows stand for when it is not this one: a fleet's
 * host that never ran them, whose failed rows are written here.  What the
 * probe of it said; NULL or "" is written "unknown".
 */
struct told_host {
	const char *name;		/* its address, as the hostfile gives it */
	const char *kernel_release, *arch, *cpu_model, *nproc;
};

struct run_info {
	time_t start;
	time_t end;		/* 0 while running */
	const char *const *tags;	/* "key=value", NULL-terminated, may be NULL */
	const char *argv_line;	/* the command line as typed */
	bool quick;		/* --quick: "quick: yes" */
	const char *shard;	/* --shard I/N: "shard: I/N"; NULL: every point */
	const char *kernel;	/* the image the run was for as given; NULL: the host's */
	const char *vm_accel;	/* "kvm", "tcg", "tcg-icount" in a VM; NULL on host */
	const char *vm_accel_reason;	/* why vm_accel = auto is tcg ("kvm refused: ..."); NULL */
	bool not_run;		/* the points ran nowhere (their kernel did not boot):
				 * no kernel facts, since this kernel is not theirs */
	const struct sys_check *check;	/* the system check before the sweep, or NULL */
	/* rows of another machine, run nowhere: its facts, none of this one's; or NULL */
	const struct told_host *told;
};

/*
 * Create path (it must not exist) with every fact known at the start, in
 * one write, fsync'd: no temporary file, and a run killed at any moment
 * leaves a meta that claims nothing it does not hold.  Keys:
 * docs/results.md.  Returns 0 or -errno and reports nothing: the caller does.
 */
int meta_write(const char *path, const struct sweep_cfg *cfg, const struct run_info *ri);

/*
 * The value of key in the meta file at path (its first line), into buf;
 * false when the file or the key is not there.
 */
bool meta_lookup(const char *path, const char *key, char *buf, size_t len);

/* Every value of key (the "tag" lines) joined by sep into buf; false when there is none. */
bool meta_lookup_all(const char *path, const char *key, const char *sep, char *buf, size_t len);

/* What `bpfsweep import` knows of the numbers it read. */
struct import_info {
	const char *argv_line;
	const char *const *files;	/* the files read, each an imported_from line */
	int nr_files;
	const char *title;		/* the first block's */
	const char *const *tags;	/* "key=value", NULL-terminated: host, arch, ... */
	time_t when;
};

/* meta of an imported result set (docs/import.md), into f. */
void meta_print_imported(FILE *f, const struct import_info *ii);

/*
 * Append "key: <t in ISO 8601 UTC>" to an existing path, fsync'd: "end" when
 * a run finishes, "resumed" when --resume continues it.  0 or -errno.
 */
int meta_append_time(const char *path, const char *key, time_t t);

/* Append "key: value" (escaped as meta_write() does) to an existing path, fsync'd. */
int meta_append(const char *path, const char *key, const char *value);

#endif
