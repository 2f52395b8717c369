// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep over kernels: every point on every kernel of [sweep] kernel (or
 * --kernel).  Each kernel is one sub-run of this same command, with the
 * same spec and options, into OUT/runs/<n>, driven by the orchestrator
 * (orchestrator.h) through an executor (executor.h): on the host a child
 * process, on any other kernel a VM that boots it once.  Points a kernel
 * did not run (it did not boot, its guest stopped) get a failed row with
 * the reason; the runs are merged (a kernel column on every row) and
 * drawn: a table block and a chart series per kernel.  What stays here:
 * what OUT (outdir.h) holds of a sweep over kernels, --resume's check of
 * its kernels, and what names them.  Layout and protocol: docs/kernel.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conductor.h"
#include "diag.h"
#include "executor.h"
#include "kernels.h"
#include "kernelsweep.h"
#include "meta.h"
#include "outdir.h"
#include "plan.h"
#include "plot.h"
#include "results_read.h"
#include "satmath.h"
#include "stop.h"
#include "subproc.h"
#include "textfile.h"
#include "vm_cmdline.h"

/* a sub-run's settings have room for every tag OUT/meta keeps, and its executor's */
_Static_assert(KSWEEP_MAX_TAGS + 1 <= SUBRUN_MAX_TAGS, "SUBRUN_MAX_TAGS too small");

#define NSEC_PER_SEC		1000000000ULL

struct kernel_sweep {
	const struct orch_request *rq;
	struct spec *spec;
	struct sweep_cfg *cfg;
	struct plan plan;
	struct outdir out;		/* OUT, held and locked (outdir.h) */
	const char *dir;		/* out.path */
	char self[PATH_MAX];		/* this binary: the sub-runs and the guest's init */
	char cwd[PATH_MAX];
	struct orchestrator orch;	/* the sub-runs, a kernel each */
	/*
	 * What runs the kernels but the host: one VM after another, or with
	 * decide all at once, each its own (vms[k] for kernel k), their units
	 * in rounds (conductor.h)
	 */
	struct executor_vm vms[MAX_KERNELS];
	bool rounds;
	struct conductor conductor;
	/* on --resume: OUT/meta, and the tags it keeps (pointing into it) for the sub-runs */
	char *meta_text;
	const char **tags;
	int nr_tags;
};

/* "<n> <kernel>": OUT/meta's run line of kernel k, written, and on --resume compared. */
static void run_line(const struct kernel_list *kl, int k, char *buf, size_t len)
{
	snprintf(buf, len, "%d %s", k + 1, kl->vals[k]);
}

/*
 * OUT/meta after the host's facts (a run's meta of this machine: is the
 * host itself virtualised, its lockdown and config): what the sweep is,
 * its kernels in order and the VM settings.
 */
static int more_meta(const struct outdir *od, void *arg)
{
	const struct kernel_sweep *ks = arg;
	const struct kernel_axis *ka = &ks->cfg->kernels;
	char value[PATH_MAX + 32];
	int err;

	snprintf(value, sizeof(value), "%d kernel%s", ka->list.nr, ka->list.nr == 1 ? "" : "s");
	err = outdir_meta_append(od, "kernel_sweep", value);
	for (int k = 0; !err && k < ka->list.nr; k++) {
		run_line(&ka->list, k, value, sizeof(value));
		err = outdir_meta_append(od, "run", value);
	}
	if (!err && ks->rounds)
		err = outdir_meta_append(od, "kernel_rounds", "every point's units alternate "
					 "between the kernels, shuffled each round (seed: point "
					 "id + 1); the first kernel is the baseline");
	/* one line: a run's vm_accel says how it ran, this what was asked */
	snprintf(value, sizeof(value), "accel %s, %d CPUs, %lld MiB, boot timeout %llu s",
		 vm_accel_names[ka->accel], ka->cpus, ka->mem >> 20,
		 (unsigned long long)(ka->boot_timeout_ns / NSEC_PER_SEC));
	return err ?: outdir_meta_append(od, "vm", value);
}

/* "run: <n> <kernel>" of OUT/meta, against the kernel list of this command line. */
static int check_kernel_line(const struct kernel_sweep *ks, const char *value, int *n)
{
	const struct kernel_list *kl = &ks->cfg->kernels.list;
	char want[PATH_MAX + 16];

	if (*n < kl->nr)
		run_line(kl, *n, want, sizeof(want));
	if (*n >= kl->nr || strcmp(value, want)) {
		diag_err("cannot resume %s: it ran kernel %s, this command line has %s", ks->dir,
			 value, *n < kl->nr ? want : "fewer kernels");
		return -EINVAL;
	}
	(*n)++;
	return 0;
}

