// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep on this host, in this process (hostrun.h): spec → points →
 * runner → result directory.  The directory is new (or resumed with
 * --resume), and every file in it is created exclusively.  Each finished
 * point is appended to the CSVs at once; at the end the directory is read
 * back and its table and charts drawn as report draws them (draw.h: the
 * rows that finished before a resume and those saved now), even after
 * Ctrl-C or a write that failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "diag.h"
#include "draw.h"
#include "exitcode.h"
#include "gate.h"
#include "heldir.h"
#include "hostrun.h"
#include "kernels.h"
#include "matrix.h"
#include "meta.h"
#include "plan.h"
#include "plot.h"
#include "pointsel.h"
#include "progrun.h"
#include "profiles.h"
#include "outdir.h"
#include "resultdir.h"
#include "results.h"
#include "resume.h"
#include "runner.h"
#include "statspass.h"
#include "stop.h"
#include "suggest.h"
#include "syscheck.h"

struct run_state {
	const struct run_request *rq;
	struct sweep_cfg *cfg;
	struct spec *spec;
	struct plan plan;
	struct point *pts;		/* every point of the spec (the plan's) */
	int nr_pts;
	struct point *todo;		/* what this run runs: --only, and not finished before */
	int nr_todo;
	struct outdir out;		/* OUT: created, or reopened for --resume (outdir.h) */
	const char *dir;		/* out.path */
	struct results *res;
	struct resume resume;		/* --resume: what dir held */
	struct run_info info;
	struct point_result *ran;	/* from the runner; the first nr_ran ran */
	int nr_ran;
	char shard[32];			/* --shard as meta has it: "I/N", or "" */
	struct sys_check check;		/* the system check, for meta; with checked */
	bool checked;
};

/* meta: created at the start; "resumed" and "end" lines appended later. */
static int write_meta(struct run_state *rs, const char *append_key, time_t t)
{
	return append_key ? outdir_meta_time(&rs->out, append_key, t) :
			    outdir_write_meta(&rs->out, rs->cfg, &rs->info);
}

/* A point whose rows could not all be written stops the sweep, loudly. */
static int on_point_done(const struct point_result *r, void *ctx)
{
	struct run_state *rs = ctx;
	char name[256];
	/* the profiles first: a row never claims a profile that is not there */
	int err = profiles_write(rs->dir, rs->cfg, r) ?: results_append(rs->res, r);

	if (!err)
		return 0;
	point_name(rs->cfg, r->pt, name, sizeof(name));
	diag_err("cannot save point %d %s in %s: %s; its rows were removed and the sweep "
		 "stops (--resume %s continues it)", r->pt->id, name, rs->dir, strerror(-err),
		 rs->dir);
	if (results_rollback_error(rs->res))
		diag_err("removing the rows of point %d failed too: %s: the CSVs may end in a "
			 "partial row", r->pt->id, strerror(-results_rollback_error(rs->res)));
	return err;
}

/* OUT's CSVs, after its spec and meta: created, or on --resume reopened. */
static int open_results(struct run_state *rs)
{
	int err = rs->rq->resume ? results_reopen(rs->dir, rs->cfg, &rs->res) :
				  results_create(rs->dir, rs->cfg, &rs->res);

	if (err)
		diag_err("cannot create results in %s: %s", rs->dir, strerror(-err));
	return err;
}

/* OUT as outdir.h makes it, and what a run's OUT holds beside: its CSVs. */
static struct outdir_how out_how(const struct run_state *rs)
{
	return (struct outdir_how){
		.who = "bpfsweep", .out = rs->rq->out, .resume = rs->rq->resume,
		.tagged = rs->rq->nr_tags, .metavar = "DIR", .name = rs->cfg->name,
		.exists_hint = " (a run writes a new directory; --resume DIR continues an "
			       "interrupted one)",
		.spec = rs->spec, .cfg = rs->cfg, .info = &rs->info,
	};
}

static int prepare_new(struct run_state *rs)
{
	struct outdir_how how = out_how(rs);
	int err = outdir_create(&rs->out, &how);

	if (err)
		return err;
	err = open_results(rs);
	if (err)
		outdir_discard(&rs->out);
	return err;
}

/*
 * A shard's directory holds rows of its points only: resumed as another
 * share (or the whole spec), its unfinished rows would go and points of
 * other shards come in.  The shard is checked before resume_prepare()
 * drops anything.
 */
