/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OUT: the result directory a command writes, from its path to its end,
 * the same for every command that makes one (run, a sweep over kernels,
 * fleet; next bisect and other fleet engines).  outdir_open() is the one
 * call: a new OUT (-o DIR, or results/<spec>/<stamp><suffix>, -2, -3, ...
 * for a second in the same second) created, held by descriptor
 * (heldir.h), locked against a second writer, its subfolders made, its
 * spec and the first lines of its meta written; or, for --resume DIR, the
 * directory an earlier run of the command left, held and locked.  What a
 * command checks of a reopened OUT (is it its kind, of the same command
 * line) and what it appends to meta are its own (resume.h: a run's rows;
 * a kernel sweep's kernels; a fleet's hosts).  Every refusal and every
 * failed write is reported (diag.h) here; 0 or -errno.
 */
#ifndef SWEEP_OUTDIR_H
#define SWEEP_OUTDIR_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "meta.h"
#include "spec.h"

struct outdir;

/* What a command asks of its OUT: the command line's part, and what a new OUT holds. */
struct outdir_how {
	const char *who;		/* the command, as a second one is told: "bpfsweep fleet" */
	const char *out;		/* -o DIR; NULL: the default path */
	const char *resume;		/* --resume DIR: reopened; NULL: OUT is created */
	bool tagged;			/* --tag given: refused with --resume (OUT keeps its tags) */
	const char *metavar;		/* --resume's operand as the refusal names it: "DIR" */
	const char *name;		/* the spec's name: results/<name>/... */
	const char *suffix;		/* after the default path's stamp: "", "-kernels", "-fleet" */
	const char *exists_hint;	/* after "File exists": " (--resume OUT continues ...)" */
	const char *const *subdirs;	/* made in a new OUT, NULL-terminated; NULL: none */
	const struct spec *spec;	/* a new OUT's spec (spec_write()) */
	const struct sweep_cfg *cfg;	/* a new OUT's meta: meta_write(cfg, info) */
	const struct run_info *info;	/* its start is the default path's stamp too */
	/*
	 * A new OUT's meta lines after meta_write()'s, or its other files (a
	 * fleet's hostfile); NULL: none.  0 or -errno, reported by it.
	 */
	int (*more)(const struct outdir *od, void *ctx);
	void *ctx;
};

struct outdir {
	char path[PATH_MAX];		/* OUT as the command names it */
	int lock_fd;			/* the exclusive flock, while locked */
	bool locked;			/* false too on a filesystem without locks (warned) */
	bool made;			/* created by this command: outdir_discard() removes it */
	bool resumed;			/* reopened for --resume */
};

/*
 * how->resume ? outdir_reopen() : outdir_create(): OUT ready for the
 * command, held and locked until outdir_close().  od may start zeroed;
 * outdir_close() of one never opened does nothing.
 */
int outdir_open(struct outdir *od, const struct outdir_how *how);

/*
 * A new OUT, made as said above; on any failure nothing of it is left
 * behind.  -EEXIST when -o DIR exists (a command writes a new directory),
 * -EBUSY when another command holds it.
 */
int outdir_create(struct outdir *od, const struct outdir_how *how);

/*
 * --resume DIR: refused with -o or --tag (-EINVAL), else DIR (an existing
 * directory) held and locked for the rest of the command.
 */
int outdir_reopen(struct outdir *od, const struct outdir_how *how);

/* OUT/spec: created, or on a reopened OUT replacing the earlier one. */
int outdir_write_spec(const struct outdir *od, const struct spec *spec);

/* OUT/meta created (it must not exist) with every fact known at the start (meta.h). */
int outdir_write_meta(const struct outdir *od, const struct sweep_cfg *cfg,
		      const struct run_info *info);

/* "key: value" and "key: <time>" appended to OUT/meta. */
int outdir_meta_append(const struct outdir *od, const char *key, const char *value);
int outdir_meta_time(const struct outdir *od, const char *key, time_t t);

/* OUT/name into buf; -ENAMETOOLONG when it does not fit. */
int outdir_file(const struct outdir *od, const char *name, char *buf, size_t len);

/*
 * A set-up that failed after outdir_open(): an OUT this command created
 * is removed with everything in it, a reopened one left as it is.
 */
void outdir_discard(struct outdir *od);

/* The lock released (a reader or a later --resume may have OUT). */
void outdir_close(struct outdir *od);

#endif
