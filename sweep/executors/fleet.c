// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet's driver (fleet.h), as a fleet_request asks: every host of
 * the host file runs the whole spec (or its share, --shard), a sub-run of
 * the orchestrator each (orchestrator.h: all at once, every host probed
 * before any runs) through the ssh executor (fleet_host.c) or Slurm's
 * (fleet_slurm.c); its result comes back into OUT/hosts/<label>,
 * and the results are merged as `merge` merges runs (OUT/runs/<n> ->
 * ../hosts/<label>, a fleet_host tag and the host's own facts on every
 * row) and drawn as `report` draws several runs: a table block and a
 * chart series per host.  A host that fails is a "host_failed" line of
 * OUT/meta with its reason, and a failed row with it for each of its
 * points that has none; the others go on.  The exit status is the merged
 * rows' (a failed row: 1).  Ctrl-C, SIGTERM, SIGHUP and SIGPIPE stop every
 * host's run at a point boundary (fleet_host.c) and merge what came back;
 * --resume OUT continues what did not (fleet_resume.c).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "exitcode.h"
#include "fleet.h"
#include "fleet_state.h"
#include "heldir.h"
#include "hosts.h"
#include "meta.h"
#include "orchestrator.h"
#include "plan.h"
#include "plot.h"
#include "outdir.h"
#include "resultdir.h"
#include "scratch.h"
#include "shard.h"
#include "shquote.h"
#include "stop.h"
#include "subproc.h"
#include "textfile.h"
#include "version.h"

/* a resumed fleet's hosts get every tag OUT/meta keeps, and their executor's */
_Static_assert(FLEET_MAX_TAGS + 1 <= SUBRUN_MAX_TAGS, "SUBRUN_MAX_TAGS too small");

/*
 * The orchestrator of the hosts: a sub-run each that runs the spec as it
 * is there (its share, --shard), within the one timeout of a sub-run.
 */
static void start_orch(struct fleet *fl)
{
	const struct orch_request *rq = &fl->rq->orch;
	struct orchestrator *or = &fl->orch;
	bool planned = !plan_build(fl->cfg, &fl->plan);

	fl->planned = planned;
	or->places = true;
	or->noun = "host";
	or->nr_todo = planned ? orch_count_todo(fl->cfg, &fl->plan, rq->sub.only) : 0;
	or->timeout_ns = orch_timeout_ns(fl->cfg, planned ? &fl->plan : NULL, or->nr_todo);
	or->sub = rq->sub;
	or->sub.self = fl->self;
	or->sub.spec_path = or->spec_file;
	if (rq->resume) {
		or->sub.tags = fl->resume.rec.tags;
		or->sub.nr_tags = fl->resume.rec.nr_tags;
	}
}

/* OUT/hostfile: the host file --resume reads when given none (replaced by one given). */
static int keep_hostfile(const struct fleet *fl, bool replace)
{
	char *text;
	size_t len;
	int err;

	/* the machines as parsed, the command line's options in them */
	if (fl->slurm)
		return fleet_slurm_hostfile(fl, replace);
	err = read_text_file_len(fl->rq->hosts, &text, &len);
	if (err)
		return err;
	err = resultdir_put_file(fl->dir, "hostfile", text, len, replace);
	free(text);
	return err;
}

/*
 * A new OUT's meta after this machine's facts (where the fleet was driven
 * from): the hosts; and its hostfile.
 */
static int more_out(const struct outdir *od, void *arg)
{
	const struct fleet *fl = arg;
	char value[HOST_NAME_LEN * 2 + 64];
	int err;

	snprintf(value, sizeof(value), "%d host%s", fl->hosts.nr, fl->hosts.nr == 1 ? "" : "s");
	err = outdir_meta_append(od, "fleet", value);
	/* --resume reads the host file as this engine does */
	if (!err && fl->slurm)
		err = outdir_meta_append(od, "fleet_engine", "slurm");
	/* each host's own meta says its share: shard: K/N */
	if (!err && fl->rq->shard_hosts)
		err = outdir_meta_append(od, "fleet_shard", "host k of the n hosts ran --shard k/n");
	/* --resume checks it: the hosts' runs continue the same selection */
	if (!err && fl->rq->orch.sub.only)
		err = outdir_meta_append(od, "fleet_only", fl->rq->orch.sub.only);
	for (int i = 0; !err && i < fl->hosts.nr; i++) {
		const struct host *h = &fl->hosts.h[i];

		snprintf(value, sizeof(value), "%s %s%s%s", h->label, h->user, h->user[0] ? "@" : "",
			 h->name);
		err = outdir_meta_append(od, "fleet_host", value);
	}
	if (!err && (err = keep_hostfile(fl, false)))
		diag_err("cannot write %s/hostfile: %s", fl->dir, strerror(-err));
	return err;
}

