/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One host's job in a fleet, whichever engine runs it (fleet_host.h over
 * ssh, fleet_slurm.h over Slurm): what every job shares (the local side),
 * and what one host's job knows of its host and how it went.  The fleet
 * command (fleet.h) makes the jobs; their executor is embedded first.
 */
#ifndef SWEEP_FLEET_JOB_H
#define SWEEP_FLEET_JOB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "executor.h"
#include "fleet_facts.h"
#include "hosts.h"
#include "shard.h"
#include "slurm_machines.h"
#include "subrun.h"

/* What every host's job shares: the local side. */
struct fleet_ctx {
	const char *ssh_config;		/* --ssh-config FILE, or NULL */
	const char *self;		/* this binary, shipped when needed */
	const char *spec_path;		/* the resolved spec (orch_write_spec()), shipped */
	const char *spec_name;		/* its base name, as the remote copy is named */
	const char *version;		/* "bpfsweep VERSION (COMMIT)", as --version prints it */
	const char *arch;		/* uname -m here */
	const char *logs;		/* OUT/logs */
	const char *hosts_dir;		/* OUT/hosts: OUT/hosts/<label> is a host's result */
	/* OUT/remote: OUT/remote/<label> holds a host's remote directory while it is kept */
	const char *remote_dir;
	const char *ctl_dir;		/* a private directory for ssh's control sockets */
	/* a sub-run's (orch_timeout_ns()): how long an allocation may pend, Slurm's time limit */
	uint64_t timeout_ns;
};

struct fleet_job {
	struct executor ex;		/* its engine's executor (executor.h): ssh or Slurm */
	const struct fleet_ctx *ctx;
	const struct host *h;
	/* OUT/logs/<label>.log: every step's output (ssh, scp; salloc, srun, sbcast, ...) */
	char log[PATH_MAX + HOST_LABEL_LEN + 16];
	/* OUT/hosts/<label>: its result */
	char result[PATH_MAX + HOST_LABEL_LEN + 16];
	/* ssh's ControlPath: one connection per host, its steps multiplexed over it */
	char ctl[PATH_MAX];
	char tag[HOST_LABEL_LEN + 16];	/* fleet_host=LABEL: its rows' tag */
	char remote_dir[PATH_MAX];	/* mktemp -d on the host, or the one resumed */
	/* --resume: the remote directory an earlier attempt kept (OUT/remote/<label>), or "" */
	char old_dir[PATH_MAX];
	bool done_before;		/* --resume: its whole result came back before */
	bool resumes;			/* the remote directory holds a result to continue */
	char remote_arch[64];
	char remote_version[256];	/* its installed bpfsweep's --version, or "" */
	char shipped_version[256];	/* the --version of a build shipped there before, or "" */
	struct host_facts facts;	/* the probe's CPU model, CPU count, kernel release */
	struct shard shard;		/* fleet --shard: the share it runs; else count 0 */
	struct timespec t0;		/* when its job began */
	const char *bin;		/* the bpfsweep the host runs */
	char shipped_bin[PATH_MAX + 16];	/* this build's copy there, when bin is it */
	int run_status;			/* the remote run's exit status, -1 if it did not run */
	bool to_fetch;			/* its run ended with a result to copy back */
	bool ok;			/* a result came back */
	bool interrupted;		/* Ctrl-C or SIGTERM (stop.h) cut its job short */
	bool stopping;			/* being stopped, or ending: no stop cuts its steps */
	/* --engine slurm (fleet_slurm.h): what it asks Slurm for, and its allocation's job id */
	const struct slurm_machine *machine;
	char slurm_job[24];
	char why[768];			/* why not */
	char note[640];			/* what to know: it ran another version */
};

#endif
