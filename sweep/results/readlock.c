// SPDX-License-Identifier: GPL-2.0
/*
 * Shared locks on the result directories a reader reads (readlock.h):
 * never waited for, since a run holds its directory for minutes or hours;
 * each directory held (heldir.h) from before its lock to the end of the read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "heldir.h"
#include "readlock.h"
#include "resultdir.h"

int read_locks_take(struct read_locks *rl, const char *const *dirs, int nr)
{
	*rl = (struct read_locks){ .fds = calloc(nr + 1, sizeof(*rl->fds)) };
	if (!rl->fds)
		return -ENOMEM;
	rl->dirs = dirs;
	rl->nr_dirs = nr;
	for (int i = 0; i < nr; i++) {
		int fd;

		/*
		 * Held first, so that the lock and every file read later are of
		 * the one directory the path named now, whatever is renamed or
		 * swapped in at the path while it is read.  One that cannot be
		 * opened is left to the reader to report.
		 */
		heldir_hold(dirs[i]);
		fd = resultdir_lock_shared(dirs[i]);
		if (fd >= 0) {
			rl->fds[rl->nr++] = fd;
			continue;
		}
		if (fd == -EBUSY) {
			diag_err("a run is writing %s: read it when the run has ended", dirs[i]);
			read_locks_release(rl);
			return fd;
		}
	}
	return 0;
}

int write_lock_take(const char *dir, const char *who, bool resume)
{
	int fd = resultdir_lock(dir);

	if (fd == -EBUSY)
		diag_err("cannot %s %s: another %s is running there", resume ? "resume" : "write to",
			 dir, who);
	else if (fd < 0)
		diag_warn("cannot lock %s: %s", dir, strerror(-fd));
	return fd == -EBUSY ? fd : fd < 0 ? -1 : fd;
}

void read_locks_release(struct read_locks *rl)
{
	for (int i = 0; i < rl->nr_dirs; i++)
		heldir_release(rl->dirs[i]);
	for (int i = 0; i < rl->nr; i++)
		close(rl->fds[i]);
	free(rl->fds);
	*rl = (struct read_locks){ 0 };
}
