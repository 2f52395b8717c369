/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result set that holds no spec (numbers imported from bench output)
 * described by itself, so that report and merge draw it through the same
 * table and charts as a run (DESIGN.md §10: a result set does not need
 * today's workload tables to make sense).  The description is the set's
 * own view (view.h, viewdesc.h: parameters, metrics, experiments with
 * their values and a default report), made into the bound spec the charts
 * and exports still draw: its schema as the workload, a point per
 * summary row, an experiment per title with axes of the values seen.
 */
#ifndef SWEEP_RESULTCFG_H
#define SWEEP_RESULTCFG_H

#include "bind.h"
#include "plan.h"
#include "result.h"
#include "results_read.h"
#include "spec.h"

struct result_cfg;

/*
 * cfg and plan (one point per summary row, point id = row - 1) of set (read
 * from dir), which must outlive them.  [report] keys of spec (--spec, --set; NULL for
 * none) replace the defaults.  Errors are reported; 0, -EINVAL or -errno.
 * Free with resultcfg_free() (plan with plan_free()), also on error.
 */
int resultcfg_build(const char *dir, const struct result_set *set, const struct spec *spec,
		    struct result_cfg **rc, struct sweep_cfg **cfg, struct plan *plan);

/* The rates of ok summary row p from its cells (no intervals to summarize). */
void resultcfg_rates(const struct result_set *set, const struct result_point *p,
		     const struct workload *wl, struct point_result *r);

/*
 * Can rows of a set described by `from` be drawn on the charts of `to`?
 * Both the same registry workload, or both made from result sets with the
 * same parameters and metrics.  *v (from's values) are made to's: enum
 * values by name; false when to has no such value.
 */
bool resultcfg_retie_values(const struct workload *from, const struct workload *to,
			    long long *v);

void resultcfg_free(struct result_cfg *rc);

#endif