/*
 * OUT (outdir.h): a new one with its spec, meta, hostfile and its logs,
 * hosts and remote folders; or on --resume the fleet's own, checked
 * against this command line, its hosts loaded.
 */
static int open_out(struct fleet *fl)
{
	static const char *const subdirs[] = { "logs", "hosts", "remote", NULL };
	const struct fleet_request *rq = fl->rq;
	struct run_info info = { .start = time(NULL), .tags = rq->orch.sub.tags,
				 .argv_line = rq->orch.argv_line, .quick = rq->orch.sub.quick };
	struct outdir_how how = {
		.who = "bpfsweep fleet", .out = rq->orch.out, .resume = rq->orch.resume,
		.tagged = rq->orch.sub.nr_tags, .metavar = "OUT", .name = fl->cfg->name,
		.suffix = "-fleet", .exists_hint = " (--resume OUT continues an earlier fleet)",
		.subdirs = subdirs, .spec = fl->spec, .cfg = fl->cfg, .info = &info,
		.more = more_out, .ctx = fl,
	};

	if (outdir_open(&fl->out, &how))
		return -EINVAL;
	snprintf(fl->logs, sizeof(fl->logs), "%s/logs", fl->dir);
	snprintf(fl->hosts_dir, sizeof(fl->hosts_dir), "%s/hosts", fl->dir);
	snprintf(fl->remote_dir, sizeof(fl->remote_dir), "%s/remote", fl->dir);
	if (!rq->orch.resume)
		return 0;
	if (fleet_resume_open(&fl->resume, fl->dir, fl->spec, rq, &fl->machines, &fl->hosts))
		return -EINVAL;
	fl->slurm = fl->resume.rec.slurm;
	if (fleet_engine_check(rq, fl->slurm))
		return -EINVAL;
	/* a host that moved: the next --resume reads the file given now */
	if ((rq->hosts || fl->slurm) && keep_hostfile(fl, true))
		diag_warn("cannot replace %s/hostfile", fl->dir);
	return 0;
}

/*
 * What the hosts' jobs share; nothing remote has happened yet.  cli/ has
 * checked the request's options (fleet.h).
 */
static int prepare(struct fleet *fl)
{
	const struct fleet_request *rq = fl->rq;
	const char *base;
	int err;

	/* on --resume the engine and the hosts are OUT's (open_out()) */
	fl->slurm = rq->engine == FLEET_ENGINE_SLURM;
	if (!rq->orch.resume && fleet_hosts_load(rq->hosts, rq, fl->slurm, &fl->machines,
						 &fl->hosts))
		return -EINVAL;
	if (!rq->orch.draw.no_plots && plot_check_gnuplot(fl->cfg))
		return -EINVAL;
	err = spawn_self_path(fl->self, sizeof(fl->self));
	if (err || uname(&fl->uts)) {
		diag_err("cannot find bpfsweep or this machine's name: %s",
			 strerror(err ? -err : errno));
		return -EINVAL;
	}
	/* its sockets' paths: at most 108 bytes, and ssh adds 17 while it makes one */
	err = scratch_make(fl->ctl_dir, sizeof(fl->ctl_dir), "ssh");
	if (err) {
		diag_err("cannot create a directory for ssh's control sockets: %s", strerror(-err));
		fl->ctl_dir[0] = '\0';
		return err;
	}
	snprintf(fl->version, sizeof(fl->version), "bpfsweep %s (%s)", BPFSWEEP_VERSION,
		 BPFSWEEP_GIT);
	err = open_out(fl);
	/* the hosts run the spec as resolved here, shipped as a file: no --set words */
	fl->orch.dir = fl->dir;
	err = err ?: orch_write_spec(&fl->orch, fl->spec, fl->cfg->name);
	if (err)
		return err;
	base = strrchr(fl->orch.spec_file, '/') + 1;
	fl->ctx = (struct fleet_ctx){
		.ssh_config = rq->ssh_config, .self = fl->self,
		.spec_path = fl->orch.spec_file, .spec_name = base, .version = fl->version,
		.arch = fl->uts.machine, .logs = fl->logs, .hosts_dir = fl->hosts_dir,
		.remote_dir = fl->remote_dir, .ctl_dir = fl->ctl_dir,
	};
	start_orch(fl);
	fl->ctx.timeout_ns = fl->orch.timeout_ns;
	return 0;
}

