// SPDX-License-Identifier: GPL-2.0
/*
 * Which engine runs a fleet's hosts (docs/fleet.md): ssh over --hosts FILE
 * of logins (fleet_host.h), or Slurm over --hosts FILE of machines or the
 * command line's --partition, --constraint, --nodelist and --time-limit
 * (fleet_slurm.h).  What differs between the two before the orchestrator
 * drives them the same way: the options each takes, how the host file is
 * read and kept for --resume, and each job's executor.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "fleet.h"
#include "fleet_state.h"
#include "resultdir.h"

/* The command line's Slurm options, as the machine file's defaults (slurm_machines.h). */
static void slurm_defaults(const struct fleet_request *rq, const char **d)
{
	memset(d, 0, NR_SLURM_KEYS * sizeof(*d));
	d[SK_PARTITION] = rq->partition;
	d[SK_CONSTRAINT] = rq->constraint;
	d[SK_NODELIST] = rq->nodelist;
	d[SK_TIME] = rq->time_limit;
}

int fleet_engine_check(const struct fleet_request *rq, bool slurm)
{
	const char *slurm_only = rq->partition ? "--partition" : rq->constraint ? "--constraint" :
				 rq->nodelist ? "--nodelist" : rq->time_limit ? "--time-limit" : NULL;

	if (!slurm && slurm_only) {
		diag_err("fleet: %s goes with --engine slurm", slurm_only);
		return -EINVAL;
	}
	if (slurm && rq->ssh_config) {
		diag_err("fleet: --ssh-config goes with the ssh engine, not --engine slurm");
		return -EINVAL;
	}
	if (!slurm && !rq->hosts && !rq->orch.resume) {
		diag_err("fleet needs --hosts FILE (one ssh login per line: docs/fleet.md)");
		return -EINVAL;
	}
	return 0;
}

int fleet_hosts_load(const char *path, const struct fleet_request *rq, bool slurm,
		     struct slurm_machines *ms, struct hosts *hs)
{
	const char *defaults[NR_SLURM_KEYS];

	if (!slurm)
		return hosts_load(path, hs);
	slurm_defaults(rq, defaults);
	return slurm_machines_load(path, defaults, ms, hs);
}

int fleet_slurm_hostfile(const struct fleet *fl, bool replace)
{
	char text[HOSTS_MAX * (NR_SLURM_KEYS * (SLURM_VALUE_LEN + 16) + HOST_LABEL_LEN + 8)];
	int err = slurm_machines_text(&fl->machines, &fl->hosts, text, sizeof(text));

	return err ?: resultdir_put_file(fl->dir, "hostfile", text, strlen(text), replace);
}

void fleet_engine_init_job(struct fleet *fl, int i)
{
	if (fl->slurm)
		fleet_slurm_init(&fl->jobs[i], &fl->machines.m[i]);
	else
		fleet_host_init(&fl->jobs[i]);
}
