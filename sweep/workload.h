/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload descriptor: what the engine knows of a benchmark family.
 * Workloads (workloads/X.c) are the only code that includes libbpf; the
 * engine sees only this interface.
 *
 * Before the sweep (sweep/plan.c): validate every point, probe every point.
 * Life of one repetition of one point, driven by sweep/runner.c:
 *   setup → [runner starts consumers, then producers, pinned]
 *   → sample() at every interval boundary → [runner sets *stop]
 *   → stop() → [runner joins threads] → teardown
 *
 * All callbacks return 0 or -errno.  State lives on the heap (one process
 * runs many points), and counts are raw cumulative counters: the engine
 * alone turns counts and nanoseconds into rates.
 */
#ifndef SWEEP_WORKLOAD_H
#define SWEEP_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "param.h"

#define WL_MAX_PARAMS	24
#define WL_MAX_METRICS	4

struct workload;

/* One point: a value for every parameter, indexed like wl->params. */
struct wl_point {
	const struct workload *wl;
	long long v[WL_MAX_PARAMS];
};

/* How many threads setup() wants the runner to start. */
struct wl_threads {
	int nr_producers;
	int nr_consumers;
};

struct workload {
	const char *name;
	const char *help;
	const struct param_def *params;
	int nr_params;
	/* counter names, e.g. "hits", "drops"; metric 0 is the headline */
	const char *const *metrics;
	int nr_metrics;
	/*
	 * Probe and setup need CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): the
	 * engine refuses to start the sweep without them, since every point
	 * would otherwise report the missing privilege as the kernel's limit.
	 */
	bool needs_bpf;

	/*
	 * Optional: is the point one any kernel could run?  0 if so; otherwise
	 * -EINVAL, *param the index of the parameter whose value is at fault
	 * and a reason without the values ("back2back needs producers = 1"):
	 * the engine reports it at that value in the spec and names the point.
	 * Pure (no syscalls, no privileges): check and expand call it too.
	 */
	int (*validate)(const struct wl_point *pt, int *param, char *why, size_t whylen);
	/*
	 * Can this kernel run the point?  0 if so; otherwise -errno and a
	 * reason such as "BPF_F_RB_OVERWRITE: not supported by kernel 6.18".
	 * -EOPNOTSUPP, -EPERM and -ENOSYS mean "unsupported", anything else "failed".
	 * Called once per valid point, before the sweep starts.
	 */
	int (*probe)(const struct wl_point *pt, char *why, size_t whylen);
	/*
	 * Load, attach, allocate; fill *thr.  why as for probe.  Setup stands
	 * alone (tests call it directly): it refuses what validate refuses.
	 */
	int (*setup)(const struct wl_point *pt, void **state, struct wl_threads *thr,
		     char *why, size_t whylen);
	/* Thread bodies: loop until atomic_load(stop), then return 0 or -errno. */
	int (*produce)(void *state, int idx, const atomic_bool *stop);
	int (*consume)(void *state, int idx, const atomic_bool *stop);	/* optional */
	/* Cumulative counters since setup, one per metric. */
	int (*sample)(void *state, uint64_t *counts);
	/* Optional: wake threads blocked in the workload after *stop is set. */
	void (*stop)(void *state);
	void (*teardown)(void *state);
};

/* The registry, generated from workloads/workloads.def. */
extern const struct workload *const workloads[];
extern const int nr_workloads;

const struct workload *workload_find(const char *name);

/* Value of parameter `name` of pt; the name must exist (asserts). */
long long wl_param(const struct wl_point *pt, const char *name);

/* libbpf's version string ("v1.1"): the engine itself never sees libbpf. */
const char *workloads_libbpf_version(void);

/* Does err (from probe or setup) mean the kernel cannot run the point? */
int wl_err_is_unsupported(int err);

#endif
