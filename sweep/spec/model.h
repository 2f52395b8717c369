/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of a sweep: what a spec says once it is bound (config,
 * experiments, axes, the kernel axis) and the points it expands to.  Types
 * and the defaults they start from, no functions: the binder (bind.c) fills
 * them, matrix.c expands them, and the run, results and renderers read
 * them without needing the binder.
 */
#ifndef SWEEP_MODEL_H
#define SWEEP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "workload.h"

#define MAX_PLOTS 8

/*
 * Caps on expansion, checked while binding, before any point is made: more
 * is a typo in a range (0..100000000), not a sweep anyone can run.
 */
#define BIND_MAX_AXIS_VALS	100000		/* values of one parameter */
#define BIND_MAX_POINTS		1000000		/* points of the whole sweep */

/*
 * The shortest interval the sampler takes (timing.h): a sample of the
 * workload's counters costs microseconds, the wake-up's jitter tens of them.
 */
#define TIMING_MIN_INTERVAL_NS	10000000ULL

/* [sweep] max_cv's default: percent, as pyperf warns (quality.h) */
#define QUALITY_DEFAULT_MAX_CV	10

/* [sweep] profile_hz: the sampler's default frequency, and the most it takes */
#define PROFILE_DEFAULT_HZ	99
#define PROFILE_MAX_HZ		10000

/* [sweep] max_repeat's default: precision's cap on the repetitions of a point (precision.h) */
#define PRECISION_MAX_REPEAT	20

/*
 * One parameter's values, in the order the spec lists them.  A linked axis
 * ("batch_cnt = {sample_rate}") has no values of its own: in every point it
 * takes the value of parameter `link` (vals holds one placeholder).
 */
struct axis {
	int param;		/* index into wl->params */
	long long *vals;
	int nr_vals;
	bool linked;
	int link;		/* param index, when linked */
	struct loc loc;		/* of the value text, for errors found after binding */
};

/* "plot = producers vs hits by overwrite" */
struct plot_req {
	int x;			/* param index */
	int y;			/* metric index */
	bool per_run;		/* y is ns_per_run: prog_ns per prog_runs (progrun.h) */
	int by;			/* param index, or -1 */
};

/*
 * "baseline = bench=base": each point's figures relative to the point with
 * the same other values and param = val (sweep/results/baseline.h).
 */
struct baseline_ref {
	bool on;		/* zero-initialized: no baseline */
	int param;		/* index into wl->params */
	long long val;
	struct loc loc;		/* of the value text */
};

/* "logx = auto|on|off": a log x axis for doubling sweeps, always, or never. */
enum plot_logx { LOGX_AUTO, LOGX_ON, LOGX_OFF };

/* One [params] section: a block of points with its own table and charts. */
struct experiment {
	char *title;
	struct loc loc;
	char *label;		/* "rb-libbpf nr_prod {producers}", or NULL */
	/* a row's numbers, "per-prod-op: {ops.per_worker:k/s}", or NULL (metricdef.h) */
	char *values;
	bool worker_rows;	/* a line per producer under each ok row */
	struct baseline_ref baseline;
	int group;		/* param index, or -1 */
	struct plot_req plots[MAX_PLOTS];
	int nr_plots;
	enum plot_logx logx;
	/*
	 * Nesting order, outermost first: the keys in the order the section
	 * lists them, then every other parameter at its default.  Every
	 * parameter of the workload appears exactly once.
	 */
	struct axis axes[WL_MAX_PARAMS];
	int nr_axes;
};

#define MAX_KERNELS		16
#define KERNEL_HOST		"host"

/*
 * TCG_ICOUNT: TCG with qemu's instruction-count clock (-icount shift=0,
 * sleep=off): guest time is the guest's instructions, 1 ns each, so its
 * rates are path length, the same on a busy host as on an idle one.
 */
enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG, VM_ACCEL_TCG_ICOUNT };

/*
 * The kernels of a sweep, in order: the one form a kernel has from the
 * command line (--kernel) or the spec's kernel key to OUT/meta.  Its text
 * form, "host build/patched/bzImage", has one parser and one printer
 * (kernellist.h).
 */
struct kernel_list {
	char *vals[MAX_KERNELS];	/* "host", or an image or build tree as written */
	struct loc locs[MAX_KERNELS];	/* where each was given */
	int nr;
};

/*
 * The kernel axis: which kernels a sweep runs on ([sweep] kernel = host
 * IMAGE..., or --kernel), and how a VM boots those that are not the host's
 * (kernels.h binds it).
 */
struct kernel_axis {
	struct kernel_list list;	/* nr 0: the key is absent, the host only */
	enum vm_accel accel;
	int cpus;			/* guest CPUs */
	struct loc cpus_loc;		/* where vm_cpus was given; file NULL: the default */
	long long mem;			/* guest memory, bytes */
	uint64_t boot_timeout_ns;	/* qemu start to the guest's first word */
	int ssh_port;			/* 127.0.0.1:ssh_port is the guest's port 22; 0: no NIC */
};

struct bind_catalog;

struct sweep_cfg {
	/* what it was bound against (bindsec.h): its section binders free what they gave */
	const struct bind_catalog *catalog;
	char *spec_path;
	char *name;		/* spec file name without directory and .spec */
	char *title;
	const struct workload *wl;
	struct workload *own_wl;	/* wl when the spec declares it (exec), else NULL */
	uint64_t warmup_ns;
	uint64_t duration_ns;
	uint64_t interval_ns;
	int repeat;
	bool affinity;
	int max_cv;		/* percent; 0: no cv flag */
	int retry_noisy;	/* extra tries of a point with quality flags */
	double precision_pct;	/* target 95 % half-width, percent of the mean; 0: off */
	int max_repeat;		/* precision's budget: repetitions of a point */
	uint64_t max_time_ns;	/* and its time; 0: no limit */
	/*
	 * Interleaved rounds of a baseline's arms until each arm's ratio to
	 * the baseline is decided (decide.h): "same" within ±decide_pct; 0: off.
	 * max_repeat and max_time are its budget too, per group of arms.
	 */
	double decide_pct;
	struct loc decide_loc;	/* of its value, for the checks against the experiments */
	bool bpf_stats;		/* the kernel's BPF run-time statistics on during the run */
	bool profile;		/* a kernel profile of each repetition's measured part */
	int profile_hz;		/* its sampling frequency */
	struct kernel_axis kernels;	/* where the points run: the host, VMs */
	/* a sub-run in a TCG icount guest (run --guest-accel tcg-icount): units in instruction time */
	bool icount_guest;
	struct experiment *exps;
	int nr_exps;
};

/*
 * One point of the sweep (matrix.h expands them).  Order: experiments in
 * spec order; inside one, the cartesian product with the first axis
 * outermost and the last varying fastest.
 */
struct point {
	int id;			/* 0-based, stable for a given spec */
	int exp;		/* index into cfg->exps */
	struct wl_point wp;
};

#endif
