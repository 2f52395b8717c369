// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep over kernels: every point on every kernel of [sweep] kernel (or
 * --kernel).  Each kernel is one sub-run of this same command, with the
 * same spec and options, into OUT/runs/<n>: on the host as a child
 * process, on any other kernel as the job of a VM that boots it once
 * (vm.c; the guest writes through the writable export, and its result
 * directory moves into place when the VM is off).  Points a kernel did
 * not run (it did not boot, its guest stopped) get a failed row with the
 * reason, so every kernel has a row per point.  The runs are then merged
 * as `merge` does (a kernel column on every row) and drawn as `report`
 * draws several runs: a table block and a chart series per kernel.
 * Layout and protocol: docs/kernel.md.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "kernels.h"
#include "meta.h"
#include "plan.h"
#include "plot.h"
#include "resultdir.h"
#include "results_read.h"
#include "stop.h"
#include "subproc.h"
#include "subrun.h"
#include "textfile.h"
#include "vm.h"
#include "vm_cmdline.h"
#include "vm_probe.h"

#define NSEC_PER_SEC		1000000000ULL
/* a guest's job may take this much longer than the plan's estimate (TCG, set-up) */
#define RUN_TIMEOUT_FACTOR	4
#define RUN_TIMEOUT_PER_POINT_S	60
#define RUN_TIMEOUT_BASE_S	300

struct kernel_sweep {
	const struct cli_opts *o;
	struct spec *spec;
	struct sweep_cfg *cfg;
	struct plan plan;
	int nr_todo;			/* points each kernel runs (--only) */
	char dir[PATH_MAX];		/* OUT */
	char self[PATH_MAX];		/* this binary: the sub-runs and the guest's init */
	char spec_path[PATH_MAX];	/* absolute: the guest starts in the same directory */
	struct subrun sub;		/* the sub-runs' command line */
	char cwd[PATH_MAX];
	char runs[MAX_KERNELS][PATH_MAX + 32];
	const char *run_dirs[MAX_KERNELS];
	int nr_runs;
	int status;			/* the worst exit status of the sub-runs */
	const char **tags;		/* --tag, or on --resume those OUT/meta keeps */
	int nr_tags;
	char *meta_text;		/* OUT/meta on --resume: tags point into it */
	struct vm_accel_pick accel;	/* what runs every VM of the sweep, probed once */
	int accel_err;			/* vm_accel = kvm that cannot run: every VM fails */
	char accel_why[700];
};

static int wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 128;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int spawn_and_wait(const struct subrun_argv *a)
{
	pid_t pid;
	int err = spawn_argv(a->argv, NULL, &pid);

	if (err) {
		diag_err("cannot start %s: %s", a->argv[0], strerror(-err));
		return EXIT_USAGE;
	}
	return wait_child(pid);
}

/*
 * Summary rows in dir (only those of finished points: ok or unsupported),
 * or -1 when there is no result directory there.
 */
static int rows_in(const char *dir, bool finished)
{
	struct result_set *set;
	char why[256];
	int n = 0;

	if (access(dir, F_OK) || results_read(dir, &set, why, sizeof(why)))
		return -1;
	for (int i = 0; i < set->nr_points; i++) {
		const char *st = set->points[i].status;

		n += !finished || !strcmp(st, "ok") || !strcmp(st, "unsupported");
	}
	result_set_free(set);
	return n;
}

/* --resume: a kernel whose points all finished before runs nothing now. */
static bool all_finished(const struct kernel_sweep *ks, int k)
{
	if (!ks->o->resume || rows_in(ks->runs[k], true) < ks->nr_todo)
		return false;
	fprintf(stderr, "kernel %s: all %d points finished before\n", ks->cfg->kernels.vals[k],
		ks->nr_todo);
	return true;
}

/*
 * Every point kernel k did not run gets a failed row saying why: a
 * sub-run with --fail-all, into a new directory or resuming the partial one.
 */
