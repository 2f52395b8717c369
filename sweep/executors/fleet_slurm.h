/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One machine of `fleet --engine slurm` as an executor (executor.h), the
 * ssh engine's counterpart (fleet_host.h) over a batch scheduler: an
 * exclusive allocation of one node (salloc --no-shell, its options from
 * the machine's parsed description, slurm_machines.h), the node probed
 * there (srun: its facts from the node itself), this build and the run's
 * files shipped with sbcast, the run a job step whose stdout streams its
 * result directory back as a tar (no shared filesystem assumed), and the
 * allocation cancelled by its job id (scancel) when the job ends, or is
 * stopped.  salloc, srun, sbcast, scancel and tar start from an argv; what
 * runs on the node is a shell script of constants whose words are argv
 * words, never a line built from a spec or a file.
 */
#ifndef SWEEP_FLEET_SLURM_H
#define SWEEP_FLEET_SLURM_H

#include "fleet_host.h"
#include "slurm_machines.h"

/*
 * j (its ctx and h set) as the Slurm executor's, asking for machine m:
 * prepare allocates and probes, run ships and runs, fetch unpacks what
 * came back into OUT/hosts/<label>, cleanup removes the node's directory
 * and cancels the allocation (always, whatever happened before).  A stop
 * request (stop.h) while the allocation is pending revokes it; during the
 * run it sends SIGINT to the job's processes (scancel --signal=INT), so
 * that the run ends at a point boundary and what it finished comes back.
 */
void fleet_slurm_init(struct fleet_job *j, const struct slurm_machine *m);

#endif
