// SPDX-License-Identifier: GPL-2.0
/*
 * Merging (mergeset.h): several runs as one result set in a new directory.
 * OUT/summary.csv and OUT/samples.csv (and OUT/programs.csv, of runs that
 * have one) hold every run's rows, each led by
 * the columns that say its run (run, host, arch, cpu_model,
 * kernel_release, kernel, executor, accel, tag_<name> per --tag name of
 * any run),
 * under the union
 * of the runs' columns, so `grep`, `awk` or sqlite group by machine or
 * kernel.  OUT/runs/<n> keeps each run's own files, so the set can be
 * drawn again (report OUT, draw.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "diag.h"
#include "heldir.h"
#include "merge.h"
#include "mergeset.h"
#include "profiles.h"
#include "programs.h"
#include "resultcsv.h"
#include "resultdir.h"
#include "results_read.h"
#include "runfacts.h"
#include "textfile.h"

#define MAX_RUNS	256
#define MAX_TAGS	64
#define VALUE_LEN	256

/* The files of a run that OUT/runs/<n> keeps. */
static const char *const run_files[] = { "spec", "meta", "summary.csv", "samples.csv",
					 PROGRAMS_CSV };

struct merge {
	const char *outdir;		/* the merged set */
	const char *const *dirs;	/* the runs, in order */
	int nr_dirs;
	struct result_set *sets[MAX_RUNS];
	/* each run's programs.csv, its rows of points with a summary row; none: no rows */
	struct csv_table programs[MAX_RUNS];
	int nr;
	char *tags[MAX_TAGS];		/* the --tag names of every run, first seen first */
	int nr_tags;
	struct colset summary, samples, programs_cols;	/* the runs' own columns, merged */
	bool replace;			/* in place: the CSVs of an earlier merge go */
};

/* Does set have a summary row of the point the cell names? */
static bool has_point(const struct result_set *set, const char *cell)
{
	char *end;
	long long id = strtoll(cell, &end, 10);

	for (int i = 0; *cell && !*end && i < set->nr_points; i++)
		if (set->points[i].id == id)
			return true;
	return false;
}

/*
 * Run r's programs.csv, if it has one, without the rows of points its
 * summary has no row of (a kill between a point's writes): as samples.csv's,
 * they are not the set's.  An unfinished last line is left out too.
 */
static int read_programs(struct merge *mg, int r)
{
	struct csv_table *t = &mg->programs[r];
	char why[1024] = "", path[4200];
	bool exists;
	size_t torn;
	int err, kept = 1;

	err = results_csv_read(mg->dirs[r], PROGRAMS_CSV, RESULTS_CSV_EMPTY_OK, t, &exists, &torn,
			       why, sizeof(why));
	if (err) {
		snprintf(path, sizeof(path), "%s/%s", mg->dirs[r], PROGRAMS_CSV);
		results_read_diag(path, err, why);
	}
	if (err || !exists)
		return err;
	results_csv_warn_torn(mg->dirs[r], PROGRAMS_CSV, t, torn);
	for (int i = 1; i < t->nr_rows; i++)
		if (has_point(mg->sets[r], t->rows[i][0]))
			t->rows[kept++] = t->rows[i];
	t->nr_rows = t->nr_rows ? kept : 0;
	return 0;
}

static int read_runs(struct merge *mg)
{
	char why[512];
	int err = 0;

	if (mg->nr_dirs > MAX_RUNS) {
		diag_err("too many result directories (at most %d)", MAX_RUNS);
		return -E2BIG;
	}
	for (int i = 0; !err && i < mg->nr_dirs; i++) {
		const char *dir = mg->dirs[i];

		err = results_read(dir, &mg->sets[mg->nr], why, sizeof(why));
		if (err) {
			results_read_diag(dir, err, why);
			break;
		}
		/* no spec is an imported set: it describes itself (viewdesc.h) */
		if (!mg->sets[mg->nr++]->has_summary) {
			diag_err("%s holds no summary.csv: not a result directory of "
				 "bpfsweep run", dir);
			err = -EINVAL;
		}
		err = err ?: read_programs(mg, i);
	}
	return err;
}

