// SPDX-License-Identifier: GPL-2.0
/*
 * Published bench output written as a result directory (import_dir.h):
 * the files read into one import_set, their metrics and parameters laid
 * out as summary.csv's columns (columns.h's published layout), and a set
 * written per machine the text names, or one for all.  The CSVs' content
 * is results.c's, from the column table a run's are written from; this
 * file says which rows and what meta.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <ctype.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "heldir.h"
#include "import.h"
#include "import_dir.h"
#include "meta.h"
#include "mergeset.h"
#include "metricmeta.h"
#include "resultdir.h"
#include "results.h"
#include "textfile.h"

#define MAX_METRICS	32
#define MAX_PARAMS	64
#define MAX_MACHINES	64
#define FIELD_LEN	256
#define ALL_MACHINES	-2

/* A metric of the set: its name as the bench gives it, and its unit. */
struct metric {
	const char *name;
	enum import_kind kind;
};

/* The rows being written as summary.csv's published rows, their text cells defused. */
struct written {
	struct published_row *rows;
	const char **params;	/* rows x parameters */
	double *values;		/* rows x metrics means, then as many stddevs */
	char **owned;		/* the defused copies of cells */
	int nr, nr_owned;
};

struct import_job {
	const struct import_req *rq;
	struct import_set set;
	struct import_params params;
	struct metric metrics[MAX_METRICS];
	int nr_metrics;
	/* the metrics as summary.csv's columns lay them out */
	char metric_names[MAX_METRICS][64];
	struct published_metric published[MAX_METRICS];
	struct published_layout layout;
	/* the machines named (-1: rows before any name), each once: a run each */
	int groups[MAX_MACHINES];
	int nr_groups;
	/* what is being written: where, the rows of which machine, and their meta's tags */
	const char *dir;
	int group;		/* ALL_MACHINES, or a machines index (-1: none named) */
	const char **tags;	/* the --tags and up to three of the machine's */
	char machine_tags[3][FIELD_LEN + 16];
	struct written out;
};

/* "x.txt:5: '-5.0M/s' not read: a negative value ...; line skipped" */
static void warn_skipped(const char *path, const struct import_skip *sk)
{
	if (sk->bidi)
		diag_warn("%s:%d: U+%04X not read: %s; line skipped", path, sk->line, sk->bidi,
			  sk->why);
	else if (*sk->what)
		diag_warn("%s:%d: '%s' not read: %s; line skipped", path, sk->line, sk->what,
			  sk->why);
	else
		diag_warn("%s:%d: %s; skipped", path, sk->line, sk->why);
}

static int read_file(struct import_job *job, const char *path)
{
	char *text, *copy = strdup(path);
	size_t len;
	int err = copy ? read_text_file_len(path, &text, &len) : -ENOMEM;

	if (err == -EFBIG)
		diag_err("cannot read %s: larger than %s, the most import reads of a file "
			 "(docs/import.md); split it", path, TEXTFILE_MAX_TEXT);
	else if (err)
		diag_err("cannot read %s: %s", path, textfile_strerror(err));
	if (err) {
		free(copy);
		return err;
	}
	err = import_parse_len(text, len, basename(copy), &job->set);
	if (err == -EINVAL)
		diag_err("%s:%d: %s", path, job->set.bad_line, job->set.bad_why);
	for (int i = 0; !err && i < job->set.nr_skipped; i++)
		warn_skipped(path, &job->set.skipped[i]);
	free(text);
	free(copy);
	return err;
}

/* Every metric once, in the order rows first show them; one unit each. */
static int collect_metrics(struct import_job *job)
{
	for (int r = 0; r < job->set.nr_rows; r++) {
		const struct import_row *row = &job->set.rows[r];

		for (int v = 0; v < row->nr_values; v++) {
			const struct import_value *iv = &row->v[v];
			int m = 0;

			while (m < job->nr_metrics && strcmp(job->metrics[m].name, iv->name))
				m++;
			if (m < job->nr_metrics && job->metrics[m].kind != iv->kind) {
				diag_err("line %d: '%s' has another unit (rate, size, time) than "
					 "before", row->line, iv->name);
				return -EINVAL;
			}
			if (m < job->nr_metrics)
				continue;
			if (m == MAX_METRICS) {
				diag_err("more than %d metrics", m);
				return -E2BIG;
			}
			job->metrics[job->nr_metrics++] = (struct metric){ iv->name, iv->kind };
		}
	}
	return 0;
}

