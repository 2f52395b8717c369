/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One host of a fleet (docs/fleet.md): probe it over ssh, ship this build
 * when its bpfsweep is absent or another, run the whole spec there into a
 * remote temporary directory, and copy the result back.  ssh and scp are
 * started from an argv (subproc.c); the command the remote shell reads is
 * either a constant of this file or words quoted by shquote.c.
 */
#ifndef SWEEP_FLEET_H
#define SWEEP_FLEET_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "cli.h"
#include "fleet_facts.h"
#include "hosts.h"
#include "shard.h"

/* What every host's job shares: the local side. */
struct fleet_ctx {
	const struct cli_opts *o;
	const char *ssh_config;		/* --ssh-config FILE, or NULL */
	const char *self;		/* this binary, shipped when needed */
	const char *spec_path;
	const char *spec_name;		/* its base name, as the remote copy is named */
	const char *version;		/* "bpfsweep VERSION (COMMIT)", as --version prints it */
	const char *arch;		/* uname -m here */
	const char *logs;		/* OUT/logs */
	const char *hosts_dir;		/* OUT/hosts: OUT/hosts/<label> is a host's result */
	const char *ctl_dir;		/* a private directory for ssh's control sockets */
	unsigned int run_timeout_ms;	/* the remote run, at most */
};

struct fleet_job {
	const struct fleet_ctx *ctx;
	const struct host *h;
	/* OUT/logs/<label>.log: every ssh and scp's output */
	char log[PATH_MAX + HOST_LABEL_LEN + 16];
	/* OUT/hosts/<label>: its result */
	char result[PATH_MAX + HOST_LABEL_LEN + 16];
	/* ssh's ControlPath: one connection per host, its steps multiplexed over it */
	char ctl[PATH_MAX];
	char remote_dir[PATH_MAX];	/* mktemp -d on the host */
	char remote_arch[64];
	char remote_version[256];	/* its installed bpfsweep's --version, or "" */
	struct host_facts facts;	/* the probe's CPU model, CPU count, kernel release */
	struct shard shard;		/* fleet --shard: the share it runs; else count 0 */
	struct timespec t0;		/* when its job began */
	bool probed;			/* the probe answered: the job may go on */
	const char *bin;		/* the bpfsweep the host runs */
	int run_status;			/* the remote run's exit status, -1 if it did not run */
	bool ok;			/* a result came back */
	char why[768];			/* why not */
	char note[640];			/* what to know: it ran another version */
};

/*
 * A host's job in two steps, each a thread's body that reports progress on
 * stderr: the probe (its remote directory made, its facts read; j->probed
 * when it answered), then, once every host has answered, the run and the
 * fetch.  A job that fails at either ends its ssh connection itself.
 */
void *fleet_host_probe(void *job);
void *fleet_host_run(void *job);

/* A probed host that is not to run: its remote directory and connection go. */
void fleet_host_release(struct fleet_job *j);

#endif