static int add_tag(struct merge *mg, const char *name)
{
	for (int i = 0; i < mg->nr_tags; i++)
		if (!strcmp(mg->tags[i], name))
			return 0;
	if (mg->nr_tags == MAX_TAGS)
		return -E2BIG;
	mg->tags[mg->nr_tags] = strdup(name);
	return mg->tags[mg->nr_tags++] ? 0 : -ENOMEM;
}

static int find_columns(struct merge *mg)
{
	char name[VALUE_LEN];
	int err = 0;

	for (int r = 0; !err && r < mg->nr; r++) {
		const struct result_set *set = mg->sets[r];

		for (int t = 0; !err && run_tag_name(set, t, name, sizeof(name)); t++)
			err = add_tag(mg, name);
		if (!err && set->summary.nr_rows)
			err = colset_merge(&mg->summary, (const char *const *)set->summary.rows[0],
					   set->summary.nr_cols);
		if (!err && set->samples.nr_rows)
			err = colset_merge(&mg->samples, (const char *const *)set->samples.header,
					   set->samples.nr_cols);
		if (!err && mg->programs[r].nr_rows)
			err = colset_merge(&mg->programs_cols,
					   (const char *const *)mg->programs[r].rows[0],
					   mg->programs[r].nr_cols);
	}
	if (err)
		diag_err("merge: %s", strerror(-err));
	return err;
}

/* The leading columns: which run, and its facts and tags. */
static int nr_run_cols(const struct merge *mg)
{
	int nr = 1;

	while (run_fact_names[nr - 1])
		nr++;
	return nr + mg->nr_tags;
}

static void run_values(const struct merge *mg, int r, char (*vals)[VALUE_LEN])
{
	char by[VALUE_LEN + 8];
	int n = 0;

	snprintf(vals[n++], VALUE_LEN, "%d", r + 1);
	for (int f = 0; run_fact_names[f]; f++)
		run_fact(mg->sets[r], run_fact_names[f], vals[n++], VALUE_LEN);
	for (int t = 0; t < mg->nr_tags; t++) {
		snprintf(by, sizeof(by), "tag:%s", mg->tags[t]);
		run_fact(mg->sets[r], by, vals[n++], VALUE_LEN);
	}
}

static int write_header(FILE *f, const struct merge *mg, const struct colset *cols,
			const char **fields)
{
	char (*tag_cols)[VALUE_LEN + 4] = calloc(mg->nr_tags + 1, sizeof(*tag_cols));
	int n = 0, err;

	if (!tag_cols)
		return -ENOMEM;
	fields[n++] = "run";
	for (int i = 0; run_fact_names[i]; i++)
		fields[n++] = run_fact_names[i];
	for (int t = 0; t < mg->nr_tags; t++) {
		snprintf(tag_cols[t], sizeof(*tag_cols), "tag_%s", mg->tags[t]);
		fields[n++] = tag_cols[t];
	}
	for (int c = 0; c < cols->nr; c++)
		fields[n++] = cols->names[c];
	err = csv_write_row(f, fields, n);
	free(tag_cols);
	return err;
}

/* Every data row of run r's table t, its own columns at their merged places. */
static int write_rows(FILE *f, const struct merge *mg, int r, const struct csv_table *t,
		      const struct colset *cols, const char **fields, char (*vals)[VALUE_LEN])
{
	int lead = nr_run_cols(mg), err = 0;
	int *at = calloc(cols->nr + 1, sizeof(*at));

	if (!at)
		return -ENOMEM;
	run_values(mg, r, vals);
	for (int c = 0; c < cols->nr; c++)
		at[c] = csv_column(t, cols->names[c]);
	for (int c = 0; c < lead; c++)
		fields[c] = vals[c];
	for (int row = 1; !err && row < t->nr_rows; row++) {
		for (int c = 0; c < cols->nr; c++)
			fields[lead + c] = at[c] < 0 ? "" : csv_cell(t, row, at[c]);
		err = csv_write_row(f, fields, lead + cols->nr);
	}
	free(at);
	return err;
}

/* Run r's table of the file name, and the merged columns of that file. */
static const struct csv_table *run_table(const struct merge *mg, int r, const char *name,
					 const struct colset **cols)
{
	if (!strcmp(name, "summary.csv")) {
		*cols = &mg->summary;
		return &mg->sets[r]->summary;
	}
	if (!strcmp(name, "samples.csv")) {
		*cols = &mg->samples;
		return &mg->sets[r]->samples;
	}
	*cols = &mg->programs_cols;
	return &mg->programs[r];
}