static void fail_missing(struct kernel_sweep *ks, int k, bool in_vm, const char *why)
{
	const char *accel = in_vm && !ks->accel_err ? vm_accel_names[ks->accel.accel] : NULL;
	const char *dir = ks->runs[k];
	struct subrun_argv a;
	int rows = rows_in(dir, false);

	if (rows >= ks->nr_todo || stop_requested)
		return;
	subrun_argv(&ks->sub, ks->cfg->kernels.vals[k], accel, ks->accel.refused, &a);
	subrun_arg(&a, "--fail-all");
	subrun_arg(&a, why);
	subrun_dir(&ks->sub, dir, rows >= 0, &a);
	fprintf(stderr, "kernel %s: %d of %d points have no row: failed (%s)\n",
		ks->cfg->kernels.vals[k], ks->nr_todo - (rows < 0 ? 0 : rows), ks->nr_todo, why);
	spawn_and_wait(&a);
	if (ks->status < EXIT_POINTS_FAILED)
		ks->status = EXIT_POINTS_FAILED;
}

static void note_status(struct kernel_sweep *ks, int status)
{
	if (status == EXIT_INTERRUPTED || status == 128 + SIGINT || status == 128 + SIGTERM)
		stop_requested = 1;
	else if (status > ks->status)
		ks->status = status;
}

static void run_on_host(struct kernel_sweep *ks, int k)
{
	struct subrun_argv a;
	char why[128];
	int status;

	if (all_finished(ks, k))
		return;
	fprintf(stderr, "kernel host: running the sweep here\n");
	subrun_argv(&ks->sub, ks->cfg->kernels.vals[k], NULL, NULL, &a);
	subrun_dir(&ks->sub, ks->runs[k], !access(ks->runs[k], F_OK), &a);
	status = spawn_and_wait(&a);
	note_status(ks, status);
	snprintf(why, sizeof(why), "bpfsweep exited with status %d before this point", status);
	fail_missing(ks, k, false, why);
}

/* From the guest's boot to its job's end: far more than the plan says, but not forever. */
static uint64_t run_timeout(const struct kernel_sweep *ks)
{
	return RUN_TIMEOUT_FACTOR * plan_estimate_ns(ks->cfg, &ks->plan) +
	       (uint64_t)ks->nr_todo * RUN_TIMEOUT_PER_POINT_S * NSEC_PER_SEC +
	       RUN_TIMEOUT_BASE_S * NSEC_PER_SEC;
}

/*
 * OUT/vm/<n>: the export the guest writes (job, booted, status, result/)
 * and its console; OUT/vm/<n>-2 and on for the boots of later resumes.
 */
static int make_share(const struct kernel_sweep *ks, int k, char *share, size_t len)
{
	char vm[PATH_MAX + 8];
	int err = 0;

	snprintf(vm, sizeof(vm), "%s/vm", ks->dir);
	if (mkdir(vm, 0755) && errno != EEXIST)
		return -errno;
	for (int boot = 1; boot < 100; boot++) {
		if (boot == 1)
			snprintf(share, len, "%s/%d", vm, k + 1);
		else
			snprintf(share, len, "%s/%d-%d", vm, k + 1, boot);
		err = mkdir(share, 0755) ? -errno : 0;
		if (err != -EEXIST)
			break;
	}
	return err;
}

static void vm_reason(const struct vm_outcome *out, char *why, size_t len)
{
	if (out->status < 0)
		snprintf(why, len, "%s", out->reason);
	else
		snprintf(why, len, "bpfsweep in the guest (kernel %s) exited with status %d "
			 "before this point", out->release, out->status);
}

