/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload descriptor: what the engine knows of a benchmark family.
 * Workloads (workloads/X.c) and the engine's adapters (adapters/) are the
 * only code that includes libbpf; the engine sees only this interface.
 *
 * Before the sweep (sweep/run/plan.c): validate every point, probe every point.
 * Life of one repetition of one point, driven by sweep/run/repetition.c:
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
#define WL_MAX_METRICS	20

struct workload;

/*
 * What a metric is (DESIGN.md §10).  A counter is cumulative since setup
 * and becomes a per-second rate over each interval's real elapsed time; a
 * gauge is a level read at each interval's end (bytes of memory) and is
 * summarized as it is.
 */
enum metric_kind {
	MK_COUNTER,
	MK_GAUGE,
};

/*
 * Who fills a metric's value at each sample.  The workload, in sample();
 * or the engine: the memory cgroup the runner puts the point in for each
 * repetition (sweep/run/memcg.c), whose usage and peak usage are gauges in
 * bytes.  A workload with an engine-filled metric leaves its slot alone.
 */
enum metric_source {
	MS_WORKLOAD,
	MS_MEMCG_USAGE,		/* memory.current, v1 memory.usage_in_bytes */
	MS_MEMCG_PEAK,		/* memory.peak, v1 memory.max_usage_in_bytes */
	MS_MEMCG_KMEM,		/* its kernel memory without the per-CPU stock (memcg.h) */
	/*
	 * The kernel's run-time statistics of the workload's programs
	 * (prog_stats below), counters: how many runs, and the nanoseconds
	 * spent in them.  Unknown (an empty cell) where the kernel keeps none.
	 * A workload declaring both gets ns_per_run (Δns / Δruns per interval).
	 */
	MS_PROG_RUNS,
	MS_PROG_NS,
	/*
	 * What loading the point's programs cost, a gauge (load_field below):
	 * the repetition's own load, read once after setup (load_stats below).
	 */
	MS_LOAD,
};

/*
 * The verifier's and the JIT's figures of a load (adapters/progload.c),
 * veristat's names where it has them (docs/results.md).  Per program;
 * a point's is the sum over its programs, but for the peaks (peak_states,
 * stack_depth): their largest.
 */
enum wl_load_field {
	LF_TOTAL_INSNS,		/* bpf_prog_info.verified_insns (5.16), else the log's processed */
	LF_TOTAL_STATES,	/* the BPF_LOG_STATS line's total_states */
	LF_PEAK_STATES,		/* its peak_states */
	LF_STACK_DEPTH,		/* "stack depth 8+16": bytes, subprograms' summed */
	LF_XLATED_SIZE,		/* bpf_prog_info.xlated_prog_len: bytes after the verifier */
	LF_JITED_SIZE,		/* bpf_prog_info.jited_prog_len: bytes of machine code; 0: no JIT */
	LF_VERIFY_US,		/* "verification time N usec" */
	LF_LOAD_US,		/* the object's load, wall time: BTF, maps and every program */
	NR_LOAD_FIELDS
};

#define WL_MAX_PROGS	4

/* One program's figures: METRIC_UNKNOWN where the kernel gave none. */
struct wl_prog_load {
	char name[32];
	char type[32];		/* libbpf's name of its type ("raw_tracepoint"): prog_type */
	uint32_t id;		/* the kernel's program id (bpftool prog show id N); 0 if refused */
	uint64_t v[NR_LOAD_FIELDS];
};

/* A point's load: its programs', their aggregate, and what is unknown and why. */
struct wl_load_stats {
	int nr_progs;
	struct wl_prog_load prog[WL_MAX_PROGS];
	uint64_t total[NR_LOAD_FIELDS];
	char note[128];		/* "" or what is not known: "total_insns: ..." */
	uint64_t start_ns;	/* the load's start (progload.c's own) */
	char *log[WL_MAX_PROGS];	/* the BPF_LOG_STATS buffers while loading */
};

/*
 * Where a workload's state keeps its struct wl_load_stats, which
 * wl_load_skeleton() (adapters/progload.h) fills at setup's load: the
 * engine reads it there (wl_load_stats_of()), so no family copies it.
 */
struct wl_load_at {
	bool set;		/* false: the workload loads no BPF programs */
	size_t offset;		/* of the struct wl_load_stats in the state setup returns */
};

#define WL_LOAD_STATS_IN(state_type, member) \
	{ .set = true, .offset = offsetof(state_type, member) }

/*
 * Which way a metric gets better (DESIGN.md §10): what compare's verdicts
 * follow.  Every metric of the registry says it (tests/unit/test_metricmeta.c
 * checks): MB_UNSET is for sets read back without it, never a descriptor's.
 */
enum metric_better {
	MB_UNSET,
	MB_HIGHER,	/* work done per second: hits, events, ops */
	MB_LOWER,	/* a cost: drops, errors, memory held, ns per program run */
	MB_NEITHER,	/* bookkeeping that grows with the work: prog_runs, prog_ns */
};

