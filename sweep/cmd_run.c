// SPDX-License-Identifier: GPL-2.0
/*
 * The run command: spec → points → runner → result directory.  Each
 * finished point is appended to the CSVs at once; the table and charts
 * are rendered at the end from whatever finished, even after Ctrl-C.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "caps.h"
#include "cli.h"
#include "diag.h"
#include "matrix.h"
#include "meta.h"
#include "plan.h"
#include "plot.h"
#include "results.h"
#include "runner.h"
#include "table.h"

struct run_state {
	const struct cli_opts *o;
	struct sweep_cfg *cfg;
	struct spec *spec;
	struct plan plan;
	struct point *pts;	/* of the plan */
	int nr_pts;
	char dir[4096];
	struct results *res;
	struct run_info info;
	const struct point_result *res_run;	/* the points that ran */
	int nr_run;
};

static void default_outdir(struct run_state *rs)
{
	char stamp[32];
	struct tm tm;

	gmtime_r(&rs->info.start, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(rs->dir, sizeof(rs->dir), "results/%s/%s", rs->cfg->name, stamp);
}

static int write_file(const char *dir, const char *name, struct run_state *rs,
		      int (*fn)(FILE *f, struct run_state *rs))
{
	char path[4200];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		err = -errno;
		diag_err("cannot write %s: %s", path, strerror(errno));
		return err;
	}
	err = fn(f, rs);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

static int write_spec(FILE *f, struct run_state *rs)
{
	return spec_write(rs->spec, f);
}

static int write_meta(struct run_state *rs)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/meta", rs->dir);
	err = rs->info.end ? meta_append_end(path, &rs->info) :
			     meta_write(path, rs->cfg, &rs->info);
	if (err)
		diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

static int on_point_done(const struct point_result *r, void *ctx)
{
	struct run_state *rs = ctx;
	int err = results_append(rs->res, r);

	if (err)
		diag_err("cannot append to %s: %s", rs->dir, strerror(-err));
	return err;
}

/* Everything the sweep writes before its first point. */
static int prepare(struct run_state *rs)
{
	int err;

	if (rs->o->outdir)
		snprintf(rs->dir, sizeof(rs->dir), "%s", rs->o->outdir);
	else
		default_outdir(rs);
	err = results_open(rs->dir, rs->cfg, &rs->res);
	if (err) {
		diag_err("cannot create results in %s: %s", rs->dir, strerror(-err));
		return err;
	}
	err = write_file(rs->dir, "spec", rs, write_spec);
	return err ? err : write_meta(rs);
}

static int write_table(FILE *f, struct run_state *rs)
{
	return table_render(f, rs->cfg, rs->res_run, rs->nr_run);
}

static int exit_status(int run_err, const struct point_result *res, int nr)
{
	if (run_err == -EINTR)
		return EXIT_INTERRUPTED;
	if (run_err)
		return EXIT_POINTS_FAILED;
	for (int i = 0; i < nr; i++)
		if (res[i].status == PS_FAILED)
			return EXIT_POINTS_FAILED;
	return EXIT_OK;
}

/* Points with more threads than CPUs measure sharing too: say so once. */
static void note_oversubscribed(const struct run_state *rs)
{
	int n = 0, cpus = 0;

	for (int i = 0; i < rs->nr_run; i++) {
		const struct point_result *r = &rs->res_run[i];

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

/* Table, charts and the final meta, from the points that finished. */
static int finish(struct run_state *rs)
{
	int err;

	table_render(stdout, rs->cfg, rs->res_run, rs->nr_run);
	err = write_file(rs->dir, "table.txt", rs, write_table);
	if (!rs->o->no_plots && rs->nr_run)
		err = plot_render(rs->dir, rs->cfg, rs->res_run, rs->nr_run,
				  rs->o->plot_timeout_s) ?: err;
	rs->info.end = time(NULL);
	err = write_meta(rs) ?: err;
	note_oversubscribed(rs);
	fprintf(stderr, "results: %s\n", rs->dir);
	return err;
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

/* Points, spec errors and the kernel's verdicts, before anything is written. */
static int plan_run(struct run_state *rs)
{
	int err;

	err = plan_build(rs->cfg, &rs->plan);
	if (!err)
		err = check_caps(rs->cfg->wl);
	if (!err)
		err = plan_probe(rs->cfg, &rs->plan);
	if (err)
		return err;
	plan_report(stderr, &rs->plan);
	rs->pts = rs->plan.pts;
	rs->nr_pts = rs->plan.nr_pts;
	return 0;
}

int cmd_run(const struct cli_opts *o)
{
	struct run_state rs = { .o = o };
	struct point_result *res = NULL;
	int nr_run = 0, run_err, status;

	if (cli_load(o, &rs.spec, &rs.cfg))
		return EXIT_USAGE;
	if (!o->no_plots && plot_check_gnuplot(rs.cfg)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	rs.info.start = time(NULL);
	rs.info.tags = o->tags;
	rs.info.argv_line = o->argv_line;
	if (plan_run(&rs)) {
		status = EXIT_USAGE;
		goto cleanup;
	}
	if (prepare(&rs)) {
		status = EXIT_POINTS_FAILED;
		goto cleanup;
	}
	run_err = runner_run(rs.cfg, &rs.plan, rs.pts, rs.nr_pts, on_point_done, &rs, &res,
			     &nr_run);
	status = exit_status(run_err, res, nr_run);
	rs.res_run = res;
	rs.nr_run = nr_run;
	if (finish(&rs) && status == EXIT_OK)
		status = EXIT_POINTS_FAILED;
cleanup:
	point_results_free(res, rs.nr_pts);
	results_close(rs.res);
	plan_free(&rs.plan);
	sweep_cfg_free(rs.cfg);
	spec_free(rs.spec);
	return status;
}