static void run_in_vm(struct kernel_sweep *ks, int k)
{
	char share[PATH_MAX + 16], console[PATH_MAX + 32], result[PATH_MAX + 32], image[PATH_MAX];
	char why[1100];
	const char *accel = vm_accel_names[ks->accel.accel];
	struct subrun_argv a;
	struct vm_outcome out;
	/* the console goes to stderr: stdout is the sweep's table (-f json) */
	struct vm_job job = {
		.image = image, .ka = &ks->cfg->kernels, .accel = ks->accel.accel, .share = share,
		.console = console, .cwd = ks->cwd, .argv = a.argv,
		.run_timeout_ns = run_timeout(ks), .echo = stderr, .stop = &stop_requested,
	};
	bool resume;
	int err;

	if (all_finished(ks, k))
		return;
	/* vm_accel = kvm that cannot run: every point of the kernel fails, saying so */
	if (ks->accel_err) {
		fail_missing(ks, k, true, ks->accel_why);
		return;
	}
	err = make_share(ks, k, share, sizeof(share));
	if (err)
		snprintf(why, sizeof(why), "cannot create %.900s: %s", share, strerror(-err));
	snprintf(console, sizeof(console), "%s/console.log", share);
	snprintf(result, sizeof(result), "%s/result", share);
	if (!err)
		err = kernel_image(ks->cfg->kernels.vals[k], image, sizeof(image), why, sizeof(why));
	/* a resumed kernel's directory goes where the guest can continue it */
	resume = !err && !access(ks->runs[k], F_OK);
	if (resume && rename(ks->runs[k], result)) {
		snprintf(why, sizeof(why), "cannot move %.400s to %.400s: %s", ks->runs[k], result,
			 strerror(errno));
		err = -errno;
	}
	subrun_argv(&ks->sub, ks->cfg->kernels.vals[k], accel, ks->accel.refused, &a);
	subrun_dir(&ks->sub, VM_GUEST_DIR "/result", resume, &a);
	if (!err) {
		fprintf(stderr, "kernel %s: booting it in a VM (%s), console in %s\n",
			ks->cfg->kernels.vals[k], accel, console);
		err = vm_run(&job, &out);
		if (err)
			snprintf(why, sizeof(why), "%s", out.reason);
	}
	if (!err) {
		vm_reason(&out, why, sizeof(why));
		if (out.interrupted)
			stop_requested = 1;
		else if (out.status >= 0)
			note_status(ks, out.status);
	}
	/* the guest's result directory joins the others; the share keeps the console */
	if (!access(result, F_OK) && rename(result, ks->runs[k]))
		diag_err("cannot move %s to %s: %s", result, ks->runs[k], strerror(errno));
	fail_missing(ks, k, true, why);
}

/*
 * OUT/meta: this host's facts as a run's meta has them (is the host itself
 * virtualised, its lockdown and config), then what the sweep is: its
 * kernels in order and the VM settings.
 */
