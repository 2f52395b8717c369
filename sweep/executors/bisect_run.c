// SPDX-License-Identifier: GPL-2.0
/*
 * A bisect's rounds (bisect_run.h).  Why a child `bpfsweep run` per round
 * and not the kernel sweep in this process: each round is then a whole
 * result directory of its own, written, merged and ended by the code every
 * other run uses (report, compare and --resume read it as any), and a
 * round cut short is continued by that run's own --resume.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect_run.h"
#include "diag.h"
#include "exitcode.h"
#include "results_read.h"
#include "runfacts.h"
#include "stop.h"
#include "subproc.h"
#include "textfile.h"

/* the run's own orchestrator times its sub-run out; this only bounds a run that hangs */
#define ROUND_TIMEOUT_MS	(24u * 3600 * 1000)
/* a Ctrl-C reached the run too: it stops at a point's boundary */
#define ROUND_STOP_MS		(120u * 1000)

/* options of the round's run before its --set: run SPEC --kernel K -o|--resume DIR ... */
#define ROUND_FIXED_ARGS	12

/* Did the run in dir end (its meta's "end:" line): nothing of it is left to run. */
static bool round_finished(const char *dir)
{
	char path[4300], *meta = NULL;
	bool end;

	snprintf(path, sizeof(path), "%s/meta", dir);
	if (read_text_file(path, &meta))
		return false;
	end = strstr(meta, "\nend: ") != NULL;
	free(meta);
	return end;
}

/* The round's argv: the run of the spec on image, into rd->dir (or resuming it). */
static void round_argv(const struct bisect_runner *br, const char *image,
		       const struct bisect_round *rd, bool resume, const char **argv)
{
	int n = 0;

	argv[n++] = br->self;
	argv[n++] = "run";
	argv[n++] = br->spec_path;
	argv[n++] = "--kernel";
	argv[n++] = image;
	argv[n++] = resume ? "--resume" : "-o";
	argv[n++] = rd->dir;
	/* a round's table is read back, not looked at: no charts, no page */
	argv[n++] = "--no-plots";
	if (br->only) {
		argv[n++] = "--only";
		argv[n++] = br->only;
	}
	if (br->quick)
		argv[n++] = "--quick";
	for (int i = 0; i < br->nr_sets; i++) {
		argv[n++] = "--set";
		argv[n++] = br->sets[i];
	}
	argv[n] = NULL;
}

int bisect_run_round(const struct bisect_runner *br, const char *image, const char *base, int r,
		     struct bisect_round *rd, char *why, size_t len)
{
	const char *argv[ROUND_FIXED_ARGS + 2 * BISECT_MAX_SETS + 1];
	char log[4300], meta[4300];
	bool resume;
	pid_t pid;
	int err;

	*rd = (struct bisect_round){ 0 };
	snprintf(rd->dir, sizeof(rd->dir), "%s/%d", base, r);
	snprintf(log, sizeof(log), "%s/log", base);
	snprintf(meta, sizeof(meta), "%s/meta", rd->dir);
	if (round_finished(rd->dir)) {
		rd->reused = true;
		return 0;
	}
	/* begun before and cut short: its own --resume runs the rest */
	resume = !access(meta, F_OK);
	round_argv(br, image, rd, resume, argv);
	err = spawn(argv, &(struct spawn_opts){ .log = log }, &pid);
	err = err ?: spawn_wait_stop(pid, ROUND_TIMEOUT_MS, &stop_requested);
	if (err == -EINTR)
		spawn_wait(pid, ROUND_STOP_MS);
	if (err == -EINTR || stop_requested) {
		snprintf(why, len, "interrupted");
		return -EINTR;
	}
	if (err < 0) {
		snprintf(why, len, "cannot run bpfsweep: %s", strerror(-err));
		return err;
	}
	rd->status = err;
	if (err == EXIT_USAGE) {
		snprintf(why, len, "the run refused its spec or options (%s)", log);
		return -EINVAL;
	}
	return 0;
}

