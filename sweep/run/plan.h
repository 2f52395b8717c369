/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan: what is decided before a sweep starts, the same for check,
 * expand and run.  Points are expanded, every point is validated by its
 * workload (what it rejects is a located spec error, never a failure in
 * the middle of a sweep), and the kernel is asked about every point once,
 * so the user hears what will not run before anything runs.
 */
#ifndef SWEEP_PLAN_H
#define SWEEP_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "matrix.h"

/* The probe's answer for one point. */
struct plan_verdict {
	int err;		/* 0: runnable; else the probe's -errno */
	int reason;		/* index into plan.reasons, or -1 */
};

struct plan {
	struct point *pts;
	int nr_pts;
	/* After plan_probe(), indexed by point id: */
	struct plan_verdict *verdicts;
	char **reasons;		/* the distinct reasons, in order of first point */
	int nr_reasons;
	bool probed;
	char unprobed[256];	/* why not, when !probed */
	int nr_runnable;	/* all points until probed */
};

/*
 * Expand cfg and validate every point.  Returns 0, -EINVAL after reporting
 * one located error per distinct (location, reason), or -ENOMEM/-E2BIG.
 * The spec cfg was bound from must still be alive: its axes' locations
 * point into it.  pl is to be freed with plan_free() either way.
 */
int plan_build(const struct sweep_cfg *cfg, struct plan *pl);

/*
 * What the points of experiment only (NULL: all) need of this machine's
 * files (the workload's preflight): each reason said once, with how many
 * points it stops.  0, or -EINVAL when a point lacks what it needs.
 */
int plan_preflight(const struct sweep_cfg *cfg, const struct plan *pl, const char *only);

/*
 * Probe every point.  Without the privileges the workload needs it probes
 * nothing and says why in pl->unprobed (pl->probed stays false).
 */
int plan_probe(const struct sweep_cfg *cfg, struct plan *pl);

/* The probe's -errno for point id (0: runnable), its reason into why. */
int plan_verdict(const struct plan *pl, int id, char *why, size_t len);

/* How many of pts the probe found runnable. */
int plan_runnable(const struct plan *pl, const struct point *pts, int nr);

/*
 * "28 of 56 points unsupported: ...", one line per reason among pts (all
 * points, or those a run runs), or why probes were skipped.
 */
void plan_report(FILE *f, const struct plan *pl, const struct point *pts, int nr);

/*
 * Estimated times saturate at UINT64_MAX ("longer than can be said"),
 * never wrap.  One point at its fewest repetitions, its stats pass included:
 */
uint64_t plan_point_min_ns(const struct sweep_cfg *cfg);

/*
 * Estimated time of the points expected to run: with a precision
 * (precision.h), the most its budget allows (what a timeout must wait).
 */
uint64_t plan_estimate_ns(const struct sweep_cfg *cfg, const struct plan *pl);

/* The least: every point at its fewest repetitions (plan_estimate_ns() without a precision). */
uint64_t plan_estimate_min_ns(const struct sweep_cfg *cfg, const struct plan *pl);

void plan_free(struct plan *pl);

#endif