static int write_csv(const struct merge *mg, const char *name)
{
	const struct colset *cols;
	const char **fields;
	char (*vals)[VALUE_LEN] = calloc(nr_run_cols(mg), sizeof(*vals));
	struct membuf m;
	int err;

	run_table(mg, 0, name, &cols);
	fields = calloc(nr_run_cols(mg) + cols->nr, sizeof(*fields));
	err = fields && vals ? membuf_open(&m) : -ENOMEM;
	if (err)
		goto out;
	err = write_header(m.f, mg, cols, fields);
	for (int r = 0; !err && r < mg->nr; r++)
		err = write_rows(m.f, mg, r, run_table(mg, r, name, &cols), cols, fields, vals);
	err = membuf_close(&m) ?: err;
	if (!err)
		err = resultdir_put_file(mg->outdir, name, m.buf, m.len, mg->replace);
	membuf_free(&m);
out:
	if (err)
		diag_err("cannot write %s/%s: %s", mg->outdir, name, strerror(-err));
	free(fields);
	free(vals);
	return err;
}

/* Has a run before `run` a metric line of the metric that line starts with? */
static bool metric_seen(const struct merge *mg, int run, const char *line)
{
	size_t len = strcspn(line, " ");

	for (int r = 0; r < run; r++)
		for (int i = 0; i < mg->sets[r]->nr_meta; i++)
			if (!strcmp(mg->sets[r]->meta[i].key, "metric") &&
			    !strncmp(mg->sets[r]->meta[i].value, line, len + 1))
				return true;
	return false;
}

/*
 * "merged: 2 runs", then "run: <n> <directory>" per run, then each
 * metric's line (metricmeta.h) once, as the first run that has it says it.
 */
static int meta_fill(FILE *f, const void *ctx)
{
	const struct merge *mg = ctx;

	fprintf(f, "merged: %d run%s\n", mg->nr, mg->nr == 1 ? "" : "s");
	for (int r = 0; r < mg->nr; r++)
		fprintf(f, "run: %d %s\n", r + 1, mg->dirs[r]);
	for (int r = 0; r < mg->nr; r++)
		for (int i = 0; i < mg->sets[r]->nr_meta; i++)
			if (!strcmp(mg->sets[r]->meta[i].key, "metric") &&
			    !metric_seen(mg, r, mg->sets[r]->meta[i].value))
				fprintf(f, "metric: %s\n", mg->sets[r]->meta[i].value);
	return 0;
}

/* The first line of a run before run r about the metric that line names, or NULL. */
static const char *first_metric_line(const struct merge *mg, int r, const char *line, int *run)
{
	size_t len = strcspn(line, " ");

	for (int q = 0; q < r; q++)
		for (int k = 0; k < mg->sets[q]->nr_meta; k++)
			if (!strcmp(mg->sets[q]->meta[k].key, "metric") &&
			    !strncmp(mg->sets[q]->meta[k].value, line, len + 1)) {
				*run = q;
				return mg->sets[q]->meta[k].value;
			}
	return NULL;
}

/*
 * A metric line of a run that the first run saying it says otherwise (a
 * unit, a direction: an exec spec changed between them): the merged set
 * keeps the first, so say which, rather than drop the other's word unsaid.
 */
static void say_metric_disagreements(const struct merge *mg)
{
	for (int r = 1; r < mg->nr; r++) {
		for (int i = 0; i < mg->sets[r]->nr_meta; i++) {
			const char *line = mg->sets[r]->meta[i].value, *first;
			int q;

			if (strcmp(mg->sets[r]->meta[i].key, "metric"))
				continue;
			first = first_metric_line(mg, r, line, &q);
			if (first && strcmp(first, line))
				diag_warn("metric %.*s: run %d says '%s', run %d '%s': the merged "
					  "set keeps run %d's", (int)strcspn(line, " "), line, q + 1,
					  first, r + 1, line, q + 1);
		}
	}
}