/* "avg mem" → "avg_mem": column names hold letters, digits and '_' only. */
static void metric_column(char *buf, size_t len, const struct metric *m)
{
	snprintf(buf, len, "%s", m->name);
	for (; *buf; buf++)
		if (!isalnum((unsigned char)*buf))
			*buf = '_';
}

/*
 * Metric m as summary.csv's columns have it (columns.h): a rate as a
 * counter's ("hits_per_s_mean"), a size or a time as a level with its unit
 * in its names ("avg_mem_bytes_mean", "latency_ns_mean"); rates and times
 * keep three decimals as a run's rates do, sizes are whole bytes.  Its
 * direction: a name the benches use says it, a size or a time per operation
 * is lower-better, and a rate of any other name "unknown": the text does
 * not say.
 */
static void lay_out_metric(struct import_job *job, int m)
{
	const struct metric *im = &job->metrics[m];
	struct published_metric *pm = &job->published[m];

	metric_column(job->metric_names[m], sizeof(job->metric_names[m]), im);
	*pm = (struct published_metric){
		.name = job->metric_names[m], .kind = CK_COUNTER, .decimals = 3,
		.better = metric_better_known(job->metric_names[m]),
	};
	if (im->kind == IMPORT_RATE)
		return;
	pm->kind = CK_GAUGE;
	pm->unit = im->kind == IMPORT_BYTES ? "bytes" : "ns";
	pm->decimals = im->kind == IMPORT_BYTES ? 0 : 3;
	if (pm->better == MB_UNSET)
		pm->better = MB_LOWER;
}

static void lay_out(struct import_job *job)
{
	for (int m = 0; m < job->nr_metrics; m++)
		lay_out_metric(job, m);
	job->layout = (struct published_layout){
		.params = (const char *const *)job->params.names, .nr_params = job->params.nr,
		.metrics = job->published, .nr_metrics = job->nr_metrics,
	};
}

/* The machines of the rows, each once in the order first met: a run each. */
static int find_groups(struct import_job *job)
{
	for (int r = 0; r < job->set.nr_rows; r++) {
		int m = job->set.title_machine[job->set.rows[r].exp], g = 0;

		while (g < job->nr_groups && job->groups[g] != m)
			g++;
		if (g < job->nr_groups)
			continue;
		if (g == MAX_MACHINES) {
			diag_err("the text names more than %d machines", g);
			return -E2BIG;
		}
		job->groups[job->nr_groups++] = m;
	}
	return 0;
}

/* The parameters of the rows, from their labels or --label's template. */
static int read_params(struct import_job *job)
{
	const struct import_req *rq = job->rq;
	char why[512];
	int err;

	err = import_params_build(&job->set, rq->label, &job->params, why, sizeof(why));
	/* why is set only by import_params_build(): errors before it are already told */
	if (err == -EINVAL)
		diag_err("%s", why);
	if (!err && rq->label && !job->params.matched) {
		diag_err("--label '%s' matches no row (the first is '%s')", rq->label,
			 job->set.rows[0].label);
		err = -EINVAL;
	}
	if (!err && job->params.nr > MAX_PARAMS) {
		diag_err("labels give %d parameters, more than %d", job->params.nr, MAX_PARAMS);
		err = -E2BIG;
	}
	return err;
}

static int count_tags(const struct import_req *rq)
{
	int n = 0;

	while (rq->tags[n])
		n++;
	return n;
}

int import_job_read(const struct import_req *rq, struct import_job **out)
{
	struct import_job *job = calloc(1, sizeof(*job));
	int err = 0;

	*out = job;
	if (!job)
		return -ENOMEM;
	job->rq = rq;
	job->tags = calloc(count_tags(rq) + 4, sizeof(*job->tags));
	if (!job->tags)
		return -ENOMEM;
	for (int i = 0; !err && i < rq->nr_files; i++)
		err = read_file(job, rq->files[i]);
	if (!err && !job->set.nr_rows) {
		diag_err("no bench output found in %s%s", rq->files[0],
			 rq->nr_files > 1 ? " ..." : "");
		err = -EINVAL;
	}
	err = err ?: read_params(job);
	err = err ?: find_groups(job);
	err = err ?: collect_metrics(job);
	if (!err)
		lay_out(job);
	return err;
}

