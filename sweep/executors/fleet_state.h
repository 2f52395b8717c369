/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fleet's files share (fleet.h is its request): its state,
 * --resume of OUT (fleet_resume.c), the engines (fleet_engine.c), and the
 * merge of what its hosts (fleet_host.h: one ssh executor each, or
 * fleet_slurm.h's) brought back (fleet_merge.c).
 */
#ifndef SWEEP_FLEET_STATE_H
#define SWEEP_FLEET_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/utsname.h>
#include <time.h>

#include "executor.h"
#include "fleet_facts.h"
#include "fleet_host.h"
#include "fleet_record.h"
#include "fleet_request.h"
#include "fleet_slurm.h"
#include "fleet_step.h"
#include "hosts.h"
#include "orchestrator.h"
#include "outdir.h"
#include "plan.h"
#include "shard.h"
#include "subrun.h"

/*
 * fleet --resume OUT (fleet_resume.c): what an earlier attempt left in OUT,
 * checked against this command line before anything runs.
 */
struct fleet_resume {
	char *meta;			/* OUT/meta as the earlier attempt left it */
	char *parsed;			/* a copy of it that rec points into */
	struct fleet_record rec;
};

/*
 * OUT's meta and spec against the spec and options given now, and the
 * hosts (--hosts FILE, else OUT/hostfile) into hs (and ms, when OUT's
 * engine is Slurm: fr->rec.slurm); every refusal is reported.  0, -EINVAL
 * or -errno.
 */
int fleet_resume_open(struct fleet_resume *fr, const char *dir, const struct spec *spec,
		      const struct fleet_request *rq, struct slurm_machines *ms, struct hosts *hs);

/*
 * Where the host of label stands: its whole result came back before
 * (*done: OUT/hosts/<label>, no remote directory kept, and no
 * "host_failed:" line: a failed host's directory holds the failed rows
 * fleet wrote for it), or old_dir gets the remote directory an earlier
 * attempt kept ("" when none).
 */
void fleet_resume_host(const struct fleet_resume *fr, const char *dir, const char *label,
		       char *old_dir, size_t len, bool *done);

/*
 * OUT/meta rewritten for the attempt that begins: the earlier attempt's
 * outcome lines dropped (fleet_meta_keeps()), "resumed: TIME" appended.
 */
int fleet_resume_meta(const struct fleet_resume *fr, const char *dir, const bool *again);

void fleet_resume_free(struct fleet_resume *fr);

/* A fleet's state: the spec, the hosts and their jobs, OUT. */
struct fleet {
	const struct fleet_request *rq;
	struct spec *spec;
	struct sweep_cfg *cfg;
	struct hosts hosts;
	bool slurm;			/* --engine slurm (or OUT's, on --resume) */
	struct slurm_machines machines;	/* --engine slurm: host i asks for machines.m[i] */
	struct fleet_ctx ctx;
	struct fleet_job jobs[HOSTS_MAX];
	struct outdir out;		/* OUT, held and locked: no two fleets write it (outdir.h) */
	const char *dir;		/* out.path */
	struct fleet_resume resume;	/* --resume: what OUT held */
	char logs[PATH_MAX + 8], hosts_dir[PATH_MAX + 8], remote_dir[PATH_MAX + 8];
	char self[PATH_MAX], version[128];
	/* the hosts' sub-runs, a slot each in host order; OUT/subrun: the resolved spec */
	struct orchestrator orch;
	struct plan plan;		/* the points, for each share's count */
	bool planned;			/* plan was built */
	/* short: a socket's path has at most 108 bytes, and ssh adds 17 while it makes one */
	char ctl_dir[64];
	struct utsname uts;
	/* the hosts' results that exist, as OUT/runs/<n> (fleet_merge.c) */
	char runs[HOSTS_MAX][PATH_MAX + 32];
	const char *run_dirs[HOSTS_MAX];
	int nr_runs;
};

/*
 * fleet_engine.c: the host file at path as the engine reads it: logins
 * (hosts.h), or Slurm machines (slurm_machines.h; path NULL: the
 * request's one machine) into ms, each a host of hs.  0, or -EINVAL /
 * -errno (reported).
 */
int fleet_hosts_load(const char *path, const struct fleet_request *rq, bool slurm,
		     struct slurm_machines *ms, struct hosts *hs);

/* OUT/hostfile of --engine slurm: the machines as parsed, the options applied. */
int fleet_slurm_hostfile(const struct fleet *fl, bool replace);

/* Host i's job as its engine's executor. */
void fleet_engine_init_job(struct fleet *fl, int i);

/* OUT/meta: each host's note, failure or interruption, and each share that is missing. */
int fleet_record_hosts(const struct fleet *fl);

/*
 * The hosts' results (those that came back, and the failed rows of those
 * that did not), linked as OUT/runs/<n>, merged in OUT and drawn by
 * report; EXIT_POINTS_FAILED when there is none or the merge failed,
 * else report's status.
 */
int fleet_merge_and_draw(struct fleet *fl);

/* The shares that have no rows (not even failed ones), under OUT/table.txt and on stderr. */
void fleet_report_missing(const struct fleet *fl);

#endif
