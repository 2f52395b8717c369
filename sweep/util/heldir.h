/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Directories held by descriptor from their creation, and paths beneath
 * them resolved from that descriptor.
 *
 * bpfsweep runs as root and may write its results inside a directory
 * another user can write (-o /tmp/x/run).  That user can rename the run's
 * directory away mid-run and put a symlink in its place: every file opened
 * by path after that would land where the symlink points.  A held
 * directory is opened once, right after its mkdir (O_NOFOLLOW), and every
 * path under it given to the calls below is resolved from that descriptor
 * with openat2()'s RESOLVE_BENEATH: a symlink inside it is followed only
 * while it stays inside (fleet's runs/<n> -> ../hosts/<label>), and a path
 * that would leave it, by ".." or a symlink, is refused (-EXDEV).  The run
 * goes on in its own directory wherever it was moved.  A kernel without
 * openat2() (before 5.6) gets a stricter walk: no symlink and no ".."
 * beneath a held directory at all (-ELOOP, -EXDEV).  A path under no held
 * directory is used as given, as open(2) and friends would.
 *
 * Paths are matched as the caller spells them: the same string (or it and
 * "/rest") that was held; trailing slashes are ignored.  The registry is
 * process-wide and set up from one thread; the calls return a descriptor,
 * 0 or -errno, and report nothing.
 */
#ifndef SWEEP_HELDIR_H
#define SWEEP_HELDIR_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * mkdir path (mode), its parent resolved as above, then open the new
 * directory beneath the same parent descriptor with O_NOFOLLOW, fsync
 * the parent and hold it.  -EEXIST when path exists; a symlink swapped in
 * between mkdir and open is refused (-ELOOP) and the directory made is
 * left empty for the caller to report.
 */
int heldir_create(const char *path, mode_t mode);

/*
 * Hold the existing directory path (--resume DIR): opened as given, a
 * symlink in path followed this once; later paths beneath it are resolved
 * from the descriptor.
 */
int heldir_hold(const char *path);

/*
 * Does path, held, name something else now than the directory held (moved
 * away, a symlink or another directory in its place)?  false when not held.
 */
bool heldir_moved(const char *path);

/* Stop holding path (removed, or given up); nothing when it is not held. */
void heldir_release(const char *path);

/* A new descriptor (O_RDONLY | O_DIRECTORY, close-on-exec) of the directory path. */
int heldir_open_dir(const char *path);

/*
 * open(2) of path with flags (O_CLOEXEC added) and mode: beneath its held
 * directory as said above, else as given.
 */
int heldir_open(const char *path, int flags, mode_t mode);

/*
 * stat(2) of path resolved as heldir_open() resolves it (a symlink in it
 * followed while it stays beneath its held directory): 0 or -errno.
 */
int heldir_stat(const char *path, struct stat *st);

/* access(path, F_OK) the same way: 0 when path exists, else -errno. */
int heldir_access(const char *path);

/* fopen() of path for "r", "w" (truncated) or "a" through heldir_open(). */
FILE *heldir_fopen(const char *path, const char *how);

int heldir_mkdir(const char *path, mode_t mode);
/* symlink(2) of target (kept as it is, not resolved) at path. */
int heldir_symlink(const char *target, const char *path);
int heldir_unlink(const char *path);
int heldir_rmdir(const char *path);

/* renameat2(2) of from to to, both resolved as above (flags: RENAME_EXCHANGE, or 0). */
int heldir_rename(const char *from, const char *to, unsigned int flags);

/* fsync() of the directory path. */
int heldir_sync(const char *path);

/*
 * Remove path and everything under it, no symlink followed (a symlink is
 * removed, not its target), by descriptor all the way down.  A missing
 * path is not an error.  When path is held, it is released.
 */
int heldir_remove_tree(const char *path);

#endif