static void written_free(struct written *w)
{
	for (int i = 0; i < w->nr_owned; i++)
		free(w->owned[i]);
	free(w->owned);
	free(w->values);
	free(w->params);
	free(w->rows);
	*w = (struct written){ 0 };
}

/*
 * A cell of text from the page ("=HYPERLINK(...)" as a label) with an
 * apostrophe before it, which a spreadsheet then shows as text rather than
 * run as a formula (import_safe.c); NULL stays NULL (an empty cell).
 */
static int defused_cell(struct written *w, const char *s, const char **cell)
{
	*cell = s;
	if (!import_formula_led(s))
		return 0;
	if (asprintf(&w->owned[w->nr_owned], "'%s", s) < 0)
		return -ENOMEM;
	*cell = w->owned[w->nr_owned++];
	return 0;
}

/* Is block exp one of the blocks being written (all, or its machine's)? */
static bool block_written(const struct import_job *job, int exp)
{
	return job->group == ALL_MACHINES || job->set.title_machine[exp] == job->group;
}

static const struct import_value *row_value(const struct import_row *row, const char *name)
{
	for (int v = 0; v < row->nr_values; v++)
		if (!strcmp(row->v[v].name, name))
			return &row->v[v];
	return NULL;
}

/* Bench row ri as the published row of point pt in block exp_nr: mean and stddev as given. */
static int add_row(struct import_job *job, int ri, int exp_nr, int pt)
{
	struct written *w = &job->out;
	const struct import_row *row = &job->set.rows[ri];
	int nr_p = job->params.nr, nr_m = job->nr_metrics, err;
	struct published_row *r = &w->rows[w->nr];
	double *mean = &w->values[2 * nr_m * w->nr], *stddev = mean + nr_m;
	const char **params = &w->params[nr_p * w->nr];

	*r = (struct published_row){ .exp = exp_nr, .point = pt, .params = params,
				     .mean = mean, .stddev = stddev };
	err = defused_cell(w, job->set.titles[row->exp], &r->experiment);
	for (int i = 0; !err && i < nr_p; i++)
		err = defused_cell(w, job->params.vals[ri][i], &params[i]);
	for (int m = 0; m < nr_m; m++) {
		const struct import_value *v = row_value(row, job->metrics[m].name);

		mean[m] = v ? v->mean : NAN;
		stddev[m] = v && v->has_stddev ? v->stddev : NAN;
	}
	w->nr++;
	return err;
}

/* The rows being written, numbered: a point each, their blocks counted among those written. */
static int gather_rows(struct import_job *job)
{
	struct written *w = &job->out;
	size_t n = job->set.nr_rows ? job->set.nr_rows : 1;
	int counted = 0, exp_nr = 0, err = 0;	/* blocks written before block counted */

	w->rows = calloc(n, sizeof(*w->rows));
	w->params = calloc(n * (job->params.nr + 1), sizeof(*w->params));
	w->values = calloc(n * (2 * job->nr_metrics + 1), sizeof(*w->values));
	w->owned = calloc(n * (job->params.nr + 1), sizeof(*w->owned));
	if (!w->rows || !w->params || !w->values || !w->owned)
		return -ENOMEM;
	/* rows come in their blocks' order: each block is counted once, not once per row */
	for (int i = 0; !err && i < job->set.nr_rows; i++) {
		if (!block_written(job, job->set.rows[i].exp))
			continue;
		for (; counted < job->set.rows[i].exp; counted++)
			exp_nr += block_written(job, counted);
		err = add_row(job, i, exp_nr, w->nr);
	}
	return err;
}

static int write_columns(FILE *f, const void *ctx)
{
	const struct import_job *job = ctx;

	return results_published_columns(f, &job->layout);
}

static int write_samples(FILE *f, const void *ctx)
{
	const struct import_job *job = ctx;

	return results_published_samples(f, &job->layout);
}

static int write_summary(FILE *f, const void *ctx)
{
	const struct import_job *job = ctx;

	return results_published_summary(f, &job->layout, job->out.rows, job->out.nr);
}