/* A gauge's value when it could not be read (no memory controller): an empty cell. */
#define METRIC_UNKNOWN	UINT64_MAX

struct metric_def {
	const char *name;	/* a CSV column stem: "events", "mem" */
	enum metric_kind kind;
	/*
	 * How tables, progress and charts show it unless the spec says
	 * otherwise: "M/s", "k/s", "/s" for counters, "MiB", "KiB", "B" for
	 * gauges in bytes (sweep/results/metric.c knows the scales).
	 */
	const char *unit;
	/*
	 * sample() also fills one count per producer (thread_counts): at most
	 * one metric of a workload, a counter.  The engine keeps each worker's
	 * count per interval and summarizes the spread across workers.
	 */
	bool per_thread;
	enum metric_source source;
	enum metric_better better;
	/*
	 * A memory cgroup gauge less another gauge of the workload, named
	 * here, read in the same sample: "kmem" less the map's "memlock" is
	 * what the cgroup holds besides the map.  Unknown when either is,
	 * 0 when the other is larger.
	 */
	const char *less;
	/* Of source MS_LOAD: which figure of the load. */
	enum wl_load_field load_field;
	/*
	 * Identical in every repetition by construction (the verifier's
	 * counts, program sizes): statistics give it no interval, compare
	 * and decide call any change of it different at once, and a point
	 * whose repetitions disagree is flagged (quality "varied": the
	 * set-up differed).  Times are never deterministic.
	 */
	bool deterministic;
};

/*
 * The load's metrics, the same in every family that loads BPF programs:
 * put WL_LOAD_METRICS at the end of its metric table, and in its
 * descriptor .load_stats = WL_LOAD_STATS_IN(its state, the member that
 * wl_load_skeleton() fills).
 */
#define WL_LOAD_METRIC(n, u, f, det) { .name = n, .kind = MK_GAUGE, .unit = u, \
	.source = MS_LOAD, .better = MB_LOWER, .load_field = f, .deterministic = det }
#define WL_LOAD_METRICS \
	WL_LOAD_METRIC("total_insns", "insns", LF_TOTAL_INSNS, true), \
	WL_LOAD_METRIC("total_states", "states", LF_TOTAL_STATES, true), \
	WL_LOAD_METRIC("peak_states", "states", LF_PEAK_STATES, true), \
	WL_LOAD_METRIC("stack_depth", "B", LF_STACK_DEPTH, true), \
	WL_LOAD_METRIC("xlated_size", "B", LF_XLATED_SIZE, true), \
	WL_LOAD_METRIC("jited_size", "B", LF_JITED_SIZE, true), \
	WL_LOAD_METRIC("verify_time", "us", LF_VERIFY_US, false), \
	WL_LOAD_METRIC("load_time", "us", LF_LOAD_US, false)

/* One point: a value for every parameter, indexed like wl->params. */
struct wl_point {
	const struct workload *wl;
	long long v[WL_MAX_PARAMS];
};

/* How many threads setup() wants the runner to start. */
struct wl_threads {
	int nr_producers;
	int nr_consumers;
	/*
	 * Every thread pinned to one CPU, the first the process may use,
	 * whatever the sweep's affinity (the kernel bench's --prod-affinity 0
	 * --cons-affinity 0): the point measures them competing for it.
	 */
	bool one_cpu;
};

/*
 * One interval a workload measured itself (run() below): the real time it
 * lasted and each metric's increase over it (a gauge's level at its end).
 */
struct wl_interval {
	bool warmup;
	uint64_t elapsed_ns;
	uint64_t value[WL_MAX_METRICS];
	/* each producer's increase of the per_thread metric (malloc'd), or NULL */
	uint64_t *thread_delta;
};

/* What run() measured: the engine takes the intervals and frees them. */
struct wl_run_out {
	struct wl_interval *iv;
	int nr_iv;
	int nr_threads;		/* entries of every thread_delta */
};

