// SPDX-License-Identifier: GPL-2.0
/*
 * The sub-runs' life cycle (orchestrator.h), the same for every executor:
 * a sub-run into OUT/runs/<n>, failed rows for the points it left without
 * one, then every run merged in OUT and drawn.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "draw.h"
#include "heldir.h"
#include "meta.h"
#include "mergeset.h"
#include "orchestrator.h"
#include "resultdir.h"
#include "results_read.h"
#include "satmath.h"
#include "stop.h"

#define NSEC_PER_SEC		1000000000ULL
/* a sub-run may take this much longer than the plan's estimate (TCG, ssh, set-up) */
#define RUN_TIMEOUT_FACTOR	4
#define RUN_TIMEOUT_PER_POINT_S	60
#define RUN_TIMEOUT_BASE_S	300

uint64_t orch_timeout_ns(const struct sweep_cfg *cfg, const struct plan *plan, int nr_todo)
{
	uint64_t est = sat_mul_u64(RUN_TIMEOUT_FACTOR, plan ? plan_estimate_ns(cfg, plan) : 0);

	est = sat_add_u64(est, (uint64_t)nr_todo * RUN_TIMEOUT_PER_POINT_S * NSEC_PER_SEC);
	return sat_add_u64(est, RUN_TIMEOUT_BASE_S * NSEC_PER_SEC);
}

int orch_count_todo(const struct sweep_cfg *cfg, const struct plan *plan, const char *only)
{
	int n = 0;

	for (int i = 0; i < plan->nr_pts; i++)
		n += point_in_only(cfg, &plan->pts[i], only);
	return n;
}

static int fill_spec(FILE *f, const void *spec)
{
	return spec_write(spec, f);
}

int orch_write_spec(struct orchestrator *or, const struct spec *spec, const char *name)
{
	char dir[PATH_MAX + 16], file[PATH_MAX + 16];
	int err;

	snprintf(dir, sizeof(dir), "%s/subrun", or->dir);
	snprintf(file, sizeof(file), "%s.spec", name);
	err = heldir_mkdir(dir, 0755);
	err = err == -EEXIST ? 0 : err;
	err = err ?: resultdir_write_file(dir, file, true, fill_spec, spec);
	if (!err && !realpath(dir, or->sub_dir))
		err = -errno;
	if (err) {
		diag_err("cannot write %s/%s: %s", dir, file, strerror(-err));
		return err;
	}
	/* realpath() gave at most PATH_MAX bytes; the name fits beside it or is refused */
	if (snprintf(file, sizeof(file), "%s/%s.spec", or->sub_dir, name) >= PATH_MAX) {
		diag_err("%s/%s.spec: the path is too long", or->sub_dir, name);
		return -ENAMETOOLONG;
	}
	memcpy(or->spec_file, file, strlen(file) + 1);
	return 0;
}

struct subrun_slot *orch_add(struct orchestrator *or, const char *label, struct executor *ex,
			     const char *local)
{
	int k = or->nr_slots++;

	snprintf(or->runs[k], sizeof(or->runs[k]), "%s/runs/%d", or->dir, k + 1);
	or->slots[k] = (struct subrun_slot){ .index = k, .label = label, .ex = ex,
					     .local = local ?: or->runs[k], .out = or->dir,
					     .sub_dir = or->sub_dir,
					     .nr_todo = or->nr_todo, .status = -1 };
	return &or->slots[k];
}

int orch_rows_in(const char *dir, bool finished)
{
	struct result_set *set;
	char why[256], held[32];
	/* read beneath OUT as held here (heldir.h), whatever its path names now */
	int n = 0, fd = heldir_open_dir(dir), err;

	if (fd < 0)
		return -1;
	snprintf(held, sizeof(held), "/proc/self/fd/%d", fd);
	err = results_read(held, &set, why, sizeof(why));
	close(fd);
	if (err)
		return -1;
	for (int i = 0; i < set->nr_points; i++) {
		const char *st = set->points[i].status;

		n += !finished || !strcmp(st, "ok") || !strcmp(st, "unsupported");
	}
	result_set_free(set);
	return n;
}

static const char *noun(const struct orchestrator *or)
{
	return or->noun ?: "kernel";
}

/* --resume: a sub-run whose points all finished before runs nothing now. */
static bool all_finished(const struct orchestrator *or, const struct subrun_slot *s)
{
	if (!or->resume || orch_rows_in(s->local, true) < s->nr_todo)
		return false;
	fprintf(stderr, "%s %s: all %d points finished before\n", noun(or), s->label, s->nr_todo);
	return true;
}

