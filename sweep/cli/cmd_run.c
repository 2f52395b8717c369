// SPDX-License-Identifier: GPL-2.0
/*
 * The run command: spec → points → runner → result directory.  The
 * directory is new (or resumed with --resume), and every file in it is
 * created exclusively.  Each finished point is appended to the CSVs at
 * once; at the end the directory is read back and its table and charts
 * drawn as report draws them (draw.h: the rows that finished before a
 * resume and those saved now), even after Ctrl-C or a write that failed.
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
#include "cli.h"
#include "diag.h"
#include "draw.h"
#include "gate.h"
#include "heldir.h"
#include "kernels.h"
#include "matrix.h"
#include "meta.h"
#include "plan.h"
#include "plot.h"
#include "progrun.h"
#include "profiles.h"
#include "readlock.h"
#include "resultdir.h"
#include "results.h"
#include "resume.h"
#include "runner.h"
#include "statspass.h"
#include "stop.h"
#include "suggest.h"
#include "syscheck.h"

/* Default directories of runs started in the same second get -2, -3, ... */
#define MAX_SAME_SECOND 100

struct run_state {
	const struct run_opts *o;
	struct sweep_cfg *cfg;
	struct spec *spec;
	struct plan plan;
	struct point *pts;		/* every point of the spec (the plan's) */
	int nr_pts;
	struct point *todo;		/* what this run runs: --only, and not finished before */
	int nr_todo;
	char dir[4096];
	bool made_dir;			/* this run created dir (undone if set-up fails) */
	int lock_fd;			/* holds dir: no two runs write one directory */
	struct results *res;
	struct resume resume;		/* --resume: what dir held */
	struct run_info info;
	struct point_result *ran;	/* from the runner; the first nr_ran ran */
	int nr_ran;
	char shard[32];			/* --shard as meta has it: "I/N", or "" */
	struct sys_check check;		/* the system check, for meta; with checked */
	bool checked;
};

/* The spec as run: created, or on --resume replacing the one of the run before. */
static int write_spec(struct run_state *rs)
{
	int err = resultdir_write_spec(rs->dir, rs->spec, rs->o->resume);

	if (err)
		diag_err("cannot write %s/spec: %s", rs->dir, strerror(-err));
	return err;
}

/* meta: created at the start; "resumed" and "end" lines appended later. */
static int write_meta(struct run_state *rs, const char *append_key, time_t t)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/meta", rs->dir);
	err = append_key ? meta_append_time(path, append_key, t) :
			   meta_write(path, rs->cfg, &rs->info);
	if (err)
		diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
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

/*
 * Lock dir for the whole run: a --resume of a directory a run still writes
 * would replace the CSVs under it, and the rows it appends after would be
 * lost with the old files; two resumes would append the same points twice.
 */
static int lock_dir(struct run_state *rs)
{
	rs->lock_fd = write_lock_take(rs->dir, "bpfsweep", rs->o->resume);
	return rs->lock_fd == -EBUSY ? -EBUSY : 0;
}

/* -o DIR, or results/<spec>/<stamp>[-N]: a directory this run creates. */
static int make_dir(struct run_state *rs)
{
	size_t len;
	int err;

	if (rs->o->com.outdir) {
		snprintf(rs->dir, sizeof(rs->dir), "%s", rs->o->com.outdir);
		err = resultdir_create(rs->dir);
	} else {
		resultdir_default_path(rs->dir, sizeof(rs->dir), rs->cfg->name, rs->info.start,
				       "");
		len = strlen(rs->dir);
		err = resultdir_create(rs->dir);
		for (int n = 2; err == -EEXIST && n <= MAX_SAME_SECOND; n++) {
			snprintf(rs->dir + len, sizeof(rs->dir) - len, "-%d", n);
			err = resultdir_create(rs->dir);
		}
	}
	if (err)
		diag_err("cannot create result directory %s: %s%s", rs->dir, strerror(-err),
			 err == -EEXIST ? " (a run writes a new directory; --resume DIR "
			 "continues an interrupted one)" : "");
	rs->made_dir = !err;
	return err;
}

/* Set-up failed in a directory this run made: leave nothing behind. */
static void unmake_dir(const struct run_state *rs)
{
	static const char *const names[] = { "spec", "meta", "samples.csv", "summary.csv" };
	char path[4200];

	if (!rs->made_dir)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", rs->dir, names[i]);
		heldir_unlink(path);
	}
	heldir_rmdir(rs->dir);
}

