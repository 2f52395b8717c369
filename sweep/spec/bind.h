/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binding: syntax tree × the workload's parameter table → a typed sweep
 * configuration.  Every error is reported at its file:line:col.
 */
#ifndef SWEEP_BIND_H
#define SWEEP_BIND_H

#include "bind_report.h"
#include "bindval.h"
#include "matrix.h"
#include "model.h"
#include "spec.h"

struct bind_catalog;

/*
 * s bound against cat's workloads and section binders (bindsec.h; the
 * program's: workloads_catalog).  Returns 0, or -EINVAL after reporting
 * every error found.
 */
int bind_spec(const struct spec *s, const struct bind_catalog *cat, struct sweep_cfg **out);

/*
 * decide compares each point with a baseline: an experiment's (its
 * [report] baseline), the first of two or more kernels, or, gated, the
 * sub-run of another kernel (gate.h).  0, or -EINVAL after saying so.
 */
int bind_check_decide(const struct sweep_cfg *cfg, bool gated);

void sweep_cfg_free(struct sweep_cfg *cfg);

#endif
