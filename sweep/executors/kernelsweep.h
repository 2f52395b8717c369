/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep over kernels (kernelsweep.c; docs/kernel.md): every point of the
 * spec on every kernel of its kernel axis, a sub-run of the orchestrator
 * each, into OUT/runs/<n>, merged and drawn in OUT.  run wires it when the
 * axis has several kernels or boots one in a VM.
 */
#ifndef SWEEP_KERNELSWEEP_H
#define SWEEP_KERNELSWEEP_H

#include "orchestrator.h"

/* the tags a resumed OUT/meta keeps for its sub-runs: as many as --tag takes */
#define KSWEEP_MAX_TAGS		64

/*
 * The sweep as rq asks (orchestrator.h; its sub.self and sub.spec_path
 * are filled here) over spec and cfg, which it frees; an exit status.
 */
int kernel_sweep(const struct orch_request *rq, struct spec *spec, struct sweep_cfg *cfg);

#endif