/* --resume: a host whose whole result came back is not run again; else its kept directory. */
static void resume_job(struct fleet *fl, struct fleet_job *j, struct subrun_slot *s)
{
	fleet_resume_host(&fl->resume, fl->dir, j->h->label, j->old_dir, sizeof(j->old_dir),
			  &j->done_before);
	if (!j->done_before)
		return;
	j->ok = s->done = true;
	j->run_status = 0;
	fprintf(stderr, "host %s: its result came back before\n", j->h->label);
}

/* The points of share sh (count 0: all of --only's). */
static int share_todo(const struct fleet *fl, const struct shard *sh)
{
	int nr_sel = 0, n = 0;

	for (int i = 0; fl->planned && i < fl->plan.nr_pts; i++)
		n += shard_selects(fl->cfg, fl->rq->orch.sub.only, sh, &fl->plan.pts[i], &nr_sel);
	return n;
}

/* A job and an orchestrator's slot per host: OUT/hosts/<label>, its share, its tag. */
static void init_jobs(struct fleet *fl)
{
	for (int i = 0; i < fl->hosts.nr; i++) {
		struct fleet_job *j = &fl->jobs[i];
		struct subrun_slot *s;

		*j = (struct fleet_job){ .ctx = &fl->ctx, .h = &fl->hosts.h[i], .run_status = -1 };
		snprintf(j->log, sizeof(j->log), "%s/%s.log", fl->logs, j->h->label);
		snprintf(j->result, sizeof(j->result), "%s/%s", fl->hosts_dir, j->h->label);
		snprintf(j->ctl, sizeof(j->ctl), "%s/%d", fl->ctl_dir, i + 1);
		snprintf(j->tag, sizeof(j->tag), "fleet_host=%s", j->h->label);
		fleet_engine_init_job(fl, i);
		s = orch_add(&fl->orch, j->h->label, &j->ex, j->result);
		s->tag = j->tag;
		/* what its probe finds (fleet_host.c), for the failed rows of a host that never ran */
		s->place = (struct told_host){
			.name = j->h->name, .kernel_release = j->facts.v[HF_KERNEL_RELEASE],
			.arch = j->remote_arch, .cpu_model = j->facts.v[HF_CPU_MODEL],
			.nproc = j->facts.v[HF_NPROC],
		};
		/* host k of n in the file runs shard k/n, whether or not the others answer */
		if (fl->rq->shard_hosts) {
			j->shard = s->shard = (struct shard){ i + 1, fl->hosts.nr };
			s->nr_todo = share_todo(fl, &s->shard);
		}
		if (fl->rq->orch.resume)
			resume_job(fl, j, s);
	}
}

/*
 * --shard: the hosts that answered must agree on CPU model, CPU count and
 * kernel, or their shares are not one set of numbers.  Refused (-EINVAL),
 * or with --shard-mixed warned and kept in OUT/meta as "shard_mixed:"
 * lines, one per fact that differs.
 */