static int check_resumed_shard(const struct run_state *rs)
{
	char path[4200], was[32];

	snprintf(path, sizeof(path), "%s/meta", rs->dir);
	if (!meta_lookup(path, "shard", was, sizeof(was)))
		was[0] = '\0';
	if (!strcmp(was, rs->shard))
		return 0;
	diag_err("cannot resume %s: it ran %s%s, this run %s%s", rs->dir,
		 was[0] ? "--shard " : "every point", was,
		 rs->shard[0] ? "--shard " : "every point", rs->shard);
	return -EINVAL;
}

/*
 * --resume DIR: what DIR holds checked and its unfinished rows dropped
 * (resume.h); a DIR a run left before writing its spec or meta gets them
 * now, else its meta a "resumed" line.
 */
static int prepare_resume(struct run_state *rs)
{
	struct outdir_how how = out_how(rs);
	struct resume *rsm = &rs->resume;
	int err;

	err = outdir_reopen(&rs->out, &how) ?: check_resumed_shard(rs);
	if (err)
		return err;
	err = resume_prepare(rs->dir, rs->spec, rs->cfg, rs->rq->only, rs->pts, rs->nr_pts,
			     rs->rq->fail_all != NULL, rsm);
	if (!err && !rsm->fresh)
		err = resume_run_info(rsm, &rs->info);
	if (!err && rsm->fresh)
		err = outdir_write_spec(&rs->out, rs->spec);
	if (!err)
		err = rsm->fresh || rsm->need_meta ? write_meta(rs, NULL, 0) :
			write_meta(rs, "resumed", time(NULL));
	return err ?: open_results(rs);
}

/*
 * The points of --only's experiment, of those --shard's share (counted
 * among --only's: shard.h), that have no finished row yet.
 */
static int pick_todo(struct run_state *rs)
{
	const struct sweep_cfg *cfg = rs->cfg;
	int nr_sel = 0;

	rs->todo = calloc(rs->nr_pts ? rs->nr_pts : 1, sizeof(*rs->todo));
	if (!rs->todo)
		return -ENOMEM;
	for (int i = 0; i < rs->nr_pts; i++) {
		const struct point *pt = &rs->pts[i];

		if (!shard_selects(cfg, rs->rq->only, &rs->rq->shard, pt, &nr_sel))
			continue;
		if (rs->resume.has_row && rs->resume.has_row[i])
			continue;
		rs->todo[rs->nr_todo++] = *pt;
	}
	if (rs->rq->resume)
		fprintf(stderr, "resuming %s: %d of %d points keep their rows, %d to run\n",
			rs->dir, rs->resume.nr_kept, rs->nr_pts, rs->nr_todo);
	else if (rs->shard[0] && !rs->rq->guest_of)
		fprintf(stderr, "shard %s: %d of %d points\n", rs->shard,
			shard_size(&rs->rq->shard, nr_sel), nr_sel);
	return 0;
}

/*
 * Everything the sweep writes before its first point.  Any failure here
 * is a set-up error: reported, and nothing of this run is left behind.
 * Then what the probe says of the points this run runs (--only, --resume).
 */
static int prepare(struct run_state *rs)
{
	int err;

	err = rs->rq->resume ? prepare_resume(rs) : prepare_new(rs);
	if (!err)
		err = pick_todo(rs);
	if (!err)
		plan_report(stderr, &rs->plan, rs->todo, rs->nr_todo);
	return err;
}

static int exit_status(int run_err, const struct point_result *res, int nr)
{
	if (run_err == -EINTR)
		return stop_exit_status(runner_stop_signal());
	if (run_err)
		return EXIT_POINTS_FAILED;
	for (int i = 0; i < nr; i++)
		/* a stalled point is a failure to measure */
		if (res[i].status == PS_FAILED || res[i].status == PS_STALLED)
			return EXIT_POINTS_FAILED;
	return EXIT_OK;
}

/* Points with more threads than CPUs measure sharing too: say so once. */
static void note_oversubscribed(const struct run_state *rs)
{
	int n = 0, cpus = 0;

	for (int i = 0; i < rs->nr_ran; i++) {
		const struct point_result *r = &rs->ran[i];

		if (r->nr_cpus && r->nr_producers + r->nr_consumers > r->nr_cpus) {
			n++;
			cpus = r->nr_cpus;
		}
	}
	if (n)
		fprintf(stderr, "note: %d point%s ran more threads than the %d CPUs; "
			"summary.csv's cpus column shows how they shared them\n",
			n, n == 1 ? "" : "s", cpus);
}

/*
 * The directory read back, its baseline columns filled and its table and
 * charts drawn as report draws them (draw.h), then the final meta.  A
 * kernel sweep's sub-run (guest-of) keeps its table to its directory
 * and its path to itself: the sweep prints the table of all kernels, and
 * a guest's path means nothing on the host.
 */