struct workload {
	const char *name;
	const char *help;
	const struct param_def *params;
	int nr_params;
	/* e.g. "hits", "drops"; metric 0 is the headline */
	const struct metric_def *metrics;
	int nr_metrics;
	/*
	 * Optional: how a table row shows the point's numbers unless the
	 * spec's [report] values says otherwise (docs/spec.md), e.g.
	 * "per-prod-op: {ops.per_worker:k/s}, peak mem: {mem_peak.max:MiB}".
	 * NULL: the headline, then the other metrics in parentheses.
	 */
	const char *values;
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
	 * Optional: what the point needs of this machine's files, whatever
	 * kernel runs it (a guest shares them): 0, or -errno and a reason
	 * ("program 'bench': No such file or directory ...").  check, expand,
	 * run and a sweep over kernels refuse the sweep on it, before anything
	 * runs or boots (plan_preflight()).
	 */
	int (*preflight)(const struct wl_point *pt, char *why, size_t whylen);
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
	/*
	 * Cumulative counters since setup, or a gauge's level now, one per
	 * metric (engine-sourced ones excepted).  thread_counts, NULL unless a
	 * metric is per_thread, has room for one cumulative count per producer
	 * of that metric, in producer order.
	 */
	int (*sample)(void *state, uint64_t *counts, uint64_t *thread_counts);
	/* Optional: wake threads blocked in the workload after *stop is set. */
	void (*stop)(void *state);
	void (*teardown)(void *state);
	/*
	 * Optional, with metrics of source MS_PROG_RUNS and MS_PROG_NS: the
	 * run_cnt and run_time_ns (bpf_prog_info) of the workload's programs,
	 * summed, cumulative since load (wl_prog_stats_sum() does it).
	 * -ENODATA when the statistics are off (wl_bpf_stats_on() failed).
	 */
	int (*prog_stats)(void *state, uint64_t *run_cnt, uint64_t *run_time_ns);
	/*
	 * Optional: which runs those counters count, where it is more than the
	 * workload's own ("every syscall on the machine (raw_tp/sys_enter) ...").
	 * Tables print it under ns per run: the mean is over all of them.
	 */
	const char *prog_runs_scope;
	/*
	 * With WL_LOAD_METRICS: where setup's state holds the figures of the
	 * repetition's load (WL_LOAD_STATS_IN above).
	 */
	struct wl_load_at load_stats;
	/*
	 * Optional, instead of produce/consume/sample: one repetition, after
	 * setup, measured by the workload itself, for a program that keeps its
	 * own clock and prints its own intervals (exec: workloads/exec/exec_run.c).  The
	 * runner starts no threads and does not sample; it takes *out as the
	 * repetition's intervals.  Returns -EINTR soon after stop_requested()
	 * turns true (Ctrl-C), having ended what it started.
	 */
	int (*run)(void *state, bool (*stop_requested)(void), struct wl_run_out *out,
		   char *why, size_t whylen);
	/* The family's own data, for a descriptor made at run time (exec), or NULL. */
	const void *data;
};

/* The registry, generated from workloads/workloads.def. */
extern const struct workload *const workloads[];
extern const int nr_workloads;

const struct workload *workload_find(const char *name);

/* " (did you mean 'null'?)", or " (expected null, count, ...)": returns buf. */
const char *workload_hint(const char *word, char *buf, size_t len);

/* "null, count, ... or trigger" into buf. */
void workload_names(char *buf, size_t len);

struct bind_catalog;

/* The registry and the section binders (workloads/binders.c), which bind_spec() binds against. */
extern const struct bind_catalog workloads_catalog;

/*
 * The figures of the load setup made for state (wl->load_stats), or NULL
 * when wl loads no BPF programs or this point loaded none.
 */
const struct wl_load_stats *wl_load_stats_of(const struct workload *wl, const void *state);

/* Value of parameter `name` of pt; the name must exist (asserts). */
long long wl_param(const struct wl_point *pt, const char *name);

/* libbpf's version string ("v1.1"): the engine itself never sees libbpf. */
const char *workloads_libbpf_version(void);

/* Does err (from probe or setup) mean the kernel cannot run the point? */
int wl_err_is_unsupported(int err);

/* "what: <errno text>" into why, the reason of a failed probe or setup; returns err. */
int wl_fail(char *why, size_t len, const char *what, int err);

/*
 * The kernel's BPF run-time statistics (adapters/progstats.c), which it
 * keeps only while asked to: on for each point's statistics pass
 * (sweep/run/statspass.c), off while rates are measured.
 * wl_bpf_stats_on() holds a BPF_ENABLE_STATS descriptor, or where that is
 * refused sets the sysctl kernel.bpf_stats_enabled to 1; how into how
 * ("BPF_ENABLE_STATS"), or why not ("unavailable (BPF_ENABLE_STATS:
 * Operation not permitted; ...)") with -errno.  wl_bpf_stats_off() closes
 * the descriptor or writes the sysctl's old value back: the pass calls
 * it, and the run's exit path, also after Ctrl-C or an error.
 * wl_bpf_stats_off_async() is the sysctl's part of it for a signal
 * handler about to end the process (a second Ctrl-C); a run SIGKILLed
 * leaves the sysctl at 1.
 * The state is the process's, as the kernel's switch is the system's.
 */
int wl_bpf_stats_on(char *how, size_t len);
void wl_bpf_stats_off(void);
void wl_bpf_stats_off_async(void);

/*
 * run_cnt and run_time_ns of the programs fds[0..n), summed; -ENODATA
 * while the statistics are off, else 0 or -errno.
 */
int wl_prog_stats_sum(const int *fds, int n, uint64_t *run_cnt, uint64_t *run_time_ns);

#endif