/* spec and meta first: --resume needs them to know what a directory holds. */
static int write_setup(struct run_state *rs, bool spec, bool meta)
{
	int err = 0;

	if (spec)
		err = write_spec(rs);
	if (!err && meta)
		err = write_meta(rs, NULL, 0);
	else if (!err && rs->o->resume)
		err = write_meta(rs, "resumed", time(NULL));
	if (err)
		return err;
	if (rs->o->resume)
		err = results_reopen(rs->dir, rs->cfg, &rs->res);
	else
		err = results_create(rs->dir, rs->cfg, &rs->res);
	if (err)
		diag_err("cannot create results in %s: %s", rs->dir, strerror(-err));
	return err;
}

static int prepare_new(struct run_state *rs)
{
	int err = make_dir(rs);

	if (!err)
		err = lock_dir(rs);
	if (!err)
		err = write_setup(rs, true, true);
	if (err)
		unmake_dir(rs);
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

static int prepare_resume(struct run_state *rs)
{
	struct resume *rsm = &rs->resume;
	struct stat st;
	int err;

	snprintf(rs->dir, sizeof(rs->dir), "%s", rs->o->resume);
	if (rs->o->com.outdir || rs->o->com.nr_tags) {
		diag_err("--resume continues DIR with its own output and tags: give neither -o "
			 "nor --tag");
		return -EINVAL;
	}
	err = stat(rs->dir, &st) ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	/* from here on, every file of dir is opened from one descriptor of it */
	err = err ?: resultdir_hold(rs->dir);
	if (err) {
		diag_err("cannot resume %s: %s", rs->dir, strerror(-err));
		return err;
	}
	err = lock_dir(rs);
	if (err)
		return err;
	err = check_resumed_shard(rs);
	if (err)
		return err;
	err = resume_prepare(rs->dir, rs->spec, rs->cfg, rs->o->only, rs->pts, rs->nr_pts,
			     rs->o->fail_all != NULL, rsm);
	if (!err && !rsm->fresh)
		err = resume_run_info(rsm, &rs->info);
	return err ?: write_setup(rs, rsm->fresh, rsm->fresh || rsm->need_meta);
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

		if (!cli_selects(cfg, rs->o->only, &rs->o->shard, pt, &nr_sel))
			continue;
		if (rs->resume.has_row && rs->resume.has_row[i])
			continue;
		rs->todo[rs->nr_todo++] = *pt;
	}
	if (rs->o->resume)
		fprintf(stderr, "resuming %s: %d of %d points keep their rows, %d to run\n",
			rs->dir, rs->resume.nr_kept, rs->nr_pts, rs->nr_todo);
	else if (rs->shard[0] && !rs->o->guest_of)
		fprintf(stderr, "shard %s: %d of %d points\n", rs->shard,
			shard_size(&rs->o->shard, nr_sel), nr_sel);
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

	err = rs->o->resume ? prepare_resume(rs) : prepare_new(rs);
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
	bool sub = rs->o->guest_of;
	struct draw_opts d = { .no_plots = rs->o->draw.no_plots, .no_html = rs->o->draw.no_html,
			       .plot_timeout_s = rs->o->draw.plot_timeout_s,
			       .format = rs->o->draw.format, .profile = rs->cfg->profile };
	int err = draw_run_end(&d, rs->dir, rs->o->resume, sub);

	rs->info.end = time(NULL);
	err = write_meta(rs, "end", rs->info.end) ?: err;
	note_oversubscribed(rs);
	if (heldir_moved(rs->dir))
		diag_warn("%s was moved or replaced while the run wrote it: the results stayed "
			  "in the directory the run made, wherever it went", rs->dir);
	/* a fail-all run's directory is /proc/self/fd/N/...: its sweep names it as given */
	if (!sub && !rs->o->fail_all)
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

	if (rs->o->fail_all)
		return;
	syscheck_read(syscheck_root(), true, cfg->profile ? cfg->profile_hz : 0, &rs->check);
	rs->checked = true;
	rs->info.check = &rs->check;
	/* meta keeps every warning; the terminal only those not acknowledged */
	for (int i = 0; i < rs->check.nr_warn; i++)
		if (!cli_quiets(rs->o->quiet, rs->o->nr_quiet, rs->check.warn_name[i]))
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
	if (!err && !rs->o->fail_all)
		err = plan_preflight(rs->cfg, &rs->plan, rs->o->only);
	if (!err && !rs->o->fail_all)
		err = check_caps(rs->cfg->wl);
	if (!err && !rs->o->fail_all)
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
		snprintf(r->reason, sizeof(r->reason), "%s", rs->o->fail_all);
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
	char how[256], line[512], path[4200];
	int runs, ns, err;

	if (!wl->prog_stats || !prog_metrics(wl, &runs, &ns))
		return 0;
	if (!rs->cfg->bpf_stats) {
		snprintf(line, sizeof(line), "off (bpf_stats = off)");
	} else if (wl_bpf_stats_on(how, sizeof(how))) {
		snprintf(line, sizeof(line), "%s", how);
	} else {
		wl_bpf_stats_off();
		snprintf(line, sizeof(line), STATS_PASS_META " off while measuring; on (%s) in a "
			 "separate %llu s pass per point, after its repetitions, for ns_per_run",
			 how, STATS_PASS_NS / 1000000000ULL);
	}
	snprintf(path, sizeof(path), "%s/meta", rs->dir);
	err = meta_append(path, "bpf_stats", line);
	if (err)
		diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

/* What meta says of this run: when, its tags and command line, which kernel of a sweep. */
static void fill_run_info(struct run_state *rs)
{
	const struct run_opts *o = rs->o;

	if (o->shard.count)
		snprintf(rs->shard, sizeof(rs->shard), "%d/%d", o->shard.index, o->shard.count);
	rs->info.shard = rs->shard[0] ? rs->shard : NULL;
	rs->info.start = time(NULL);
	rs->info.tags = o->com.tags;
	rs->info.argv_line = o->com.argv_line;
	rs->info.quick = o->spec.quick;
	/* a kernel sweep's sub-run says which of its kernels this is (kernelrun.c) */
	if (o->guest_of && strcmp(o->guest_of, KERNEL_HOST))
		rs->info.kernel = o->guest_of;
	rs->info.vm_accel = o->guest_accel;
	rs->info.vm_accel_reason = o->guest_accel_reason;
	rs->info.not_run = o->fail_all && rs->info.kernel;
	/* a fleet host's failed rows: its facts, none of this machine's */
	rs->info.told = o->fail_all && o->place.name ? &o->place : NULL;
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

	if (!rs->o->gate)
		return runner_run(rs->cfg, &rs->plan, rs->todo, rs->nr_todo, on_point_done, rs,
				  &rs->ran, &rs->nr_ran);
	err = gate_open(&gate, rs->o->gate);
	if (err)
		diag_warn("cannot open the gate %s: %s; the points run on their own", rs->o->gate,
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
	if (rs->o->fail_all) {
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

int cmd_run(const struct run_opts *o)
{
	struct run_state rs = { .o = o, .lock_fd = -1 };
	int run_err = 0, status;

	if (cli_load(&o->spec, &rs.spec, &rs.cfg))
		return EXIT_USAGE;
	/* its kernel axis is "host" (the guest's): only the option says how the guest runs */
	rs.cfg->icount_guest = o->guest_accel && !strcmp(o->guest_accel, "tcg-icount");
	/* several kernels, or one in a VM: each boots and runs this command again */
	if (rs.cfg->kernels.nr > 1 || kernel_axis_has_vm(&rs.cfg->kernels)) {
		if (!o->shard.count)
			return kernel_sweep(o, rs.spec, rs.cfg);
		/* its sub-runs are built from the options (subrun.c), which do not carry it yet */
		diag_err("--shard is not for a sweep over kernels (yet): each kernel runs every "
			 "point");
		status = EXIT_USAGE;
		goto cleanup;
	}
	if (!o->draw.no_plots && plot_check_gnuplot(rs.cfg)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	/* past a file size limit, a write must fail with EFBIG, not kill the run */
	signal(SIGXFSZ, SIG_IGN);
	fill_run_info(&rs);
	if (cli_check_only(rs.cfg, o->only) || plan_run(&rs)) {
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
	if (run_err == -EINTR && !o->guest_of)
		say_resume(&rs);
cleanup:
	point_results_free(rs.ran, rs.nr_todo);
	resume_free(&rs.resume);
	results_close(rs.res);
	if (rs.lock_fd >= 0)
		close(rs.lock_fd);
	free(rs.todo);
	if (rs.checked)
		syscheck_free(&rs.check);
	plan_free(&rs.plan);
	sweep_cfg_free(rs.cfg);
	spec_free(rs.spec);
	return status;
}
