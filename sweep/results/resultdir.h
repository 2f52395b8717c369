/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files of a result directory, created so that nothing is ever overwritten
 * and nothing is ever seen half-written: the directory is new, a file
 * appears with its whole first content or not at all, and a file that is
 * replaced (on --resume) is replaced by rename.  Everything is fsync()ed,
 * directory entries too.  Functions return 0 or -errno and report nothing.
 */
#ifndef SWEEP_RESULTDIR_H
#define SWEEP_RESULTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct spec;

/*
 * Create dir: missing parents are made, the last component must not exist
 * (-EEXIST when it does, a directory or not).  dir is held by descriptor
 * from its mkdir on (heldir.h): the calls below, given dir or a path
 * beneath it, work in it wherever it is moved, and never through a
 * symlink swapped into its place.
 */
int resultdir_create(const char *dir);

/* Hold the existing directory dir (--resume) as resultdir_create() holds a new one. */
int resultdir_hold(const char *dir);

/*
 * Create dir/name holding buf[0..len), exclusively (-EEXIST if the name
 * exists): written and fsync()ed under no name (O_TMPFILE), then linked,
 * so a kill never leaves it empty or half-written.  Returns the open file
 * descriptor (>= 0, for appending) or -errno.
 */
int resultdir_create_file(const char *dir, const char *name, const void *buf, size_t len);

/*
 * Replace (or create) dir/name with buf[0..len): written and fsync()ed
 * under no name, linked as name.tmp and renamed over it.  A stale name.tmp
 * of a killed run is removed first.
 */
int resultdir_replace_file(const char *dir, const char *name, const void *buf, size_t len);

/*
 * dir/name holding buf[0..len), whole: created exclusively and closed, or
 * with replace, replacing the one there.  0 or -errno.
 */
int resultdir_put_file(const char *dir, const char *name, const void *buf, size_t len,
		       bool replace);

/* Write all of buf at offset off, short writes continued; then fsync(). */
int resultdir_write_at(int fd, off_t off, const void *buf, size_t len);

/*
 * Hold dir for this process: an exclusive flock(2) on the directory, kept
 * while the returned descriptor is open (and released when the process
 * ends, however it ends).  -EBUSY when another process holds it.
 */
int resultdir_lock(const char *dir);

/*
 * Hold dir for reading: a shared flock(2), which readers (report, merge,
 * compare) share with each other but not with a run, which holds dir
 * exclusively from its creation to its end.  The descriptor (>= 0), or
 * -EBUSY when a run holds dir, or -errno.
 */
int resultdir_lock_shared(const char *dir);

/* fsync() the directory itself, so entries created or renamed in it last. */
int resultdir_sync(const char *dir);

/*
 * Remove path and everything under it, symlinks not followed: what this
 * process made and must not leave (a staging directory, a half-made set).
 * A missing path is not an error.  0 or -errno.
 */
int resultdir_remove_tree(const char *path);

/* An in-memory FILE whose text a writer fills (open_memstream). */
struct membuf {
	FILE *f;
	char *buf;
	size_t len;
};

int membuf_open(struct membuf *m);
/* Flush; returns 0 and leaves m->buf/len holding the text, or -errno. */
int membuf_close(struct membuf *m);
void membuf_free(struct membuf *m);

/*
 * dir/name holding what fill(f, ctx) writes, formatted in memory first and
 * then put as resultdir_put_file() does (created exclusively, or with
 * replace swapped in by rename).  0, fill's error, or -errno.
 */
int resultdir_write_file(const char *dir, const char *name, bool replace,
			 int (*fill)(FILE *f, const void *ctx), const void *ctx);

/* dir/spec: the spec as run (spec_write()), created, or with replace swapped in. */
int resultdir_write_spec(const char *dir, const struct spec *spec, bool replace);

/*
 * The default result directory of a sweep named name begun at when:
 * "results/NAME/YYYYmmdd-HHMMSS" (UTC) and suffix ("-fleet", or "").
 */
void resultdir_default_path(char *buf, size_t len, const char *name, time_t when,
			    const char *suffix);

#endif
