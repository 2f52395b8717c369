/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gate's lines: how a sweep over kernels with decide (conductor.h)
 * runs each point's units in rounds across its sub-runs, one kernel each,
 * that run side by side (gate.h is a sub-run's end).  One line per
 * message, ASCII words separated by one space, '\n' at the end:
 *
 *   sub-run to sweep
 *     point ID RUNNABLE        point ID comes next; RUNNABLE 0: the probe
 *                              ruled it out, its row is written, nothing waits
 *     unit ID ROUND VALUE FLAGS  a unit ran: its headline metric's mean and
 *                              the point's quality flags so far
 *     fail ID ROUND            the unit failed: the point ends, its row says why
 *     bye                      no point is left
 *   sweep to sub-run
 *     run ROUND SLOT           one unit, the SLOT-th of round ROUND (from 0)
 *     end STOP BASE DECIDED WORD N EST LO HI LEVEL FAR FINAL VETO TOL EXACT
 *                              the point's rounds are over: why (STOP), whether
 *                              it is the baseline of the others, and its
 *                              decision against the baseline (decide.h; TOL
 *                              and EXACT its exact_pct and exact)
 *     solo                     no partner for this point: run it on your own
 *     free                     run this point and the rest on your own
 *
 * The words travel over a second serial port of a guest or a pair of
 * FIFOs of a child (gate.h): text, so that a console log of them reads.
 */
#ifndef SWEEP_GATELINE_H
#define SWEEP_GATELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "decide.h"

#define GATE_LINE_MAX	512
#define GATE_STOP_MAX	32

enum gate_kind {
	GATE_POINT, GATE_UNIT, GATE_FAIL, GATE_BYE,		/* from a sub-run */
	GATE_RUN, GATE_END, GATE_SOLO, GATE_FREE,		/* from the sweep */
};

struct gate_line {
	enum gate_kind kind;
	int id;				/* point, unit, fail */
	bool runnable;			/* point */
	int round, slot;		/* unit, fail: round; run: both */
	double value;			/* unit: NaN when it measured none */
	unsigned int flags;		/* unit: quality flags (quality.h) */
	char stop[GATE_STOP_MAX];	/* end: decided, budget, failed, interrupted, lost */
	bool baseline;			/* end */
	bool decided;			/* end: d and veto are its decision */
	struct decide_result d;
	unsigned int veto;		/* end: QUALITY_VETO_FLAGS of it or its baseline */
};

/* l as one line, '\n' included, into buf: its length, or -E2BIG. */
int gate_line_format(const struct gate_line *l, char *buf, size_t len);

/* One line, without its '\n', into l: 0, or -EPROTO for any other text. */
int gate_line_parse(const char *s, struct gate_line *l);

/* The bytes read from one end that have not made a line yet. */
struct gate_reader {
	char buf[GATE_LINE_MAX];
	size_t len;
};

/*
 * The next line from fd into l, waiting at most timeout_ms (poll(2)):
 * 1 with l, 0 when none came in time (or a signal cut the wait short),
 * -EPROTO for a line too long or not a gate line, -EPIPE at end of file,
 * or -errno.
 */
int gate_read(int fd, struct gate_reader *r, int timeout_ms, struct gate_line *l);

/* l written to fd whole: 0 or -errno. */
int gate_write(int fd, const struct gate_line *l);

#endif