static int write_meta(const struct kernel_sweep *ks)
{
	const struct kernel_axis *ka = &ks->cfg->kernels;
	struct run_info info = {
		.start = time(NULL), .tags = ks->o->tags, .argv_line = ks->o->argv_line,
		.quick = ks->o->quick,
	};
	char path[PATH_MAX + 8], value[PATH_MAX + 32], list[MAX_KERNELS * 256];
	size_t off = 0;
	int err;

	/* "kernel: host build/patched/bzImage": the axis, not the kernel this runs on */
	for (int k = 0; k < ka->nr && off < sizeof(list); k++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s", k ? " " : "", ka->vals[k]);
	info.kernel = list;
	snprintf(path, sizeof(path), "%s/meta", ks->dir);
	err = meta_write(path, ks->cfg, &info);
	snprintf(value, sizeof(value), "%d kernel%s", ka->nr, ka->nr == 1 ? "" : "s");
	err = err ?: meta_append(path, "kernel_sweep", value);
	for (int k = 0; !err && k < ka->nr; k++) {
		snprintf(value, sizeof(value), "%d %s", k + 1, ka->vals[k]);
		err = meta_append(path, "run", value);
	}
	/* one line: a run's vm_accel says how it ran, this what was asked */
	snprintf(value, sizeof(value), "accel %s, %d CPUs, %lld MiB, boot timeout %llu s",
		 vm_accel_names[ka->accel], ka->cpus, ka->mem >> 20,
		 (unsigned long long)(ka->boot_timeout_ns / NSEC_PER_SEC));
	return err ?: meta_append(path, "vm", value);
}

static void run_paths(struct kernel_sweep *ks)
{
	for (int k = 0; k < ks->cfg->kernels.nr; k++)
		snprintf(ks->runs[k], sizeof(ks->runs[k]), "%s/runs/%d", ks->dir, k + 1);
}

/* OUT, its spec and meta; the runs are OUT/runs/<n>. */
static int make_out(struct kernel_sweep *ks)
{
	char runs[PATH_MAX + 8];
	int err;

	if (ks->o->outdir)
		snprintf(ks->dir, sizeof(ks->dir), "%s", ks->o->outdir);
	else
		resultdir_default_path(ks->dir, sizeof(ks->dir), ks->cfg->name, time(NULL),
				       "-kernels");
	err = resultdir_create(ks->dir);
	if (err) {
		diag_err("cannot create result directory %s: %s", ks->dir, strerror(-err));
		return err;
	}
	snprintf(runs, sizeof(runs), "%s/runs", ks->dir);
	err = mkdir(runs, 0755) ? -errno : 0;
	err = err ?: resultdir_write_spec(ks->dir, ks->spec, false);
	err = err ?: write_meta(ks);
	if (err)
		diag_err("cannot write %s: %s", ks->dir, strerror(-err));
	run_paths(ks);
	return err;
}

/* "run: <n> <kernel>" of OUT/meta, against the kernel list of this command line. */
static int check_kernel_line(const struct kernel_sweep *ks, const char *value, int *n)
{
	const struct kernel_axis *ka = &ks->cfg->kernels;
	char want[PATH_MAX + 16];

	snprintf(want, sizeof(want), "%d %s", *n + 1, *n < ka->nr ? ka->vals[*n] : "");
	if (*n >= ka->nr || strcmp(value, want)) {
		diag_err("cannot resume %s: it ran kernel %s, this command line has %s", ks->dir,
			 value, *n < ka->nr ? want : "fewer kernels");
		return -EINVAL;
	}
	(*n)++;
	return 0;
}

/*
 * --resume OUT: a sweep over the same kernels, in the same order; its
 * tags come from OUT/meta (a kernel that never started gets them too).
 */
static int reopen_out(struct kernel_sweep *ks)
{
	char path[PATH_MAX + 8], *line, *save = NULL;
	int nr = 0, err;

	snprintf(ks->dir, sizeof(ks->dir), "%s", ks->o->resume);
	snprintf(path, sizeof(path), "%s/meta", ks->dir);
	if (ks->o->outdir || ks->o->nr_tags) {
		diag_err("--resume continues DIR with its own output and tags: give neither -o "
			 "nor --tag");
		return -EINVAL;
	}
	err = read_text_file(path, &ks->meta_text);
	if (err || !strstr(ks->meta_text, "\nkernel_sweep: ")) {
		diag_err("cannot resume %s: %s", ks->dir, err ? strerror(-err) :
			 "not the result directory of a sweep over kernels");
		return err ?: -EINVAL;
	}
	ks->tags = calloc(CLI_MAX_ARGS, sizeof(*ks->tags));
	for (line = strtok_r(ks->meta_text, "\n", &save); !err && line && ks->tags;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "run: ", 5))
			err = check_kernel_line(ks, line + 5, &nr);
		else if (!strncmp(line, "tag: ", 5) && ks->nr_tags < CLI_MAX_ARGS)
			ks->tags[ks->nr_tags++] = line + 5;
	}
	if (!err && nr != ks->cfg->kernels.nr)
		diag_err("cannot resume %s: it ran %d kernels, this command line has %d", ks->dir,
			 nr, ks->cfg->kernels.nr);
	run_paths(ks);
	err = err ?: (ks->tags ? 0 : -ENOMEM) ?: (nr != ks->cfg->kernels.nr ? -EINVAL : 0);
	return err ?: meta_append_time(path, "resumed", time(NULL));
}

/* What a kernel sweep cannot do, and what every sub-run needs, before anything boots. */
static int prepare(struct kernel_sweep *ks)
{
	const struct cli_opts *o = ks->o;
	int err;

	if (o->guest_of || o->fail_all) {
		diag_err("--guest-of and --fail-all: not for a sweep over kernels (its sub-runs "
			 "have --kernel host)");
		return -EINVAL;
	}
	if (cli_check_only(ks->cfg, o->only) || plan_build(ks->cfg, &ks->plan))
		return -EINVAL;
	for (int i = 0; i < ks->plan.nr_pts; i++) {
		const struct point *pt = &ks->plan.pts[i];

		ks->nr_todo += !o->only ||
			       !strcmp(experiment_title(ks->cfg, &ks->cfg->exps[pt->exp]), o->only);
	}
	if (!o->no_plots && plot_check_gnuplot(ks->cfg))
		return -EINVAL;
	err = spawn_self_path(ks->self, sizeof(ks->self));
	/* an ad hoc run's sub-runs name its workload, which resolves the same there */
	if (o->adhoc)
		snprintf(ks->spec_path, sizeof(ks->spec_path), "%s", o->spec_path);
	if (err || (!o->adhoc && !realpath(o->spec_path, ks->spec_path)) ||
	    !getcwd(ks->cwd, sizeof(ks->cwd))) {
		diag_err("cannot find bpfsweep, %s or the working directory: %s", o->spec_path,
			 strerror(err ? -err : errno));
		return -EINVAL;
	}
	return o->resume ? reopen_out(ks) : make_out(ks);
}