static int finish(struct run_state *rs)
{
	bool sub = rs->rq->guest_of;
	struct draw_opts d = rs->rq->draw;
	int err;

	d.profile = rs->cfg->profile;
	err = draw_run_end(&d, rs->dir, rs->rq->resume, sub);

	rs->info.end = time(NULL);
	err = write_meta(rs, "end", rs->info.end) ?: err;
	note_oversubscribed(rs);
	if (heldir_moved(rs->dir))
		diag_warn("%s was moved or replaced while the run wrote it: the results stayed "
			  "in the directory the run made, wherever it went", rs->dir);
	/* a fail-all run's directory is /proc/self/fd/N/...: its sweep names it as given */
	if (!sub && !rs->rq->fail_all)
		fprintf(stderr, "results: %s\n", rs->dir);
	return err;
}

/* After a stop: how to go on, and what is kept. */
static void say_resume(const struct run_state *rs)
{
	int done = 0;

	for (int i = 0; i < rs->nr_ran; i++)
		done += rs->ran[i].status != PS_INTERRUPTED;
	fprintf(stderr, "interrupted: %d of %d points finished and kept; the same command "
		"with --resume %s (instead of -o) runs the rest\n", done, rs->nr_todo, rs->dir);
}

/*
 * What on this machine will distort the numbers, said once before the
 * sweep and recorded in meta (syscheck.h).  Not for fail-all, which
 * measures nothing.
 */
static void check_system(struct run_state *rs)
{
	const struct sweep_cfg *cfg = rs->cfg;

	if (rs->rq->fail_all)
		return;
	syscheck_read(syscheck_root(), true, cfg->profile ? cfg->profile_hz : 0, &rs->check);
	rs->checked = true;
	rs->info.check = &rs->check;
	/* meta keeps every warning; the terminal only those not acknowledged */
	for (int i = 0; i < rs->check.nr_warn; i++)
		if (!syscheck_quieted(rs->rq->quiet, rs->rq->nr_quiet, rs->check.warn_name[i]))
			diag_warn("%s [--quiet-warning=%s]", rs->check.warn[i],
				  rs->check.warn_name[i]);
}

/* A missing privilege is the user's to fix: say so before anything is written. */
static int check_caps(const struct workload *wl)
{
	char missing[128];
	int n = caps_missing(wl, missing, sizeof(missing));

	if (n < 0)
		diag_warn("cannot read this process's capabilities: %s", strerror(-n));
	if (n <= 0)
		return 0;
	diag_err("%s needs %s; this process lacks %s: run as root", wl->name, caps_bpf_rule,
		 missing);
	return -EPERM;
}

/*
 * Points, spec errors and the kernel's verdicts, before anything is
 * written.  --fail-all asks no kernel: its points ran on another one.
 */
static int plan_run(struct run_state *rs)
{
	int err;

	err = plan_build(rs->cfg, &rs->plan);
	if (!err && !rs->rq->fail_all)
		err = plan_preflight(rs->cfg, &rs->plan, rs->rq->only);
	if (!err && !rs->rq->fail_all)
		err = check_caps(rs->cfg->wl);
	if (!err && !rs->rq->fail_all)
		err = plan_probe(rs->cfg, &rs->plan);
	if (err)
		return err;
	rs->pts = rs->plan.pts;
	rs->nr_pts = rs->plan.nr_pts;
	return 0;
}

/*
 * --fail-all REASON: a failed row for each point to run, none run.  A
 * kernel sweep writes them for the points of a kernel that did not boot,
 * or whose guest stopped early, so that every point has its row.
 */
static int fail_all(struct run_state *rs)
{
	int err = 0;

	rs->ran = calloc(rs->nr_todo ? rs->nr_todo : 1, sizeof(*rs->ran));
	if (!rs->ran)
		return -ENOMEM;
	for (int i = 0; !err && i < rs->nr_todo; i++) {
		struct point_result *r = &rs->ran[rs->nr_ran++];

		r->pt = &rs->todo[i];
		r->status = PS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", rs->rq->fail_all);
		err = on_point_done(r, rs);
	}
	return err;
}

/*
 * The kernel's BPF run-time statistics, off while rates are measured and
 * on in each point's pass (statspass.h), and in meta how, or why not:
 * "bpf_stats: unavailable (...)".  Tried once here, and off again at
 * once, so that meta says whether the passes will have them; refused, the
 * points run all the same, with ns_per_run empty.  bpf_stats = off leaves
 * them as they are: no pass (as for the kernel's own benches), and
 * ns_per_run stays empty.
 */
