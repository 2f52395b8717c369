/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a fleet was asked (fleet.h), beside its spec: cli/ fills it from
 * its options; the driver's files and fleet_record.c read it.
 */
#ifndef SWEEP_FLEET_REQUEST_H
#define SWEEP_FLEET_REQUEST_H

#include <stdbool.h>

#include "orchestrator.h"

/* the --set words a fleet passes on to the command that continues it */
#define FLEET_MAX_SETS		64

/* What runs the hosts: --engine. */
enum fleet_engine {
	FLEET_ENGINE_UNSAID,		/* ssh, or OUT's on --resume */
	FLEET_ENGINE_SSH,
	FLEET_ENGINE_SLURM,
};

/*
 * The command line's part: OUT's options, what every host's run gets
 * (orch.sub: its self and spec_path are the driver's to fill) and how OUT
 * is drawn, then the fleet's own.
 */
struct fleet_request {
	struct orch_request orch;	/* -o, --resume, the hosts' runs, how OUT is drawn */
	/* SPEC as given and its --set (at most FLEET_MAX_SETS): the command that continues */
	const char *spec_path;
	const char *const *sets;
	int nr_sets;
	const char *hosts;		/* --hosts FILE */
	const char *ssh_config;		/* --ssh-config FILE: ssh -F */
	bool shard_hosts;		/* --shard: host k of n runs --shard k/n */
	bool shard_mixed;		/* --shard-mixed: even on hosts that differ */
	enum fleet_engine engine;
	/* --engine slurm: what each machine asks for where --hosts FILE does not say */
	const char *partition, *constraint, *nodelist, *time_limit;
};

#endif