/*
 * --resume OUT: a sweep over the same kernels, in the same order; its
 * tags come from OUT/meta (a kernel that never started gets them too).
 */
static int check_reopened(struct kernel_sweep *ks)
{
	char path[PATH_MAX + 8], *line, *save = NULL;
	int nr = 0, err;

	outdir_file(&ks->out, "meta", path, sizeof(path));
	err = read_text_file(path, &ks->meta_text);
	if (err || !strstr(ks->meta_text, "\nkernel_sweep: ")) {
		diag_err("cannot resume %s: %s", ks->dir, err ? strerror(-err) :
			 "not the result directory of a sweep over kernels");
		return err ?: -EINVAL;
	}
	ks->tags = calloc(KSWEEP_MAX_TAGS, sizeof(*ks->tags));
	for (line = strtok_r(ks->meta_text, "\n", &save); !err && line && ks->tags;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "run: ", 5))
			err = check_kernel_line(ks, line + 5, &nr);
		else if (!strncmp(line, "tag: ", 5) && ks->nr_tags < KSWEEP_MAX_TAGS)
			ks->tags[ks->nr_tags++] = line + 5;
	}
	if (!err && nr != ks->cfg->kernels.list.nr)
		diag_err("cannot resume %s: it ran %d kernels, this command line has %d", ks->dir,
			 nr, ks->cfg->kernels.list.nr);
	err = err ?: (ks->tags ? 0 : -ENOMEM) ?: (nr != ks->cfg->kernels.list.nr ? -EINVAL : 0);
	return err ?: outdir_meta_time(&ks->out, "resumed", time(NULL));
}

/*
 * OUT (outdir.h): a new one with its spec, meta (the list, printed as its
 * text form: "kernel: host build/patched/bzImage") and OUT/runs, the runs'
 * parent; or on --resume the sweep's own, checked.
 */
static int open_out(struct kernel_sweep *ks)
{
	static const char *const subdirs[] = { "runs", NULL };
	const struct orch_request *rq = ks->rq;
	char list[KERNEL_LIST_TEXT_MAX];
	struct run_info info = { .start = time(NULL), .tags = rq->sub.tags,
				 .argv_line = rq->argv_line, .quick = rq->sub.quick,
				 .kernel = list };
	struct outdir_how how = {
		.who = "bpfsweep", .out = rq->out, .resume = rq->resume,
		.tagged = rq->sub.nr_tags, .metavar = "DIR", .name = ks->cfg->name,
		.suffix = "-kernels", .subdirs = subdirs, .spec = ks->spec, .cfg = ks->cfg,
		.info = &info, .more = more_meta, .ctx = ks,
	};

	if (kernel_list_print(&ks->cfg->kernels.list, list, sizeof(list))) {
		diag_err("cannot sweep over kernels: their paths are too long for OUT/meta");
		return -E2BIG;
	}
	return outdir_open(&ks->out, &how) ?: rq->resume ? check_reopened(ks) : 0;
}

/* What every sub-run needs, before anything boots. */
static int prepare(struct kernel_sweep *ks)
{
	const struct orch_request *rq = ks->rq;
	int err;

	/* what every kernel's points need of this machine's files: before any boot */
	if (plan_build(ks->cfg, &ks->plan) || plan_preflight(ks->cfg, &ks->plan, rq->sub.only))
		return -EINVAL;
	ks->orch.nr_todo = orch_count_todo(ks->cfg, &ks->plan, rq->sub.only);
	if (!rq->draw.no_plots && plot_check_gnuplot(ks->cfg))
		return -EINVAL;
	err = spawn_self_path(ks->self, sizeof(ks->self));
	if (err || !getcwd(ks->cwd, sizeof(ks->cwd))) {
		diag_err("cannot find bpfsweep or the working directory: %s",
			 strerror(err ? -err : errno));
		return -EINVAL;
	}
	err = open_out(ks);
	/* the sub-runs run the spec as resolved here: a file, not --set words */
	ks->orch.dir = ks->dir;
	return err ?: orch_write_spec(&ks->orch, ks->spec, ks->cfg->name);
}