/*
 * Slot s's settings (subrun.h) into OUT/subrun, its path into s->settings:
 * a kernel's (OUT/subrun/<n>.settings), or a place's share with the slot's
 * tag in a new directory (OUT/subrun/<label>.settings); with fail_all
 * (failed rows saying it) the name ends in -failed.  0 or -errno with s->why.
 */
static int write_settings(struct orchestrator *or, struct subrun_slot *s, bool resume,
			  const char *fail_all)
{
	struct subrun_settings set;
	char name[HOST_LABEL_LEN + 32], dir[PATH_MAX + 16];
	int err;

	if (or->places)
		subrun_place_settings(&or->sub, &s->shard, resume, &set);
	else
		subrun_kernel_settings(&or->sub, s->label, s->accel, s->accel_reason, resume, &set);
	if (!resume && s->tag)
		subrun_settings_tag(&set, s->tag);
	set.gate = fail_all ? NULL : s->gate;
	set.fail_all = fail_all;
	/* the rows of a place that never ran them are its machine's, not this one's */
	if (fail_all && !resume && or->places)
		set.place = s->place;
	if (or->places)
		snprintf(name, sizeof(name), "%s%s.settings", s->label, fail_all ? "-failed" : "");
	else
		snprintf(name, sizeof(name), "%d%s.settings", s->index + 1, fail_all ? "-failed" : "");
	/* written beneath the held OUT; named as realpath() gave OUT/subrun, for a guest too */
	snprintf(dir, sizeof(dir), "%s/subrun", or->dir);
	err = subrun_settings_write(dir, name, &set, s->settings, sizeof(s->settings));
	if (!err && (size_t)snprintf(s->settings, sizeof(s->settings), "%s/%s", or->sub_dir,
				     name) >= sizeof(s->settings))
		err = -ENAMETOOLONG;
	if (err)
		snprintf(s->why, sizeof(s->why), "cannot write its settings: %s", strerror(-err));
	return err;
}

/*
 * Every point slot s did not run gets a failed row saying why: a sub-run
 * on this host with fail-all, into a new directory or resuming the
 * partial one.  Not after a stop: what did not run then is to continue.
 */
static void fail_missing(struct orchestrator *or, struct subrun_slot *s)
{
	struct subrun_argv a;
	int rows = orch_rows_in(s->local, false), st;

	if (rows >= s->nr_todo || stop_requested || or->no_failed_rows)
		return;
	fprintf(stderr, "%s %s: %d of %d points have no row: failed (%s)\n", noun(or), s->label,
		s->nr_todo - (rows < 0 ? 0 : rows), s->nr_todo, s->why);
	if (!write_settings(or, s, rows >= 0, s->why)) {
		subrun_argv(or->sub.self, or->sub.spec_path, s->settings, s->local, rows >= 0, &a);
		st = executor_host_spawn(s, a.argv, or->timeout_ns);
		/* it knows its directory as /proc/self/fd/N/...: named here as the user gave OUT */
		if (or->places && st >= 0 && st <= EXIT_POINTS_FAILED)
			fprintf(stderr, "%s %s: failed rows written to %s\n", noun(or), s->label,
				s->local);
	}
	if (or->status < EXIT_POINTS_FAILED)
		or->status = EXIT_POINTS_FAILED;
}

/* An interrupted kernel of a sweep stops it; a place's (a host's) stops only itself. */
static void note_status(struct orchestrator *or, const struct subrun_slot *s)
{
	/* a sub-run stopped by a signal that reached it alone: the sweep ends as it did */
	if (!or->places && (s->interrupted || s->status == 128 + SIGINT ||
			    s->status == 128 + SIGTERM))
		stop_requested = stop_requested ?: s->status == 128 + SIGTERM ? SIGTERM : SIGINT;
	else if (s->status > or->status)
		or->status = s->status;
}

/* Slot k's place made ready (s->prepared), unless it has nothing to run. */
static void prepare_slot(struct orchestrator *or, int k)
{
	struct subrun_slot *s = &or->slots[k];

	s->done = s->done || all_finished(or, s);
	if (!s->done)
		s->prepared = !s->ex->ops->prepare(s->ex, s);
}