static int write_meta(const struct merge *mg)
{
	int err;

	say_metric_disagreements(mg);
	err = resultdir_write_file(mg->outdir, "meta", false, meta_fill, mg);

	if (err)
		diag_err("cannot write %s/meta: %s", mg->outdir, strerror(-err));
	return err;
}

/* OUT/programs.csv when a run has one: every run's rows, as OUT/summary.csv has them. */
static int write_programs(const struct merge *mg)
{
	return mg->programs_cols.nr ? write_csv(mg, PROGRAMS_CSV) : 0;
}

/* OUT/runs/<r+1>: the run's own spec, meta, CSVs and profiles, as they are. */
static int keep_run(const struct merge *mg, int r)
{
	char dir[4200], path[4400], *text;
	size_t len;
	int err;

	snprintf(dir, sizeof(dir), "%s/runs/%d", mg->outdir, r + 1);
	err = resultdir_create(dir);
	for (size_t i = 0; !err && i < sizeof(run_files) / sizeof(run_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", mg->dirs[r], run_files[i]);
		/* the runs' CSVs as large as report reads them */
		err = read_text_file_max(path, CSV_MAX_BYTES, &text, &len);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			break;
		err = resultdir_put_file(dir, run_files[i], text, len, false);
		free(text);
	}
	/* report --profile and compare --profile read them there */
	err = err ?: profiles_copy(mg->dirs[r], dir);
	if (err)
		diag_err("cannot keep %s in %s: %s", mg->dirs[r], dir, strerror(-err));
	return err;
}

static int write_set(struct merge *mg)
{
	int err = resultdir_create(mg->outdir);

	if (err) {
		diag_err("cannot create %s: %s%s", mg->outdir, strerror(-err),
			 err == -EEXIST ? " (merge writes a new directory)" : "");
		return err;
	}
	err = write_meta(mg);
	if (!err)
		err = write_csv(mg, "summary.csv");
	if (!err)
		err = write_csv(mg, "samples.csv");
	if (!err)
		err = write_programs(mg);
	for (int r = 0; !err && r < mg->nr; r++)
		err = keep_run(mg, r);
	/* a merged set is whole or absent: the directory is this command's own */
	if (err)
		resultdir_remove_tree(mg->outdir);
	return err;
}

static void merge_free(struct merge *mg)
{
	for (int r = 0; r < mg->nr; r++) {
		result_set_free(mg->sets[r]);
		csv_table_free(&mg->programs[r]);
	}
	for (int t = 0; t < mg->nr_tags; t++)
		free(mg->tags[t]);
	colset_free(&mg->summary);
	colset_free(&mg->samples);
	colset_free(&mg->programs_cols);
}

/* A merge's state is large (its runs' sets and columns): on the heap, not the stack. */
static struct merge *merge_new(const char *outdir, const char *const *dirs, int nr)
{
	struct merge *mg = calloc(1, sizeof(*mg));

	if (mg)
		*mg = (struct merge){ .outdir = outdir, .dirs = dirs, .nr_dirs = nr };
	return mg;
}

static void merge_delete(struct merge *mg)
{
	merge_free(mg);
	free(mg);
}

int merge_runs(const char *outdir, const char *const *dirs, int nr)
{
	struct merge *mg = merge_new(outdir, dirs, nr);
	int err;

	if (!mg)
		return -ENOMEM;
	err = read_runs(mg);
	err = err ?: find_columns(mg);
	err = err ?: write_set(mg);
	merge_delete(mg);
	return err;
}

int merge_in_place(const char *outdir, const char *const *dirs, int nr)
{
	struct merge *mg = merge_new(outdir, dirs, nr);
	int err;

	if (!mg)
		return -ENOMEM;
	mg->replace = true;
	err = read_runs(mg);
	err = err ?: find_columns(mg);
	err = err ?: write_csv(mg, "summary.csv");
	err = err ?: write_csv(mg, "samples.csv");
	err = err ?: write_programs(mg);
	merge_delete(mg);
	return err;
}

int merged_set_runs(const char *dir)
{
	char path[4200];
	int n = 0;

	snprintf(path, sizeof(path), "%s/runs/1/summary.csv", dir);
	if (heldir_access(path))
		return 0;
	do
		snprintf(path, sizeof(path), "%s/runs/%d", dir, ++n);
	while (!heldir_access(path));
	return n - 1;
}
