// SPDX-License-Identifier: GPL-2.0
/*
 * --resume DIR: the result set a run left, checked against the command
 * line and tied to today's points by point id and parameter tuple (never
 * by row number), with the rows of points that did not finish dropped so
 * that the CSVs stay one consistent set.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "heldir.h"
#include "programs.h"
#include "resultdir.h"
#include "resultcsv.h"
#include "results.h"
#include "resume.h"
#include "rowpoint.h"

/* Names a killed run may have left half-written; never part of a result set. */
static const char *const stale_names[] = { "samples.csv.tmp", "summary.csv.tmp",
					   PROGRAMS_CSV ".tmp", "table.txt.tmp", "report.html.tmp" };

/* What meta records of a run that its points depend on. */
enum run_opt {
	RO_WORKLOAD, RO_HOST, RO_KERNEL, RO_WARMUP, RO_DURATION, RO_INTERVAL, RO_REPEAT,
	RO_AFFINITY, NR_RUN_OPTS
};

static const char *const run_opt_keys[NR_RUN_OPTS] = {
	[RO_WORKLOAD] = "workload", [RO_HOST] = "host", [RO_KERNEL] = "kernel_release",
	[RO_WARMUP] = "warmup", [RO_DURATION] = "duration", [RO_INTERVAL] = "interval",
	[RO_REPEAT] = "repeat", [RO_AFFINITY] = "affinity",
};