/* meta's "metric:" line of metric m (metricmeta.h), its direction as columns.csv says it. */
static void print_metric_line(FILE *f, const struct import_job *job, int m)
{
	static const char *const kind[] = {
		[IMPORT_RATE] = "counter", [IMPORT_BYTES] = "bytes", [IMPORT_NS] = "time",
	};
	static const char *const unit[] = {
		[IMPORT_RATE] = "M/s", [IMPORT_BYTES] = "B", [IMPORT_NS] = "ns",
	};
	enum import_kind k = job->metrics[m].kind;

	metricmeta_print_one(f, job->metric_names[m], kind[k], unit[k], job->published[m].better,
			     false);
}

/* The first block being written: the set's title. */
static const char *first_title(const struct import_job *job)
{
	for (int i = 0; i < job->set.nr_titles; i++)
		if (block_written(job, i))
			return job->set.titles[i];
	return job->set.titles[0];
}

/* A set of several machines' runs says which, as merge's does. */
static void print_runs(FILE *f, const struct import_job *job)
{
	if (job->group != ALL_MACHINES || job->nr_groups < 2)
		return;
	fprintf(f, "merged: %d runs\n", job->nr_groups);
	for (int g = 0; g < job->nr_groups; g++)
		fprintf(f, "run: %d %s/runs/%d\n", g + 1, job->dir, g + 1);
}

static int write_meta(FILE *f, const void *ctx)
{
	const struct import_job *job = ctx;
	char title[IMPORT_MAX_TEXT + 32];
	const struct import_info ii = {
		.argv_line = job->rq->argv_line, .files = job->rq->files,
		.nr_files = job->rq->nr_files,
		/* the title as the experiment cells have it: charts and exports take it as a cell */
		.title = import_defused(first_title(job), title, sizeof(title)), .tags = job->tags,
		.when = time(NULL),
	};

	meta_print_imported(f, &ii);
	print_runs(f, job);
	for (int m = 0; m < job->nr_metrics; m++)
		print_metric_line(f, job, m);
	return ferror(f) ? -EIO : 0;
}

/* dir/name holding what fill writes, created exclusively. */
static int write_file(const struct import_job *job, const char *name,
		      int (*fill)(FILE *f, const void *ctx))
{
	int err = resultdir_write_file(job->dir, name, false, fill, job);

	if (err)
		diag_err("cannot write %s/%s: %s", job->dir, name, strerror(-err));
	return err;
}

static bool has_tag(const struct import_req *rq, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; rq->tags[i]; i++)
		if (!strncmp(rq->tags[i], key, n) && rq->tags[i][n] == '=')
			return true;
	return false;
}

/* "key=value" into buf, value defused: merge makes the tags cells of summary.csv. */
static const char *machine_tag(char *buf, size_t len, const char *key, const char *value)
{
	snprintf(buf, len, "%s=%s%s", key, import_formula_led(value) ? "'" : "", value);
	return buf;
}

/* The --tags, then the arch, CPU model and kernel of the machine the text named, unless tagged. */
static void set_tags(struct import_job *job, int group)
{
	const struct import_machine *m = group >= 0 ? &job->set.machines[group] : NULL;
	const struct import_req *rq = job->rq;
	char (*mt)[FIELD_LEN + 16] = job->machine_tags;
	int n = 0;

	for (; rq->tags[n]; n++)
		job->tags[n] = rq->tags[n];
	if (m && !has_tag(rq, "arch")) {
		snprintf(mt[0], sizeof(mt[0]), "arch=%s", m->arch);
		job->tags[n++] = mt[0];
	}
	if (m && m->cpu_model && !has_tag(rq, "cpu_model"))
		job->tags[n++] = machine_tag(mt[1], sizeof(mt[1]), "cpu_model", m->cpu_model);
	if (m && m->kernel_release && !has_tag(rq, "kernel_release"))
		job->tags[n++] = machine_tag(mt[2], sizeof(mt[2]), "kernel_release",
					     m->kernel_release);
	job->tags[n] = NULL;
}