static int stats_begin(struct run_state *rs)
{
	const struct workload *wl = rs->cfg->wl;
	char how[256], line[512];
	int runs, ns;

	if (!wl->prog_stats || !prog_metrics(wl, &runs, &ns))
		return 0;
	if (!rs->cfg->bpf_stats) {
		snprintf(line, sizeof(line), "off (bpf_stats = off)");
	} else if (wl_bpf_stats_on(how, sizeof(how))) {
		snprintf(line, sizeof(line), "%s", how);
	} else {
		wl_bpf_stats_off();
		snprintf(line, sizeof(line), STATS_PASS_META " off while measuring; on (%s) in a "
			 "separate %g s pass per point, after its repetitions, for ns_per_run",
			 how, stats_pass_duration_ns(rs->cfg) / 1e9);
	}
	return outdir_meta_append(&rs->out, "bpf_stats", line);
}

/* What meta says of this run: when, its tags and command line, which kernel of a sweep. */
static void fill_run_info(struct run_state *rs)
{
	const struct run_request *o = rs->rq;

	if (o->shard.count)
		snprintf(rs->shard, sizeof(rs->shard), "%d/%d", o->shard.index, o->shard.count);
	rs->info.shard = rs->shard[0] ? rs->shard : NULL;
	rs->info.start = time(NULL);
	rs->info.tags = o->tags;
	rs->info.argv_line = o->argv_line;
	rs->info.quick = o->quick;
	/* a kernel sweep's sub-run says which of its kernels this is (executors/kernelsweep.c) */
	if (o->guest_of && strcmp(o->guest_of, KERNEL_HOST))
		rs->info.kernel = o->guest_of;
	rs->info.vm_accel = o->guest_accel;
	rs->info.vm_accel_reason = o->guest_accel_reason;
	rs->info.not_run = o->fail_all && rs->info.kernel;
	/* a fleet host's failed rows: its facts, none of this machine's */
	rs->info.told = o->fail_all && o->place && o->place->name ? o->place : NULL;
}

/*
 * The runner over the points; a sub-run of a sweep over kernels with
 * decide runs its units as the sweep says (gate.h).  A gate that cannot
 * be opened leaves the sweep without this kernel's units: its points
 * then run on their own.
 */
static int run_points(struct run_state *rs)
{
	struct gate gate;
	int err;

	if (!rs->rq->gate)
		return runner_run(rs->cfg, &rs->plan, rs->todo, rs->nr_todo, on_point_done, rs,
				  &rs->ran, &rs->nr_ran);
	err = gate_open(&gate, rs->rq->gate);
	if (err)
		diag_warn("cannot open the gate %s: %s; the points run on their own", rs->rq->gate,
			  strerror(-err));
	err = runner_run_gated(rs->cfg, &rs->plan, rs->todo, rs->nr_todo, err ? NULL : &gate,
			       on_point_done, rs, &rs->ran, &rs->nr_ran);
	gate_close(&gate);
	return err;
}

/*
 * The points run (or, --fail-all, a failed row each): *run_err the
 * runner's.  -EINVAL when the BPF statistics could not be set up.
 */
static int measure(struct run_state *rs, int *run_err)
{
	if (rs->rq->fail_all) {
		*run_err = fail_all(rs);
		return 0;
	}
	if (stats_begin(rs)) {
		wl_bpf_stats_off();
		return -EINVAL;
	}
	*run_err = run_points(rs);
	/* the passes turn them off; again after Ctrl-C and failed points: the machine's */
	wl_bpf_stats_off();
	return 0;
}

int host_run(const struct run_request *rq, struct spec *spec, struct sweep_cfg *cfg)
{
	struct run_state rs = { .rq = rq, .spec = spec, .cfg = cfg };
	int run_err = 0, status;

	rs.dir = rs.out.path;
	if (!rq->draw.no_plots && plot_check_gnuplot(rs.cfg)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	/* past a file size limit, a write must fail with EFBIG, not kill the run */
	signal(SIGXFSZ, SIG_IGN);
	fill_run_info(&rs);
	if (only_check(rs.cfg, rq->only) || plan_run(&rs)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	check_system(&rs);
	if (prepare(&rs)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	if (measure(&rs, &run_err)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	status = exit_status(run_err, rs.ran, rs.nr_ran);
	if (finish(&rs) && status == EXIT_OK)
		status = EXIT_POINTS_FAILED;
	if (run_err == -EINTR && !rq->guest_of)
		say_resume(&rs);
cleanup:
	point_results_free(rs.ran, rs.nr_todo);
	resume_free(&rs.resume);
	results_close(rs.res);
	outdir_close(&rs.out);
	free(rs.todo);
	if (rs.checked)
		syscheck_free(&rs.check);
	plan_free(&rs.plan);
	sweep_cfg_free(rs.cfg);
	spec_free(rs.spec);
	return status;
}