/* Do the run's rows differ in parameter column c? */
static bool param_varies(const struct result_set *rs, int c)
{
	for (int i = 1; i < rs->nr_points; i++)
		if (strcmp(rs->summary.rows[rs->points[i].row][c],
			   rs->summary.rows[rs->points[0].row][c]))
			return true;
	return false;
}

/* "producer only, producers=4": the point's experiment and the parameters its rows vary in. */
static void row_name(const struct result_set *rs, const struct result_point *pt, char *buf,
		     size_t len)
{
	size_t n = snprintf(buf, len, "%s", pt->experiment ? pt->experiment : "");

	for (int c = rs->first_param; c < rs->first_param + rs->nr_params && n < len; c++)
		if (param_varies(rs, c))
			n += snprintf(buf + n, len - n, "%s%s=%s", n ? ", " : "",
				      rs->summary.rows[0][c], rs->summary.rows[pt->row][c]);
}

/*
 * The run of dir: a sweep over one kernel in a VM has it in runs/1 (dir's
 * own CSVs are the merge's, with a run column), a run on the host is dir.
 */
static int read_run(const char *dir, struct result_set **rs)
{
	char run[4300], why[512] = "";
	int err;

	snprintf(run, sizeof(run), "%s/runs/1", dir);
	if (access(run, F_OK))
		snprintf(run, sizeof(run), "%s", dir);
	err = results_read(run, rs, why, sizeof(why));
	if (err)
		results_read_diag(run, err, why);
	return err;
}

int bisect_read_points(const char *dir, struct bisect_point **pts, long long **ids, int *nr)
{
	struct result_set *rs;
	int err = read_run(dir, &rs);

	if (err)
		return err;
	*pts = calloc(rs->nr_points ? rs->nr_points : 1, sizeof(**pts));
	*ids = calloc(rs->nr_points ? rs->nr_points : 1, sizeof(**ids));
	*nr = 0;
	for (int i = 0; *pts && *ids && i < rs->nr_points; i++) {
		row_name(rs, &rs->points[i], (*pts)[i].name, sizeof((*pts)[i].name));
		(*ids)[i] = rs->points[i].id;
		(*nr)++;
	}
	result_set_free(rs);
	return *pts && *ids ? 0 : -ENOMEM;
}

/* The headline metric: the first whose mean summary.csv has. */
static const char *headline(const struct result_set *rs)
{
	for (int c = 0; c < rs->summary.nr_cols; c++)
		if (rs->cols[c].metric[0] && !strcmp(rs->cols[c].stat, "mean"))
			return rs->cols[c].metric;
	return NULL;
}

static void read_one(const struct result_set *rs, const struct result_point *pt,
		     const char *metric, struct bisect_obs *o)
{
	double units = metric ? result_summary_stat(rs, pt->row, metric, "units") : NAN;

	snprintf(o->status, sizeof(o->status), "%s", pt->status ? pt->status : "");
	snprintf(o->reason, sizeof(o->reason), "%s", result_summary_cell(rs, pt->row, "reason"));
	o->n = isnan(units) ? 0 : (long)units;
	o->mean = metric ? result_summary_stat(rs, pt->row, metric, "mean") : NAN;
	o->sd = metric ? result_summary_stat(rs, pt->row, metric, "unit_sd") : NAN;
	if (isnan(o->mean) || isnan(o->sd))
		o->n = 0;
}

int bisect_read_obs(const char *dir, const long long *ids, int nr, struct bisect_obs *obs,
		    bool *tcg, bool *icount)
{
	struct result_set *rs;
	const char *metric;
	int err = read_run(dir, &rs);

	if (err)
		return err;
	metric = headline(rs);
	*tcg = run_is_tcg(rs);
	*icount = run_is_icount(rs);
	for (int i = 0; i < nr; i++) {
		obs[i] = (struct bisect_obs){ .status = "" };
		for (int p = 0; p < rs->nr_points; p++)
			if (rs->points[p].id == ids[i])
				read_one(rs, &rs->points[p], metric, &obs[i]);
	}
	result_set_free(rs);
	return 0;
}
