/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fleet (fleet.c; docs/fleet.md): the spec on every host of a host
 * file, over ssh or Slurm, a sub-run of the orchestrator each, merged and
 * drawn in OUT; --resume OUT continues what did not come back.  cli/'s
 * cmd_fleet.c builds the request (fleet_request.h) from its options and
 * checks them.
 */
#ifndef SWEEP_FLEET_H
#define SWEEP_FLEET_H

#include <stdbool.h>

#include "fleet_request.h"

/*
 * The options against the engine (Slurm's need slurm, --ssh-config ssh;
 * the ssh engine needs --hosts FILE but on --resume): -EINVAL reported.
 * cli/ checks a new fleet's before fleet_run(); on --resume the driver
 * checks them against OUT's engine.
 */
int fleet_engine_check(const struct fleet_request *rq, bool slurm);	/* fleet_engine.c */

/*
 * The fleet as rq asks over spec and cfg, which it frees; an exit status.
 * The caller has checked rq (--shard-mixed, a new fleet's engine, --only)
 * and caught the stop signals (stop_catch()): from then on a stop ends
 * the hosts' runs and keeps what came back.
 */
int fleet_run(const struct fleet_request *rq, struct spec *spec, struct sweep_cfg *cfg);

#endif
