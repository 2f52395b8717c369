/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sub-run's end of the gate (gateline.h): in a sweep over kernels with
 * decide, each kernel's sub-run announces every point and runs its units
 * only when the sweep (conductor.h) says, so that the kernels' units of a
 * point alternate in rounds as a baseline's arms do in one run (rounds.h).
 * The sub-run's row of the point then carries the decision the sweep
 * made across them.
 */
#ifndef SWEEP_GATE_H
#define SWEEP_GATE_H

#include <stdbool.h>

#include "gateline.h"
#include "progress.h"
#include "result.h"

struct gate {
	int rfd, wfd;		/* the sweep's words in, ours out */
	bool free;		/* the sweep let go, or was lost: points run on their own */
	struct gate_reader reader;
};

/*
 * The gate at path: a character device (a guest's second serial port,
 * /dev/ttyS1, set raw) read and written both ways; else a FIFO pair of a
 * child on the host, path.in read and path.out written (the names qemu's
 * pipe chardev uses).  0 or -errno.
 */
int gate_open(struct gate *g, const char *path);

void gate_close(struct gate *g);

/* "point ID RUNNABLE"; a gate that cannot be written is let go (g->free). */
void gate_say_point(struct gate *g, int id, bool runnable);

/* "bye": no point is left. */
void gate_say_bye(struct gate *g);

/* What gate_units() returns when the point is to run on its own. */
#define GATE_SOLO_POINT	1

/*
 * Point r->pt's units as the sweep says, each one repetition with the
 * round as its rep and its place in the round as slot, until its end,
 * whose stop and decision go into r.  0 at the end, GATE_SOLO_POINT when
 * it is to run on its own (no unit ran), or the -errno of the unit that
 * failed (the sweep is told), -EINTR when asked to stop, -EPROTO when the
 * sweep's words made no sense (the gate is let go).
 */
int gate_units(const struct sweep_cfg *cfg, struct gate *g, struct progress *prog,
	       bool (*stop_requested)(void), struct point_result *r);

#endif
