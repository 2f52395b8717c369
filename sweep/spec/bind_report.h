/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The [report] section: how each experiment's table and charts show its
 * points (label, values, worker_rows, baseline, group, plot, logx), given
 * once in [report] and overridden key by key in a [params] section.
 * Checked against the workload's parameters and metrics; errors through
 * diag.c at their file:line:col.
 */
#ifndef SWEEP_BIND_REPORT_H
#define SWEEP_BIND_REPORT_H

#include <stdbool.h>

#include "diag.h"
#include "model.h"
#include "spec.h"
#include "workload.h"

/* What [report] says, and what one [params] section makes of it. */
struct report_opts {
	const char *label;	/* into the spec; NULL when absent */
	const char *values;	/* likewise */
	struct loc values_loc;
	bool worker_rows;
	struct baseline_ref baseline;
	bool baseline_bad;	/* reported: say nothing more of it */
	int group;
	struct plot_req plots[MAX_PLOTS];
	int nr_plots;
	enum plot_logx logx;
};

/*
 * A report key (label, values, worker_rows, baseline, group, plot or
 * logx) of [report] or of a [params] override into rep; false for any
 * other key.
 */
bool bind_report_entry(const struct workload *wl, const struct spec_entry *e,
		       struct report_opts *rep);

/* Every entry of the [report] section sec (NULL: none) into rep; other keys are errors. */
void bind_report_entries(const struct workload *wl, const struct spec_section *sec,
			 struct report_opts *rep);

/*
 * The baseline of rep against x's axes: its value must be one x runs, and
 * only its parameter may differ between a point and its baseline.  A
 * values field relative to a baseline needs one.
 */
void report_check_baseline(const struct workload *wl, const struct experiment *x,
			   const struct report_opts *rep);

/* rep into x (its label and values copied); 0 or -ENOMEM. */
int report_apply(struct experiment *x, const struct report_opts *rep);

#endif