/* --by for the table blocks and chart series: the release, unless two kernels share one. */
static const char *pick_by(const struct kernel_sweep *ks)
{
	char rel[MAX_KERNELS][128] = { { 0 } };
	const char *v;

	if (ks->o->by)
		return ks->o->by;
	for (int r = 0; r < ks->nr_runs; r++) {
		struct result_set *set;
		char why[64];

		if (results_read(ks->run_dirs[r], &set, why, sizeof(why)))
			return "kernel";
		v = result_meta(set, "kernel_release");
		snprintf(rel[r], sizeof(rel[r]), "%s", v ?: "");
		result_set_free(set);
		for (int q = 0; q < r; q++)
			if (!strcmp(rel[q], rel[r]))
				return "kernel";
	}
	return "kernel_release";
}

/* One result set of every kernel's run: merged CSVs, then report's table and charts. */
static int merge_and_draw(struct kernel_sweep *ks)
{
	static struct cli_opts ro;
	const char *out[] = { ks->dir };
	char meta[PATH_MAX + 8];
	int status;

	for (int k = 0; k < ks->cfg->kernels.nr; k++)
		if (!access(ks->runs[k], F_OK))
			ks->run_dirs[ks->nr_runs++] = ks->runs[k];
	if (!ks->nr_runs || merge_in_place(ks->dir, ks->run_dirs, ks->nr_runs))
		return EXIT_POINTS_FAILED;
	ro = *ks->o;
	ro.args = out;
	ro.nr_args = 1;
	ro.outdir = NULL;
	ro.by = pick_by(ks);
	snprintf(meta, sizeof(meta), "%s/meta", ks->dir);
	/* so that report OUT, later, names the kernels the same way */
	if (!ks->o->by)
		meta_append(meta, "report_by", ro.by);
	status = cmd_report(&ro);
	meta_append_time(meta, "end", time(NULL));
	fprintf(stderr, "results: %s\n", ks->dir);
	return status;
}

int kernel_sweep(const struct cli_opts *o, struct spec *spec, struct sweep_cfg *cfg)
{
	static struct kernel_sweep ks;
	int status;

	ks = (struct kernel_sweep){ .o = o, .spec = spec, .cfg = cfg, .tags = (const char **)o->tags,
				    .nr_tags = o->nr_tags };
	if (prepare(&ks)) {
		status = EXIT_USAGE;
		goto out;
	}
	ks.sub = (struct subrun){ .self = ks.self, .spec_path = ks.spec_path, .o = o,
				  .tags = ks.tags, .nr_tags = ks.nr_tags };
	/* one probe for every VM of the sweep; its verdict goes down to each guest's meta */
	if (kernel_axis_has_vm(&cfg->kernels))
		ks.accel_err = vm_pick_accel(&cfg->kernels, &ks.accel, ks.accel_why,
					     sizeof(ks.accel_why));
	if (ks.accel_err)
		diag_err("%s", ks.accel_why);
	/* Ctrl-C stops the sweep after the sub-run that gets it too */
	stop_catch();
	for (int k = 0; k < cfg->kernels.nr && !stop_requested; k++) {
		if (!strcmp(cfg->kernels.vals[k], KERNEL_HOST))
			run_on_host(&ks, k);
		else
			run_in_vm(&ks, k);
	}
	status = merge_and_draw(&ks);
	if (status < ks.status)
		status = ks.status;
	if (stop_requested)
		status = EXIT_INTERRUPTED;
out:
	if (ks.meta_text) {
		free(ks.meta_text);
		free(ks.tags);
	}
	plan_free(&ks.plan);
	sweep_cfg_free(cfg);
	spec_free(spec);
	return status;
}