static int check_facts(struct orchestrator *or, void *arg)
{
	struct fleet *fl = arg;
	struct host_facts facts[HOSTS_MAX];
	const char *labels[HOSTS_MAX];
	char diff[4096], *line, *save = NULL;
	int nr = 0, n;

	for (int i = 0; i < fl->hosts.nr; i++) {
		if (!or->slots[i].prepared)
			continue;
		facts[nr] = fl->jobs[i].facts;
		labels[nr++] = fl->hosts.h[i].label;
	}
	n = host_facts_differ(facts, labels, nr, diff, sizeof(diff));
	if (!n)
		return 0;
	if (!fl->rq->shard_mixed) {
		diag_err("fleet --shard: the hosts differ in %s: each would measure its share on "
			 "another machine (--shard-mixed goes on all the same; without --shard "
			 "every host runs the whole spec):", n == 1 ? "this" : "these");
		fputs(diff, stderr);
		return -EINVAL;
	}
	diag_warn("fleet --shard-mixed: the hosts differ; their shares are NOT one machine's "
		  "numbers (OUT/meta says so: shard_mixed):");
	fputs(diff, stderr);
	for (line = strtok_r(diff, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		outdir_meta_append(&fl->out, "shard_mixed", line);
	return 0;
}

/*
 * The exit status: the merged rows' (a failed row, or a host's point
 * without one: 1), or the draw's when worse; 128 + the signal of a stop
 * (130 for Ctrl-C, 143 for SIGTERM, as a run has).
 */
static int fleet_status(const struct fleet *fl, int drawn)
{
	int st = orch_rows_status(&fl->orch);

	if (stop_requested)
		return stop_exit_status(stop_requested);
	return drawn > st ? drawn : st;
}

/*
 * The directory, with a socket whose master did not exit (it goes by
 * itself: ControlPersist).
 */
static void remove_ctl_dir(const struct fleet *fl)
{
	if (fl->ctl_dir[0])
		scratch_remove(fl->ctl_dir);
}

/* Every host's whole result came back before: a resume has nothing to run. */
static bool all_done(const struct fleet *fl)
{
	for (int i = 0; i < fl->hosts.nr; i++)
		if (!fl->jobs[i].done_before)
			return false;
	return true;
}

/* --resume: the earlier attempt's outcome lines go; this one's come at its end. */
static int restart_meta(const struct fleet *fl)
{
	bool again[HOSTS_MAX];
	int err;

	for (int i = 0; i < fl->hosts.nr; i++)
		again[i] = !fl->jobs[i].done_before;
	err = fleet_resume_meta(&fl->resume, fl->dir, again);
	if (err)
		diag_err("cannot write %s/meta: %s", fl->dir, strerror(-err));
	return err;
}

/* A word of the command shown to the user: as it is when a shell reads it so, else quoted. */
static int show_word(char *buf, size_t len, const char *w)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789/._-=,:@+";

	if (w[0] && strspn(w, plain) == strlen(w))
		return snprintf(buf, len, "%s", w) < (int)len ? 0 : -ENAMETOOLONG;
	return shquote(w, buf, len);
}

/*
 * The hosts whose remote directory is kept: those with an OUT/remote/<label>
 * (fleet_host.c), as on disk, not assumed; a host that failed before its
 * probe made none.
 */
static int remote_kept(const struct fleet *fl)
{
	char path[PATH_MAX + HOST_LABEL_LEN + 16];
	int n = 0;

	for (int i = 0; i < fl->hosts.nr; i++) {
		snprintf(path, sizeof(path), "%s/%s", fl->remote_dir, fl->hosts.h[i].label);
		n += !heldir_access(path);
	}
	return n;
}

/* The hosts whose result did not come back whole, and the command that continues them. */
static void how_to_continue(const struct fleet *fl)
{
	const struct fleet_request *rq = fl->rq;
	const char *argv[2 * FLEET_MAX_SETS + 16];
	char line[8192];
	size_t off = 0;
	int n = 0, left = 0, kept;

	for (int i = 0; i < fl->hosts.nr; i++)
		left += !fleet_shard_done(&fl->jobs[i]);
	/* the request holds at most FLEET_MAX_SETS (fleet.h) */
	if (!left || rq->nr_sets > FLEET_MAX_SETS)
		return;
	argv[n++] = "bpfsweep";
	argv[n++] = "fleet";
	argv[n++] = rq->spec_path;
	for (int i = 0; i < rq->nr_sets; i++) {
		argv[n++] = "--set";
		argv[n++] = rq->sets[i];
	}
	if (rq->orch.sub.quick)
		argv[n++] = "--quick";
	if (rq->orch.sub.only) {
		argv[n++] = "--only";
		argv[n++] = rq->orch.sub.only;
	}
	if (rq->shard_hosts)
		argv[n++] = "--shard";
	if (rq->ssh_config) {
		argv[n++] = "--ssh-config";
		argv[n++] = rq->ssh_config;
	}
	argv[n++] = "--resume";
	argv[n++] = fl->dir;
	for (int i = 0; i < n && off < sizeof(line); i++) {
		off += snprintf(line + off, sizeof(line) - off, "%s", i ? " " : "");
		if (off >= sizeof(line) || show_word(line + off, sizeof(line) - off, argv[i]))
			return;
		off += strlen(line + off);
	}
	/* Slurm keeps nothing on a node: what came back is continued from OUT/hosts */
	kept = fl->slurm ? 0 : remote_kept(fl);
	fprintf(stderr, "%d host%s did not finish", left, left == 1 ? "" : "s");
	if (kept)
		fprintf(stderr, " (%d remote director%s kept: %s/remote)", kept,
			kept == 1 ? "y is" : "ies are", fl->dir);
	fprintf(stderr, ". Continue with:\n  %s\n", line);
}

/* The fleet, its spec and configuration loaded; its exit status. */
static int fleet_main(struct fleet *fl)
{
	const struct fleet_request *rq = fl->rq;
	bool resume = rq->orch.resume;
	int status = EXIT_USAGE, failed = 0;

	if (prepare(fl))
		return status;
	fprintf(stderr, "fleet: %d host%s%s, logs in %s\n", fl->hosts.nr,
		fl->hosts.nr == 1 ? "" : "s", rq->shard_hosts ? ", a share of the points each" : "",
		fl->logs);
	init_jobs(fl);
	if (resume && all_done(fl)) {
		fprintf(stderr, "fleet: every host's result came back before: nothing to run; "
			"results: %s\n", fl->dir);
		return fleet_status(fl, EXIT_OK);
	}
	if (resume && restart_meta(fl))
		return status;
	/* a resume's hosts were compared when the fleet began */
	if (orch_run_all(&fl->orch, rq->shard_hosts && !resume ? check_facts : NULL, fl)) {
		/* nothing ran: the directory holds nothing worth keeping */
		outdir_discard(&fl->out);
		return status;
	}
	if (fleet_record_hosts(fl))
		diag_err("cannot write %s/meta", fl->dir);
	status = fleet_status(fl, fleet_merge_and_draw(fl));
	if (rq->shard_hosts)
		fleet_report_missing(fl);
	for (int i = 0; i < fl->hosts.nr; i++)
		failed += !fl->jobs[i].ok;
	outdir_meta_time(&fl->out, "end", time(NULL));
	fprintf(stderr, "results: %s (%d of %d hosts came back%s)\n", fl->dir,
		fl->hosts.nr - failed, fl->hosts.nr, stop_requested ? "; interrupted" : "");
	how_to_continue(fl);
	return status;
}

int fleet_run(const struct fleet_request *rq, struct spec *spec, struct sweep_cfg *cfg)
{
	struct fleet *fl = calloc(1, sizeof(*fl));	/* a job and a slot per host: on the heap */
	int status = EXIT_USAGE;

	if (!fl) {
		diag_err("fleet: %s", strerror(ENOMEM));
		goto out;
	}
	*fl = (struct fleet){ .rq = rq, .spec = spec, .cfg = cfg };
	fl->dir = fl->out.path;
	status = fleet_main(fl);
	remove_ctl_dir(fl);
	fleet_resume_free(&fl->resume);
	plan_free(&fl->plan);
	outdir_close(&fl->out);
	free(fl);
out:
	spec_free(spec);
	sweep_cfg_free(cfg);
	return status;
}
