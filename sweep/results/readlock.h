/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result directories a reader (report, merge, compare) reads, held
 * shared while it reads them.  A run holds its directory exclusively from
 * its creation to its end (resultdir_lock()), so a reader refuses a
 * directory a run is writing rather than read half a set or, as report
 * would, race the run for its table.txt.  Each directory is opened once
 * and held (heldir.h): the lock is taken on that descriptor and every file
 * of it is read beneath it, so a directory renamed away or a symlink put
 * at its path mid-read cannot make the reader read another set than the
 * one it locked.
 */
#ifndef SWEEP_READLOCK_H
#define SWEEP_READLOCK_H

#include <stdbool.h>

struct read_locks {
	int *fds;		/* one per directory locked */
	int nr;
	const char *const *dirs;	/* the caller's, held (heldir.h) until released */
	int nr_dirs;
};

/*
 * Every one of dirs[0..nr) held (dirs must outlive rl) and locked
 * shared.  0; -EBUSY when a run holds one (reported: "a run is writing
 * DIR", none held); -ENOMEM.  A directory
 * that cannot be locked for another reason (missing, not a directory, a
 * filesystem without locks) is left to the reader to find and report.
 */
int read_locks_take(struct read_locks *rl, const char *const *dirs, int nr);

/* Let go of what read_locks_take() holds. */
void read_locks_release(struct read_locks *rl);

/*
 * dir held exclusively by a command that writes it (run, fleet, a sweep
 * over kernels; resume: --resume) until the descriptor returned is closed
 * or the process ends.  -EBUSY when another holds it, reported as
 * "cannot resume|write to DIR: another WHO is running there"; -1 on a
 * filesystem without locks, warned: the command itself is still sound.
 */
int write_lock_take(const char *dir, const char *who, bool resume);

#endif