/* Slot k, prepared or not: run (unless a stop came first), fetched, failed rows, cleaned. */
static void finish_slot(struct orchestrator *or, int k)
{
	struct subrun_slot *s = &or->slots[k];
	struct subrun_argv a;

	if (s->done)
		return;
	if (s->prepared && stop_requested && !s->refused)
		s->interrupted = true;
	if (s->prepared && !stop_requested && !s->refused &&
	    !write_settings(or, s, s->resume, NULL)) {
		subrun_argv(or->sub.self, or->sub.spec_path, s->settings, s->dir, s->resume, &a);
		if (!s->ex->ops->run(s->ex, s, a.argv, or->timeout_ns))
			note_status(or, s);
	}
	__atomic_store_n(&s->ended, 1, __ATOMIC_RELEASE);
	if (!s->refused) {
		s->ex->ops->fetch(s->ex, s);
		fail_missing(or, s);
	}
	if (s->ex->ops->cleanup)
		s->ex->ops->cleanup(s->ex, s);
}

void orch_run(struct orchestrator *or, int k)
{
	prepare_slot(or, k);
	finish_slot(or, k);
}

/* A phase of orch_run_all() on one slot, in its thread. */
struct slot_job {
	struct orchestrator *or;
	int k;
	void (*phase)(struct orchestrator *or, int k);
};

static void *slot_thread(void *arg)
{
	struct slot_job *j = arg;

	j->phase(j->or, j->k);
	return NULL;
}

/*
 * phase on every slot at once; a slot whose thread did not start gets none
 * (why says so).  The jobs are this call's, on the heap: two orchestrators
 * may run their phases at once.
 */
static void each_slot(struct orchestrator *or, void (*phase)(struct orchestrator *or, int k))
{
	struct slot_job *jobs = calloc(or->nr_slots + 1, sizeof(*jobs));
	void *args[ORCH_MAX_RUNS];
	int started = 0;

	for (int k = 0; jobs && k < or->nr_slots; k++) {
		jobs[k] = (struct slot_job){ .or = or, .k = k, .phase = phase };
		args[k] = &jobs[k];
	}
	if (jobs)
		started = orch_parallel(slot_thread, args, or->nr_slots);
	for (int k = started; k < or->nr_slots; k++) {
		snprintf(or->slots[k].why, sizeof(or->slots[k].why), "cannot start a thread for it");
		or->slots[k].prepared = false;
	}
	free(jobs);
}

int orch_run_all(struct orchestrator *or, int (*check)(struct orchestrator *or, void *arg),
		 void *arg)
{
	int err = 0;

	each_slot(or, prepare_slot);
	/* after a stop nothing runs: the check has no reason to refuse */
	if (check && !stop_requested)
		err = check(or, arg);
	for (int k = 0; err && k < or->nr_slots; k++)
		or->slots[k].refused = true;
	each_slot(or, finish_slot);
	return err;
}

int orch_rows_status(const struct orchestrator *or)
{
	for (int k = 0; k < or->nr_slots; k++) {
		const struct subrun_slot *s = &or->slots[k];
		int finished = orch_rows_in(s->local, true);

		if (finished < s->nr_todo || orch_rows_in(s->local, false) > finished)
			return EXIT_POINTS_FAILED;
	}
	return EXIT_OK;
}

int orch_parallel(void *(*fn)(void *), void *const *args, int nr)
{
	pthread_t *tid = calloc(nr + 1, sizeof(*tid));
	sigset_t stop_sigs, old;
	int started = 0;

	if (!tid)
		return 0;
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, &old);
	while (started < nr && !pthread_create(&tid[started], NULL, fn, args[started]))
		started++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return started;
}

void orch_collect(struct orchestrator *or)
{
	or->nr_runs = 0;
	for (int k = 0; k < or->nr_slots; k++)
		if (!heldir_access(or->slots[k].local))
			or->run_dirs[or->nr_runs++] = or->slots[k].local;
}

int orch_merge_and_draw(const char *dir, const char *const *runs, int nr,
			const struct draw_opts *base, const char *by, const char *by_default)
{
	struct draw_opts d = *base;
	char meta[PATH_MAX + 8];

	if (!nr)
		return -ENOENT;
	if (merge_in_place(dir, runs, nr))
		return -EIO;
	d.by = by ?: by_default;
	snprintf(meta, sizeof(meta), "%s/meta", dir);
	if (!by)
		meta_append(meta, "report_by", d.by);
	return draw_in_place(&d, dir);
}
