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
	err = mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
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

/*
 * Slot s's settings file, OUT/subrun/<n>.settings, or with fail_all
 * (failed rows saying it) <n>-failed.settings, into s->settings.
 */
static int write_settings(struct orchestrator *or, struct subrun_slot *s, bool resume,
			  const char *fail_all)
{
	struct subrun_settings set;
	char name[32];
	int err;

	subrun_kernel_settings(&or->sub, s->label, s->accel, s->accel_reason, resume, &set);
	set.fail_all = fail_all;
	snprintf(name, sizeof(name), "%d%s.settings", s->index + 1, fail_all ? "-failed" : "");
	err = subrun_settings_write(or->sub_dir, name, &set, s->settings, sizeof(s->settings));
	if (err)
		snprintf(s->why, sizeof(s->why), "cannot write its settings: %s", strerror(-err));
	return err;
}

void orch_add(struct orchestrator *or, const char *label)
{
	int k = or->nr_slots++;

	snprintf(or->runs[k], sizeof(or->runs[k]), "%s/runs/%d", or->dir, k + 1);
	or->slots[k] = (struct subrun_slot){ .index = k, .label = label, .local = or->runs[k],
					     .status = -1 };
}

int orch_rows_in(const char *dir, bool finished)
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

/* --resume: a sub-run whose points all finished before runs nothing now. */
static bool all_finished(const struct orchestrator *or, const struct subrun_slot *s)
{
	if (!or->resume || orch_rows_in(s->local, true) < or->nr_todo)
		return false;
	fprintf(stderr, "kernel %s: all %d points finished before\n", s->label, or->nr_todo);
	return true;
}

/*
 * Every point slot s did not run gets a failed row saying why: a sub-run
 * on this host with --fail-all, into a new directory or resuming the
 * partial one.
 */
static void fail_missing(struct orchestrator *or, struct subrun_slot *s)
{
	struct subrun_argv a;
	int rows = orch_rows_in(s->local, false);

	if (rows >= or->nr_todo || stop_requested)
		return;
	fprintf(stderr, "kernel %s: %d of %d points have no row: failed (%s)\n", s->label,
		or->nr_todo - (rows < 0 ? 0 : rows), or->nr_todo, s->why);
	if (!write_settings(or, s, rows >= 0, s->why)) {
		subrun_argv(or->sub.self, or->sub.spec_path, s->settings, s->local, rows >= 0, &a);
		executor_host_spawn(a.argv, or->timeout_ns);
	}
	if (or->status < EXIT_POINTS_FAILED)
		or->status = EXIT_POINTS_FAILED;
}

static void note_status(struct orchestrator *or, const struct subrun_slot *s)
{
	if (s->interrupted || s->status == EXIT_INTERRUPTED || s->status == 128 + SIGINT ||
	    s->status == 128 + SIGTERM)
		stop_requested = 1;
	else if (s->status > or->status)
		or->status = s->status;
}

void orch_run(struct orchestrator *or, int k, struct executor *ex)
{
	struct subrun_slot *s = &or->slots[k];
	struct subrun_argv a;

	if (all_finished(or, s))
		return;
	if (!ex->ops->prepare(ex, s) && !write_settings(or, s, s->resume, NULL)) {
		subrun_argv(or->sub.self, or->sub.spec_path, s->settings, s->dir, s->resume, &a);
		if (!ex->ops->run(ex, s, a.argv, or->timeout_ns))
			note_status(or, s);
	}
	ex->ops->fetch(ex, s);
	fail_missing(or, s);
	if (ex->ops->cleanup)
		ex->ops->cleanup(ex, s);
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
		if (!access(or->runs[k], F_OK))
			or->run_dirs[or->nr_runs++] = or->runs[k];
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