static bool dir_is_empty(const char *dir)
{
	int fd = heldir_open_dir(dir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool empty = true;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* Name the first line where the spec as run and the spec given now differ. */
static void report_spec_difference(const char *dir, const char *was, const char *now)
{
	size_t la = strcspn(was, "\n"), lb = strcspn(now, "\n");
	int line = 1;

	while (la == lb && !memcmp(was, now, la) && was[la] && now[lb]) {
		was += la + 1;
		now += lb + 1;
		la = strcspn(was, "\n");
		lb = strcspn(now, "\n");
		line++;
	}
	diag_err("cannot resume %s: its spec differs at line %d: '%.*s' there, '%.*s' now "
		 "(give the spec and --set options it was run with)", dir, line, (int)la, was,
		 (int)lb, now);
}

static int check_spec(const char *dir, const struct spec *spec, struct resume *rs)
{

	if (!rs->set->spec) {
		rs->fresh = dir_is_empty(dir);
		if (!rs->fresh)
			diag_err("cannot resume %s: it holds no spec, so bpfsweep did not start "
				 "a run there", dir);
		return rs->fresh ? 0 : -EINVAL;
	}
	return resume_check_spec(dir, rs->set->spec, spec);
}

int resume_check_spec(const char *dir, const char *was, const struct spec *spec)
{
	struct membuf m;
	int err;

	err = membuf_open(&m);
	if (!err) {
		err = spec_write(spec, m.f);
		err = membuf_close(&m) ?: err;
	}
	if (err)
		diag_err("cannot resume %s: %s", dir, strerror(-err));
	else if (strcmp(m.buf, was)) {
		report_spec_difference(dir, was, m.buf);
		err = -EINVAL;
	}
	membuf_free(&m);
	return err;
}

static bool is_duration(enum run_opt o)
{
	return o == RO_WARMUP || o == RO_DURATION || o == RO_INTERVAL;
}

static uint64_t cfg_ns(const struct sweep_cfg *cfg, enum run_opt o)
{
	return o == RO_WARMUP ? cfg->warmup_ns : o == RO_DURATION ? cfg->duration_ns :
	       cfg->interval_ns;
}

/* The option's value in this run, as text (durations for the message only). */
static void run_opt_now(const struct sweep_cfg *cfg, const struct utsname *u, enum run_opt o,
			char *buf, size_t len)
{
	if (is_duration(o))
		snprintf(buf, len, "%gs", cfg_ns(cfg, o) / 1e9);
	else if (o == RO_WORKLOAD)
		snprintf(buf, len, "%s", cfg->wl->name);
	else if (o == RO_HOST)
		snprintf(buf, len, "%s", u->nodename);
	else if (o == RO_KERNEL)
		snprintf(buf, len, "%s", u->release);
	else if (o == RO_REPEAT)
		snprintf(buf, len, "%d", cfg->repeat);
	else
		snprintf(buf, len, "%s", cfg->affinity ? "on" : "off");
}

/* meta's "250ms" and this run's 0.25 s are the same: durations compare as lengths. */
static bool same_value(const struct sweep_cfg *cfg, enum run_opt o, const char *was,
		       const char *now)
{
	uint64_t ns;
	char err[128];

	if (!is_duration(o))
		return !strcmp(was, now);
	return !parse_duration(was, &ns, err, sizeof(err)) && ns == cfg_ns(cfg, o);
}

static int check_run_opts(const char *dir, const struct sweep_cfg *cfg, bool any_machine,
			  struct resume *rs)
{
	char now[512];
	struct utsname u;
	const char *was;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	for (int o = 0; o < NR_RUN_OPTS; o++) {
		if (any_machine && (o == RO_HOST || o == RO_KERNEL))
			continue;
		was = result_meta(rs->set, run_opt_keys[o]);
		/* a run killed while writing meta has finished nothing to compare */
		if (!was && !rs->set->nr_points)
			continue;
		if (!was) {
			diag_err("cannot resume %s: its meta does not say its %s", dir,
				 run_opt_keys[o]);
			return -EINVAL;
		}
		run_opt_now(cfg, &u, o, now, sizeof(now));
		if (same_value(cfg, o, was, now))
			continue;
		diag_err("cannot resume %s: it was run with %s %s, this run has %s (%s)", dir,
			 run_opt_keys[o], was, now, o <= RO_KERNEL ?
			 "its points would not be comparable" :
			 "give the --quick and --set options it was run with");
		return -EINVAL;
	}
	return 0;
}

static bool is_finished(const struct result_set *set, const struct result_point *p)
{
	int measured = 0;

	if (!strcmp(p->status, "unsupported"))
		return true;
	if (strcmp(p->status, "ok"))
		return false;
	for (int i = 0; i < p->nr_samples; i++)
		measured += !strcmp(csv_cell(&set->samples, p->sample_rows[i], RS_S_WARMUP), "0");
	return measured == p->n;
}

/*
 * Tie every summary row to its point.  kept[i]: the row stays, because its
 * point finished or because this run (--only) does not run it again.
 */
static int tie_points(const char *dir, const struct sweep_cfg *cfg, const char *only,
		      const struct point *pts, int nr_pts, struct resume *rs, bool *kept)
{
	const struct result_set *set = rs->set;
	char why[600];

	for (int i = 0; i < set->nr_points; i++) {
		const struct result_point *p = &set->points[i];
		const struct point *pt = p->id < nr_pts ? &pts[p->id] : NULL;

		if (!pt || pt->id != p->id) {
			results_diag_row(dir, "summary.csv", p->row + 1, set->point_col + 1,
					 "point %lld is not a point of this spec (it has %d)", p->id,
					 nr_pts);
			return -EINVAL;
		}
		if (!result_row_is_point(set, p, cfg, pt, why, sizeof(why))) {
			results_diag_row(dir, "summary.csv", p->row + 1, set->point_col + 1,
					 "point %lld is not the same point: %s", p->id, why);
			return -EINVAL;
		}
		kept[i] = is_finished(set, p) ||
			  !point_in_only(cfg, pt, only);
		if (kept[i] && rs->has_row[p->id]) {
			results_diag_row(dir, "summary.csv", p->row + 1, set->point_col + 1,
					 "point %lld again: a point has one row", p->id);
			return -EINVAL;
		}
		rs->has_row[p->id] |= kept[i];
	}
	return 0;
}

/* Which rows stay: those of finished points.  Returns how many go. */
static int rows_to_keep(const struct result_set *set, const bool *kept, bool *keep_summary,
			bool *keep_samples)
{
	int dropped = 0;

	for (int i = 0; i < set->nr_points; i++) {
		const struct result_point *p = &set->points[i];

		keep_summary[p->row] = kept[i];
		for (int s = 0; kept[i] && s < p->nr_samples; s++)
			keep_samples[p->sample_rows[s]] = true;
		for (int s = 0; kept[i] && s < p->nr_thread_rows; s++)
			keep_samples[p->thread_rows[s]] = true;
	}
	for (int r = 1; r < set->summary.nr_rows; r++)
		dropped += !keep_summary[r];
	for (int r = 1; r < set->samples.nr_rows; r++)
		dropped += !keep_samples[r];
	return dropped;
}

/*
 * summary.csv first: between the two renames, samples.csv then holds rows
 * no summary claims, never a summary row whose samples are gone.
 */
static int drop_unfinished(const char *dir, const struct result_set *set, const bool *kept)
{
	bool *keep_summary = calloc(set->summary.nr_rows + 1, sizeof(bool));
	bool *keep_samples = calloc(set->samples.nr_rows + 1, sizeof(bool));
	int err = 0;

	if (!keep_summary || !keep_samples) {
		err = -ENOMEM;
		goto out;
	}
	if (!rows_to_keep(set, kept, keep_summary, keep_samples) && !set->summary_torn &&
	    !set->samples_torn)
		goto out;
	if (set->summary.nr_rows)
		err = results_rewrite(dir, "summary.csv", &set->summary, keep_summary);
	if (!err && set->samples.nr_rows)
		err = results_rewrite(dir, "samples.csv", &set->samples, keep_samples);
	if (err)
		diag_err("cannot resume %s: cannot drop the rows of unfinished points: %s", dir,
			 strerror(-err));
out:
	free(keep_summary);
	free(keep_samples);
	return err;
}

/* Does t's header name the columns a run of cfg writes? */
static bool programs_header_is_ours(const struct sweep_cfg *cfg, const struct csv_table *t)
{
	const char *names[PROGRAMS_MAX_COLS];
	int nr = programs_header(cfg, names);

	if (t->nr_cols != nr)
		return false;
	for (int c = 0; c < nr; c++)
		if (strcmp(t->rows[0][c], names[c]))
			return false;
	return true;
}

/* keep[row]: its point's summary row stays.  -EINVAL for a cell that is no point. */
static int programs_to_keep(const char *dir, const struct csv_table *t, const bool *has_row,
			    int nr_pts, bool *keep, int *dropped)
{
	for (int i = 1; i < t->nr_rows; i++) {
		const char *s = t->rows[i][0];
		char *end;
		long long id = strtoll(s, &end, 10);

		if (!*s || *end || id < 0) {
			results_diag_row(dir, PROGRAMS_CSV, i + 1, 1, "point is '%s', not a whole "
					 "number", s);
			return -EINVAL;
		}
		keep[i] = id < nr_pts && has_row[id];
		*dropped += !keep[i];
	}
	return 0;
}

/* programs.csv as every reader reads it: -ENOENT where there is none, an empty one no rows. */
static int read_programs(const char *dir, struct csv_table *t, size_t *torn)
{
	char why[1024] = "";
	bool exists;
	int err = results_csv_read(dir, PROGRAMS_CSV, RESULTS_CSV_EMPTY_OK, t, &exists, torn,
				   why, sizeof(why));

	if (err && why[0])
		diag_located(why);
	else if (err)
		diag_err("cannot resume %s: %s: %s", dir, PROGRAMS_CSV, strerror(-err));
	return err ?: exists ? 0 : -ENOENT;
}

/*
 * programs.csv (if any) keeps the rows of the points with has_row[point]
 * (those whose summary rows stay) and loses the others and an unfinished
 * last line, rewritten through a temporary file renamed over it.  Other
 * columns than cfg's, or a point cell that is not a point, are refused
 * where they are.
 */
static int drop_unfinished_programs(const char *dir, const struct sweep_cfg *cfg,
				    const bool *has_row, int nr_pts)
{
	struct csv_table t = { 0 };
	size_t torn = 0;
	bool *keep = NULL;
	int dropped = 0, err;

	if (!programs_kept(cfg))
		return 0;
	err = read_programs(dir, &t, &torn);
	/* none, or an empty one: the reopened run writes it, header first */
	if (err == -ENOENT || (!err && !t.nr_rows && !torn))
		return 0;
	if (!err && t.nr_rows && !programs_header_is_ours(cfg, &t)) {
		results_diag_row(dir, PROGRAMS_CSV, 1, 1, "other columns than this bpfsweep writes");
		err = -EINVAL;
	}
	if (!err) {
		keep = calloc(t.nr_rows + 1, sizeof(*keep));
		err = keep ? programs_to_keep(dir, &t, has_row, nr_pts, keep, &dropped) : -ENOMEM;
	}
	if (!err && (dropped || torn)) {
		err = results_rewrite(dir, PROGRAMS_CSV, &t, keep);
		if (err)
			diag_err("cannot resume %s: cannot drop the programs of unfinished points: "
				 "%s", dir, strerror(-err));
	}
	free(keep);
	csv_table_free(&t);
	return err;
}

/*
 * A run killed as it created meta leaves it empty: it holds nothing, so it
 * goes, and this run writes it anew.
 */
static int forget_empty_meta(const char *dir, struct resume *rs)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/meta", dir);
	err = heldir_unlink(path);
	if (err && err != -ENOENT) {
		diag_err("cannot resume %s: cannot remove its empty meta: %s", dir, strerror(-err));
		return err;
	}
	rs->need_meta = true;
	return 0;
}

static int check_headers(const char *dir, const struct sweep_cfg *cfg, struct resume *rs)
{
	const char *which;

	if (!results_check_header(cfg, &rs->set->samples, &rs->set->summary, &which))
		return 0;
	results_diag_row(dir, which, 1, 1, "other columns than this bpfsweep writes");
	return -EINVAL;
}

static int read_set(const char *dir, struct resume *rs)
{
	char why[512];
	int err;

	for (size_t i = 0; i < sizeof(stale_names) / sizeof(stale_names[0]); i++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", dir, stale_names[i]);
		heldir_unlink(path);
	}
	err = results_read(dir, &rs->set, why, sizeof(why));
	if (err)
		results_read_diag(dir, err, why);
	return err;
}

int resume_prepare(const char *dir, const struct spec *spec, const struct sweep_cfg *cfg,
		   const char *only, const struct point *pts, int nr_pts, bool any_machine,
		   struct resume *rs)
{
	bool *kept = NULL;
	int err;

	memset(rs, 0, sizeof(*rs));
	rs->has_row = calloc(nr_pts ? nr_pts : 1, sizeof(bool));
	if (!rs->has_row)
		return -ENOMEM;
	err = read_set(dir, rs);
	if (!err)
		err = check_spec(dir, spec, rs);
	if (!err && !rs->set->nr_meta)
		err = forget_empty_meta(dir, rs);
	if (!err)
		err = check_run_opts(dir, cfg, any_machine, rs);
	if (!err)
		err = check_headers(dir, cfg, rs);
	if (!err) {
		kept = calloc(rs->set->nr_points + 1, sizeof(bool));
		err = kept ? 0 : -ENOMEM;
	}
	if (!err)
		err = tie_points(dir, cfg, only, pts, nr_pts, rs, kept);
	if (!err)
		err = drop_unfinished(dir, rs->set, kept);
	/* after summary.csv: its rows no longer claim programs being dropped */
	if (!err)
		err = drop_unfinished_programs(dir, cfg, rs->has_row, nr_pts);
	for (int id = 0; !err && id < nr_pts; id++)
		rs->nr_kept += rs->has_row[id];
	free(kept);
	return err;
}

int resume_run_info(struct resume *rs, struct run_info *ri)
{
	const char *start = result_meta(rs->set, "start");
	struct tm tm = { 0 };
	int nr = 0;

	if (start && strptime(start, "%Y-%m-%dT%H:%M:%SZ", &tm))
		ri->start = timegm(&tm);
	rs->tags = calloc(rs->set->nr_meta + 1, sizeof(*rs->tags));
	if (!rs->tags)
		return -ENOMEM;
	for (int i = 0; i < rs->set->nr_meta; i++)
		if (!strcmp(rs->set->meta[i].key, "tag"))
			rs->tags[nr++] = rs->set->meta[i].value;
	ri->tags = rs->tags;
	return 0;
}

void resume_free(struct resume *rs)
{
	free(rs->has_row);
	free(rs->tags);
	result_set_free(rs->set);
	memset(rs, 0, sizeof(*rs));
}