/* A write failed (a full disk, a file size limit): leave no half set behind. */
static void unmake_dir(const char *dir)
{
	static const char *const names[] = { "meta", "columns.csv", "samples.csv", "summary.csv" };
	char path[4200];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		heldir_unlink(path);
	}
	heldir_rmdir(dir);
}

/* meta, then the CSVs: columns.csv first, so a reader that finds summary.csv finds what it is. */
static int write_files(struct import_job *job)
{
	int err = write_file(job, "meta", write_meta);

	err = err ?: write_file(job, "columns.csv", write_columns);
	err = err ?: write_file(job, "samples.csv", write_samples);
	return err ?: write_file(job, "summary.csv", write_summary);
}

/* dir created, with the meta and CSVs of the rows of group (a machine, or all). */
static int write_set(struct import_job *job, const char *dir, int group)
{
	int err = resultdir_create(dir);

	if (err) {
		diag_err("cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	job->dir = dir;
	job->group = group;
	set_tags(job, group == ALL_MACHINES && job->nr_groups == 1 ? job->groups[0] : group);
	err = gather_rows(job);
	if (err)
		diag_err("cannot write %s: %s", dir, strerror(-err));
	err = err ?: write_files(job);
	written_free(&job->out);
	if (err)
		unmake_dir(dir);
	return err;
}

/* OUT/runs/1 ... of each machine's rows, and OUT their merge (merge's CSVs, a run each). */
static int write_runs(struct import_job *job, const char *out)
{
	char (*dirs)[4200] = calloc(job->nr_groups, sizeof(*dirs));
	const char **runs = calloc(job->nr_groups, sizeof(*runs));
	int err = dirs && runs ? 0 : -ENOMEM;

	if (err)
		diag_err("cannot write %s: %s", out, strerror(-err));
	for (int g = 0; !err && g < job->nr_groups; g++) {
		snprintf(dirs[g], sizeof(dirs[g]), "%s/runs/%d", out, g + 1);
		runs[g] = dirs[g];
		err = write_set(job, dirs[g], job->groups[g]);
	}
	err = err ?: merge_in_place(out, runs, job->nr_groups);
	free(runs);
	free(dirs);
	return err;
}

/*
 * Several machines: OUT/runs/<n> the import of each one's rows, OUT the
 * merge of them (its CSVs merge's, a run per machine), so that report and
 * merge draw a line per machine, named by it.
 */
static int write_machines(struct import_job *job)
{
	const char *out = job->rq->outdir;
	char runs_dir[4200];
	int err = resultdir_create(out);

	if (err) {
		diag_err("cannot create %s: %s", out, strerror(-err));
		return err;
	}
	snprintf(runs_dir, sizeof(runs_dir), "%s/runs", out);
	err = heldir_mkdir(runs_dir, 0755);
	if (err)
		diag_err("cannot create %s: %s", runs_dir, strerror(-err));
	err = err ?: write_runs(job, out);
	if (!err) {
		job->dir = out;
		job->group = ALL_MACHINES;
		set_tags(job, -1);
		err = write_file(job, "meta", write_meta);
	}
	if (err)
		resultdir_remove_tree(out);
	return err;
}

int import_job_write(struct import_job *job)
{
	return job->nr_groups > 1 ? write_machines(job) :
				    write_set(job, job->rq->outdir, ALL_MACHINES);
}

void import_job_print(const struct import_job *job, FILE *f)
{
	const struct import_req *rq = job->rq;

	fprintf(f, "%s: %d rows in %d blocks from %d file%s", rq->outdir, job->set.nr_rows,
		job->set.nr_titles, rq->nr_files, rq->nr_files == 1 ? "" : "s");
	for (int g = 0; job->nr_groups > 1 && g < job->nr_groups; g++) {
		const struct import_machine *m = job->groups[g] >= 0 ?
						 &job->set.machines[job->groups[g]] : NULL;

		fprintf(f, "%s runs/%d %s", g ? "," : ", a run per machine:", g + 1,
			m ? m->arch : "(none named)");
		if (m && m->cpu_model)
			fprintf(f, " (%s)", m->cpu_model);
	}
	fputc('\n', f);
}

void import_job_free(struct import_job *job)
{
	if (!job)
		return;
	written_free(&job->out);
	import_params_free(&job->params);
	import_set_free(&job->set);
	free(job->tags);
	free(job);
}
