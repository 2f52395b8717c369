/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One life cycle for sub-runs, whatever runs them (executor.h): each
 * sub-run writes OUT/runs/<n>, within one timeout formula; the points it
 * left without a row get a failed row saying why (a fail-all sub-run on
 * this host), so every sub-run has a row per point; the runs are then
 * merged in OUT and drawn (a table block and a chart series per run).
 * Its users: the kernel sweep (kernelsweep.c: a sub-run per kernel, one
 * after another, orch_run()) and the fleet (fleet.c: a sub-run per
 * host, all at once, orch_run_all()); OUT's meta and what the runs are
 * named by stay with them.
 */
#ifndef SWEEP_ORCHESTRATOR_H
#define SWEEP_ORCHESTRATOR_H

#include <limits.h>
#include <stdint.h>

#include "draw.h"
#include "executor.h"
#include "hosts.h"
#include "kernels.h"
#include "plan.h"
#include "spec.h"
#include "subrun.h"

/* a kernel sweep's sub-runs, one per kernel, or a fleet's, one per host */
#define ORCH_MAX_RUNS	(MAX_KERNELS > HOSTS_MAX ? MAX_KERNELS : HOSTS_MAX)

struct orchestrator {
	bool resume;			/* --resume: a slot whose points all finished is skipped */
	/*
	 * The sub-runs run the spec as it is where they run, on that place's
	 * own kernel, each its slot's share (a fleet's hosts: subrun_place_settings());
	 * else each is one kernel of the axis (subrun_kernel_settings()).
	 */
	bool places;
	bool no_failed_rows;		/* the points a sub-run left without a row stay so */
	const char *noun;		/* what a slot's label names, in progress: "kernel" */
	const char *dir;		/* OUT */
	char spec_file[PATH_MAX];	/* OUT/subrun/<name>.spec, absolute (orch_write_spec()) */
	char sub_dir[PATH_MAX];		/* OUT/subrun, absolute: the spec and settings files */
	struct subrun sub;		/* what every sub-run gets (subrun.h) */
	int nr_todo;			/* points each sub-run runs (--only) */
	uint64_t timeout_ns;		/* each sub-run's, at most (orch_timeout_ns()) */
	struct subrun_slot slots[ORCH_MAX_RUNS];
	char runs[ORCH_MAX_RUNS][PATH_MAX + 32];	/* the slots' OUT/runs/<n> */
	int nr_slots;
	const char *run_dirs[ORCH_MAX_RUNS];	/* the slots' OUT/runs/<n> that exist */
	int nr_runs;
	int status;			/* the worst exit status of the sub-runs */
};

/*
 * What a command that drives sub-runs was asked, beside its spec (cli/
 * fills it from its options): OUT's part of the command line, what every
 * sub-run gets (sub: its self and spec_path are the driver's to fill),
 * and how OUT is drawn at the end.  A driver opens its OUT from out,
 * resume and sub.tags (outdir.h).
 */
struct orch_request {
	const char *out;		/* -o OUT, or NULL: results/<spec>/<stamp><suffix> */
	const char *resume;		/* --resume OUT */
	const char *argv_line;		/* the command line, for OUT/meta */
	struct subrun sub;		/* --quick, --only, --tag, --quiet-warning */
	struct draw_opts draw;		/* OUT's table, charts and page; draw.by: --by */
};

/*
 * The one timeout of a sub-run, from its start (a guest's boot, an ssh
 * login) to its end: far more than the plan says (TCG, set-up, a slower
 * host), but not forever.  plan NULL: the least (no estimate).
 */
uint64_t orch_timeout_ns(const struct sweep_cfg *cfg, const struct plan *plan, int nr_todo);

/* The points of plan that a sub-run of --only `only` (NULL: all) runs. */
int orch_count_todo(const struct sweep_cfg *cfg, const struct plan *plan, const char *only);

/*
 * The spec every sub-run runs, as resolved (its --set and --kernel applied,
 * as --save-spec writes it), into OUT/subrun/<name>.spec, so that its run
 * keeps the spec's name: or->spec_file, absolute (a guest starts in the
 * same directory, over the same paths).  Replaced on --resume.  Each
 * sub-run's settings go beside it: OUT/subrun/<n>.settings for kernel n,
 * <label>.settings for a place (a fleet's host), and -failed before
 * .settings for its failed rows.  0 or -errno (reported).
 */
int orch_write_spec(struct orchestrator *or, const struct spec *spec, const char *name);

/*
 * The next slot (its label, run by ex, writing local: NULL for
 * OUT/runs/<k + 1>), of or->nr_todo points; label and local are kept by
 * pointer.  The slot, for the caller to add its share, tag or done.
 */
struct subrun_slot *orch_add(struct orchestrator *or, const char *label, struct executor *ex,
			     const char *local);

/*
 * Slot k: skipped when done, or on --resume when all its points finished
 * before; else prepared, run, fetched, its missing rows failed, cleaned.
 * A kernel's sub-run that was interrupted sets stop_requested (stop.h).
 */
void orch_run(struct orchestrator *or, int k);

/*
 * Every slot at once, a thread each (orch_parallel()), in two phases:
 * every place prepared, then check(or, arg) over them (NULL: none; a
 * refusal cleans every place up and runs nothing), then each slot run,
 * fetched, its missing rows failed, cleaned.  0, or check's refusal.
 */
int orch_run_all(struct orchestrator *or, int (*check)(struct orchestrator *or, void *arg),
		 void *arg);

/* Summary rows in dir (only those of finished points: ok or unsupported), or -1: none there. */
int orch_rows_in(const char *dir, bool finished);

/*
 * The exit status a run of the slots' rows (what the merge puts
 * together) has: EXIT_POINTS_FAILED when a slot has fewer ok or
 * unsupported rows than its points (a row failed or is missing), else
 * EXIT_OK.
 */
int orch_rows_status(const struct orchestrator *or);

/*
 * The runs in OUT/runs/<n> (runs, nr of them) merged in OUT (mergeset.h)
 * and drawn as base says, each named by `by` (the user's --by) or else by
 * by_default, which OUT/meta then keeps as report_by so that report OUT
 * names them the same way.  The draw's exit status; -ENOENT when there is
 * no run, -EIO when the merge failed (reported): nothing drawn.
 */
int orch_merge_and_draw(const char *dir, const char *const *runs, int nr,
			const struct draw_opts *base, const char *by, const char *by_default);

/*
 * fn(args[i]) for every i < nr at once, a thread each, joined: sub-runs
 * on places that do not share this machine (a fleet's hosts).  The
 * threads block SIGINT, SIGTERM and SIGHUP, so that this one takes them (stop.h)
 * and the sub-runs stop as their executors do.  Returns how many threads
 * started (those from args[started] on did not run).
 */
int orch_parallel(void *(*fn)(void *), void *const *args, int nr);

/* The slots' result directories that exist, in slot order, into or->run_dirs. */
void orch_collect(struct orchestrator *or);

#endif