/* --by for the table blocks and chart series: the release, unless two kernels share one. */
static const char *pick_by(const struct kernel_sweep *ks)
{
	char rel[MAX_KERNELS][128] = { { 0 } };
	const char *v;

	if (ks->rq->draw.by)
		return ks->rq->draw.by;
	for (int r = 0; r < ks->orch.nr_runs; r++) {
		struct result_set *set;
		char why[64];

		if (results_read(ks->orch.run_dirs[r], &set, why, sizeof(why)))
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
	struct draw_opts d = ks->rq->draw;
	int status;

	d.profile = ks->cfg->profile;	/* each point's top symbols, as a run prints them */
	orch_collect(&ks->orch);
	status = orch_merge_and_draw(ks->dir, ks->orch.run_dirs, ks->orch.nr_runs, &d, d.by,
				     d.by ? NULL : pick_by(ks));
	if (status < 0)
		return EXIT_POINTS_FAILED;
	outdir_meta_time(&ks->out, "end", time(NULL));
	fprintf(stderr, "results: %s\n", ks->dir);
	return status;
}

/* The orchestrator of the kernels, a sub-run each, and the VM executor when one boots. */
static void start_orch(struct kernel_sweep *ks)
{
	struct orchestrator *or = &ks->orch;

	or->resume = ks->rq->resume;
	or->timeout_ns = orch_timeout_ns(ks->cfg, &ks->plan, or->nr_todo);
	/* in rounds a sub-run waits while every other kernel runs its units */
	if (ks->rounds)
		or->timeout_ns = sat_mul_u64(or->timeout_ns, ks->cfg->kernels.list.nr);
	or->sub = ks->rq->sub;
	or->sub.self = ks->self;
	or->sub.spec_path = or->spec_file;
	if (ks->rq->resume) {
		or->sub.tags = ks->tags;
		or->sub.nr_tags = ks->nr_tags;
	}
	if (kernel_axis_has_vm(&ks->cfg->kernels))
		executor_vm_init(&ks->vms[0], &ks->cfg->kernels, ks->dir, ks->cwd);
	for (int k = 0; k < ks->cfg->kernels.list.nr; k++) {
		const char *kernel = ks->cfg->kernels.list.vals[k];
		bool host = kernel_is_host(kernel);
		struct subrun_slot *s;

		/* the accelerator probed once, for every guest */
		if (ks->rounds && k)
			ks->vms[k] = ks->vms[0];
		s = orch_add(or, kernel, host ? &executor_host : &ks->vms[ks->rounds ? k : 0].ex,
			     NULL);
		if (ks->rounds) {
			s->gate_pipe = ks->conductor.pipes[k];
			s->gate = host ? s->gate_pipe : VM_GUEST_GATE;
		}
	}
}

/* orch_run_all()'s check, once every place is ready: the rounds begin. */
static int start_rounds(struct orchestrator *or, void *arg)
{
	struct kernel_sweep *ks = arg;
	int err = conductor_start(&ks->conductor, or->slots);

	if (err)
		diag_err("cannot start the rounds across kernels: %s", strerror(-err));
	return err;
}

/*
 * Every kernel's sub-run, one after another; with decide all at once, a
 * point's units alternating between them in rounds (conductor.h).
 */
static void run_kernels(struct kernel_sweep *ks)
{
	if (!ks->rounds) {
		for (int k = 0; k < ks->cfg->kernels.list.nr && !stop_requested; k++)
			orch_run(&ks->orch, k);
		return;
	}
	orch_run_all(&ks->orch, start_rounds, ks);
	conductor_finish(&ks->conductor);
	fprintf(stderr, "rounds across kernels: %d of %d points decided\n",
		ks->conductor.nr_decided, ks->conductor.nr_points);
}

/* The sweep, its OUT prepared; its exit status. */
static int sweep(struct kernel_sweep *ks)
{
	int status;

	start_orch(ks);
	/* Ctrl-C stops the sweep after the sub-run that gets it too */
	stop_catch();
	run_kernels(ks);
	status = merge_and_draw(ks);
	if (status < ks->orch.status)
		status = ks->orch.status;
	if (stop_requested) {
		status = stop_exit_status(stop_requested);
		fprintf(stderr, "interrupted: the same command with --resume %s (instead of -o) "
			"runs the rest\n", ks->dir);
	}
	return status;
}

int kernel_sweep(const struct orch_request *rq, struct spec *spec, struct sweep_cfg *cfg)
{
	/* on the heap: a VM executor per kernel makes it large */
	struct kernel_sweep *ks = calloc(1, sizeof(*ks));
	int status = EXIT_USAGE;

	if (!ks) {
		diag_err("cannot sweep over kernels: %s", strerror(ENOMEM));
		goto out;
	}
	*ks = (struct kernel_sweep){ .rq = rq, .spec = spec, .cfg = cfg };
	ks->dir = ks->out.path;
	ks->rounds = cfg->decide_pct > 0 && cfg->kernels.list.nr > 1;
	if (!prepare(ks) && !(ks->rounds && conductor_open(&ks->conductor, cfg, &ks->plan,
							  cfg->kernels.list.nr)))
		status = sweep(ks);
	outdir_close(&ks->out);
	free(ks->meta_text);
	free(ks->tags);
	plan_free(&ks->plan);
out:
	free(ks);
	sweep_cfg_free(cfg);
	spec_free(spec);
	return status;
}
