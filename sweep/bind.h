/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binding: syntax tree × the workload's parameter table → a typed sweep
 * configuration.  Every error is reported at its file:line:col.
 */
#ifndef SWEEP_BIND_H
#define SWEEP_BIND_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "kernels.h"
#include "spec.h"
#include "workload.h"

#define MAX_PLOTS 8

/*
 * Caps on expansion, checked while binding, before any point is made: more
 * is a typo in a range (0..100000000), not a sweep anyone can run.
 */
#define BIND_MAX_AXIS_VALS	100000		/* values of one parameter */
#define BIND_MAX_POINTS		1000000		/* points of the whole sweep */

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
 * the same other values and param = val (sweep/baseline.h).
 */
struct baseline_ref {
	bool on;		/* zero-initialized: no baseline */
	int param;		/* index into wl->params */
	long long val;
	struct loc loc;		/* of the value text */
};

/* "logx = auto|on|off": a log x axis for doubling sweeps, always, or never. */
enum plot_logx { LOGX_AUTO, LOGX_ON, LOGX_OFF };
extern const char *const plot_logx_names[];	/* by enum plot_logx, NULL-terminated */

/* One [params] section: a block of points with its own table and charts. */
struct experiment {
	char *title;
	struct loc loc;
	char *label;		/* "rb-libbpf nr_prod {producers}", or NULL */
	/* a row's numbers, "per-prod-op: {ops.per_worker:k/s}", or NULL (metric.h) */
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

struct sweep_cfg {
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
	bool bpf_stats;		/* the kernel's BPF run-time statistics on during the run */
	struct kernel_axis kernels;	/* where the points run: the host, VMs */
	struct experiment *exps;
	int nr_exps;
};

/* e's title, or the sweep's for an experiment built without one; never NULL. */
const char *experiment_title(const struct sweep_cfg *cfg, const struct experiment *e);

/* The axis of parameter `param` in e (every parameter has one). */
const struct axis *experiment_axis(const struct experiment *e, int param);

/*
 * A [sweep] setting's value of type def into *v, or an error at the value
 * (*v is kept then).
 */
void bind_scalar(const struct param_def *def, const struct spec_entry *e, long long *v);

/* "1.5s", "250ms", "100us", "20ns" → *ns; 0, or -EINVAL with a message in err. */
int parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen);

/*
 * The [report] section of s (label, values, worker_rows, group, plot) bound against wl into x,
 * over x's own: for an experiment not bound from a spec (resultcfg.c).
 * Returns 0, -ENOMEM, or -EINVAL after reporting every error found.
 */
int bind_report_section(const struct spec *s, const struct workload *wl, struct experiment *x);

/* Returns 0, or -EINVAL after reporting every error found. */
int bind_spec(const struct spec *s, struct sweep_cfg **out);

void sweep_cfg_free(struct sweep_cfg *cfg);

#endif
