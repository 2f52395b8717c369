/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One host of a fleet as an executor (executor.h) over ssh: probe it, ship
 * this build when its bpfsweep is absent or another, run the spec there
 * into a remote temporary directory, and copy the result back.  ssh and
 * scp are started from an argv (subproc.c); the command the remote shell
 * reads is either a constant of fleet_host.c or words quoted by shquote.c.
 * The fleet command (fleet.h) makes the jobs and the orchestrator drives
 * them, a slot each (orch_run_all()).
 */
#ifndef SWEEP_FLEET_HOST_H
#define SWEEP_FLEET_HOST_H

#include <stdbool.h>

#include "fleet_job.h"

/*
 * j (its ctx and h set) as the ssh executor's, for the orchestrator's two
 * phases: prepare connects and probes (its remote directory made, or an
 * earlier one taken again; its facts read); then, once every host has
 * answered, run ships and runs, fetch copies the result back into its
 * slot's local directory, and cleanup removes a whole result's remote
 * directory (or a refused host's) and ends the connection.  Each reports
 * progress on stderr.  A stop request (stop.h) ends the run at a point
 * boundary: the remote bpfsweep gets SIGINT, and what it finished comes
 * back when that is quick; the remote directory stays.
 */
void fleet_host_init(struct fleet_job *j);

#endif
