// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep import FILE... -o OUT: published bench output (import.c reads
 * it) written as a result directory the other commands read (docs/import.md):
 * meta, samples.csv with its header only (there are no intervals), and
 * summary.csv with one ok row per bench row holding mean and stddev.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "colname.h"
#include "csvfile.h"
#include "diag.h"
#include "heldir.h"
#include "import.h"
#include "meta.h"
#include "mergeset.h"
#include "metricmeta.h"
#include "resultdir.h"
#include "textfile.h"

#define FIELD_LEN 256

/* A metric of the set: its name as the bench gives it, and its unit. */
struct metric {
	const char *name;
	enum import_kind kind;
};

#define ALL_MACHINES	-2

struct import_state {
	const struct import_opts *o;
	struct import_set set;
	struct import_params params;
	struct metric metrics[32];
	int nr_metrics;
	/* the machines named (-1: rows before any name), each once: a run each */
	int groups[64];
	int nr_groups;
	/* what is being written: where, the rows of which machine, and their meta's tags */
	const char *dir;
	int group;		/* ALL_MACHINES, or a machines index (-1: none named) */
	const char *tags[CLI_MAX_ARGS + 4];
	char machine_tags[3][FIELD_LEN + 16];
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

static int read_file(struct import_state *st, const char *path)
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
	err = import_parse_len(text, len, basename(copy), &st->set);
	if (err == -EINVAL)
		diag_err("%s:%d: %s", path, st->set.bad_line, st->set.bad_why);
	for (int i = 0; !err && i < st->set.nr_skipped; i++)
		warn_skipped(path, &st->set.skipped[i]);
	free(text);
	free(copy);
	return err;
}

/* Every metric once, in the order rows first show them; one unit each. */
static int collect_metrics(struct import_state *st)
{
	for (int r = 0; r < st->set.nr_rows; r++) {
		const struct import_row *row = &st->set.rows[r];

		for (int v = 0; v < row->nr_values; v++) {
			const struct import_value *iv = &row->v[v];
			int m = 0;

			while (m < st->nr_metrics && strcmp(st->metrics[m].name, iv->name))
				m++;
			if (m < st->nr_metrics && st->metrics[m].kind != iv->kind) {
				diag_err("line %d: '%s' has another unit (rate, size, time) than "
					 "before", row->line, iv->name);
				return -EINVAL;
			}
			if (m < st->nr_metrics)
				continue;
			if (m == sizeof(st->metrics) / sizeof(st->metrics[0])) {
				diag_err("more than %d metrics", m);
				return -E2BIG;
			}
			st->metrics[st->nr_metrics++] = (struct metric){ iv->name, iv->kind };
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
 * "hits_per_s_stddev", "avg_mem_bytes_mean", "latency_ns_mean": a rate's
 * as a counter's, sizes and times as levels with their unit in the name,
 * spelt (and read back) by colname.h alone, of samples.csv's column M.
 */
static void column_name(char *buf, size_t len, const struct metric *m, const char *stat)
{
	char name[64];

	metric_column(name, sizeof(name), m);
	if (m->kind == IMPORT_RATE)
		colname_stat(buf, len, name, CK_COUNTER, stat);
	else
		colname_level(buf, len, name, m->kind == IMPORT_BYTES ? "bytes" : "ns", stat);
}

static const char *const stat_names[] = { "mean", "stddev", "median", "min", "max", "ci95" };
#define NR_STATS (sizeof(stat_names) / sizeof(stat_names[0]))

/* The columns of a run's summary.csv after its parameters (docs/results.md). */
static const char *const run_cols[] = {
	"status", "reason", "nr_producers", "nr_consumers", "nr_cpus", "cpus", "n", "tries",
	"quality",
};
#define NR_RUN_COLS (sizeof(run_cols) / sizeof(run_cols[0]))

#define MAX_COLS (3 + 64 + NR_RUN_COLS + 32 * NR_STATS)

struct row {
	const char *f[MAX_COLS];
	char buf[MAX_COLS][FIELD_LEN];
	int nr;
};

/*
 * A cell; text from the page ("=HYPERLINK(...)" as a label) with an apostrophe before it,
 * which a spreadsheet then shows as text rather than run as a formula (import_safe.c).
 */
static void put(struct row *r, const char *s)
{
	if (r->nr == MAX_COLS)
		return;		/* read_all() refused sets this wide */
	snprintf(r->buf[r->nr], FIELD_LEN, "%s%s", import_formula_led(s) ? "'" : "", s ?: "");
	r->f[r->nr] = r->buf[r->nr];
	r->nr++;
}

static void put_number(struct row *r, const struct metric *m, double v)
{
	char s[64];

	/* rates and times keep three decimals as a run's rates do; sizes are whole bytes */
	snprintf(s, sizeof(s), m->kind == IMPORT_BYTES ? "%.0f" : "%.3f", v);
	put(r, s);
}

static int summary_header(FILE *f, const struct import_state *st, struct row *r)
{
	char name[FIELD_LEN];

	r->nr = 0;
	put(r, "exp");
	put(r, "point");
	put(r, "experiment");
	for (int i = 0; i < st->params.nr; i++)
		put(r, st->params.names[i]);
	for (size_t i = 0; i < NR_RUN_COLS; i++)
		put(r, run_cols[i]);
	for (int m = 0; m < st->nr_metrics; m++) {
		for (size_t s = 0; s < NR_STATS; s++) {
			column_name(name, sizeof(name), &st->metrics[m], stat_names[s]);
			put(r, name);
		}
	}
	return csv_write_row(f, r->f, r->nr);
}

static const struct import_value *row_value(const struct import_row *row, const char *name)
{
	for (int v = 0; v < row->nr_values; v++)
		if (!strcmp(row->v[v].name, name))
			return &row->v[v];
	return NULL;
}

/* Is block exp one of the blocks being written (all, or its machine's)? */
static bool block_written(const struct import_state *st, int exp)
{
	return st->group == ALL_MACHINES || st->set.title_machine[exp] == st->group;
}

/* Is row ri one of the rows being written? */
static bool row_written(const struct import_state *st, int ri)
{
	return block_written(st, st->set.rows[ri].exp);
}

/*
 * One ok row, point number pt of block number exp_nr among the blocks being written: mean and
 * stddev as published, n and the rest unknown.
 */
static int summary_row(FILE *f, const struct import_state *st, int ri, int exp_nr, int pt,
		       struct row *r)
{
	const struct import_row *row = &st->set.rows[ri];
	char id[16];

	r->nr = 0;
	snprintf(id, sizeof(id), "%d", exp_nr);
	put(r, id);
	snprintf(id, sizeof(id), "%d", pt);
	put(r, id);
	put(r, st->set.titles[row->exp]);
	for (int i = 0; i < st->params.nr; i++)
		put(r, st->params.vals[ri][i]);
	put(r, "ok");
	for (size_t i = 1; i < NR_RUN_COLS; i++)
		put(r, "");
	for (int m = 0; m < st->nr_metrics; m++) {
		const struct import_value *v = row_value(row, st->metrics[m].name);

		if (v)
			put_number(r, &st->metrics[m], v->mean);
		else
			put(r, "");
		if (v && v->has_stddev)
			put_number(r, &st->metrics[m], v->stddev);
		else
			put(r, "");
		for (size_t s = 2; s < NR_STATS; s++)
			put(r, "");
	}
	return csv_write_row(f, r->f, r->nr);
}

static int write_summary(FILE *f, const void *ctx)
{
	const struct import_state *st = ctx;
	struct row *r = malloc(sizeof(*r));
	int err = r ? summary_header(f, st, r) : -ENOMEM, pt = 0;
	int counted = 0, exp_nr = 0;	/* blocks written before block counted */

	/* rows come in their blocks' order: each block is counted once, not once per row */
	for (int i = 0; !err && i < st->set.nr_rows; i++) {
		if (!row_written(st, i))
			continue;
		for (; counted < st->set.rows[i].exp; counted++)
			exp_nr += block_written(st, counted);
		err = summary_row(f, st, i, exp_nr, pt++, r);
	}
	free(r);
	return err;
}

static int write_samples(FILE *f, const void *ctx)
{
	const struct import_state *st = ctx;
	const char *fields[6 + 32] = {
		"point", "experiment", "rep", "interval", "warmup", "elapsed_ns",
	};
	char names[32][64];
	int nr = 6;

	for (int m = 0; m < st->nr_metrics; m++) {
		metric_column(names[m], sizeof(names[m]), &st->metrics[m]);
		fields[nr++] = names[m];
	}
	return csv_write_row(f, fields, nr);
}

/*
 * What the set's metric is (metricmeta.h): the direction of a name the
 * benches use, a size or a time per operation lower-better, and for a
 * rate of any other name "unknown": the text does not say.
 */
static void print_metric_line(FILE *f, const struct metric *m)
{
	static const char *const kind[] = {
		[IMPORT_RATE] = "counter", [IMPORT_BYTES] = "bytes", [IMPORT_NS] = "time",
	};
	static const char *const unit[] = {
		[IMPORT_RATE] = "M/s", [IMPORT_BYTES] = "B", [IMPORT_NS] = "ns",
	};
	enum metric_better b;
	char name[64];

	metric_column(name, sizeof(name), m);
	b = metric_better_known(name);
	if (b == MB_UNSET && m->kind != IMPORT_RATE)
		b = MB_LOWER;
	metricmeta_print_one(f, name, kind[m->kind], unit[m->kind], b);
}

/* The first block being written: the set's title. */
static const char *first_title(const struct import_state *st)
{
	for (int i = 0; i < st->set.nr_titles; i++)
		if (block_written(st, i))
			return st->set.titles[i];
	return st->set.titles[0];
}

/* A set of several machines' runs says which, as merge's does. */
static void print_runs(FILE *f, const struct import_state *st)
{
	if (st->group != ALL_MACHINES || st->nr_groups < 2)
		return;
	fprintf(f, "merged: %d runs\n", st->nr_groups);
	for (int g = 0; g < st->nr_groups; g++)
		fprintf(f, "run: %d %s/runs/%d\n", g + 1, st->dir, g + 1);
}

static int write_meta(FILE *f, const void *ctx)
{
	const struct import_state *st = ctx;
	char title[IMPORT_MAX_TEXT + 32];
	const struct import_info ii = {
		.argv_line = st->o->com.argv_line, .files = st->o->com.args, .nr_files = st->o->com.nr_args,
		/* the title as the experiment cells have it: charts and exports take it as a cell */
		.title = import_defused(first_title(st), title, sizeof(title)), .tags = st->tags,
		.when = time(NULL),
	};

	meta_print_imported(f, &ii);
	print_runs(f, st);
	for (int m = 0; m < st->nr_metrics; m++)
		print_metric_line(f, &st->metrics[m]);
	return ferror(f) ? -EIO : 0;
}

/* dir/name holding what fill writes, created exclusively. */
static int write_file(const struct import_state *st, const char *name,
		      int (*fill)(FILE *f, const void *ctx))
{
	int err = resultdir_write_file(st->dir, name, false, fill, st);

	if (err)
		diag_err("cannot write %s/%s: %s", st->dir, name, strerror(-err));
	return err;
}

static bool has_tag(const struct import_opts *o, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; o->com.tags[i]; i++)
		if (!strncmp(o->com.tags[i], key, n) && o->com.tags[i][n] == '=')
			return true;
	return false;
}

/* The --tags, then the arch, CPU model and kernel of the machine the text named, unless tagged. */
static void set_tags(struct import_state *st, int group)
{
	const struct import_machine *m = group >= 0 ? &st->set.machines[group] : NULL;
	int n = 0;

	for (; st->o->com.tags[n]; n++)
		st->tags[n] = st->o->com.tags[n];
	if (m && !has_tag(st->o, "arch")) {
		snprintf(st->machine_tags[0], sizeof(st->machine_tags[0]), "arch=%s", m->arch);
		st->tags[n++] = st->machine_tags[0];
	}
	/* the page's text: merge makes the tags cells of summary.csv (tag_cpu_model) */
	if (m && m->cpu_model && !has_tag(st->o, "cpu_model")) {
		snprintf(st->machine_tags[1], sizeof(st->machine_tags[1]), "cpu_model=%s%s",
			 import_formula_led(m->cpu_model) ? "'" : "", m->cpu_model);
		st->tags[n++] = st->machine_tags[1];
	}
	if (m && m->kernel_release && !has_tag(st->o, "kernel_release")) {
		snprintf(st->machine_tags[2], sizeof(st->machine_tags[2]), "kernel_release=%s%s",
			 import_formula_led(m->kernel_release) ? "'" : "", m->kernel_release);
		st->tags[n++] = st->machine_tags[2];
	}
	st->tags[n] = NULL;
}

static int check_args(const struct import_opts *o)
{
	if (!o->com.nr_args) {
		diag_err("import needs at least one FILE");
		return -EINVAL;
	}
	if (!o->com.outdir) {
		diag_err("import needs -o OUT, the result directory to create");
		return -EINVAL;
	}
	return 0;
}

/* The machines of the rows, each once in the order first met: a run each. */
static int find_groups(struct import_state *st)
{
	for (int r = 0; r < st->set.nr_rows; r++) {
		int m = st->set.title_machine[st->set.rows[r].exp], g = 0;

		while (g < st->nr_groups && st->groups[g] != m)
			g++;
		if (g < st->nr_groups)
			continue;
		if (g == sizeof(st->groups) / sizeof(st->groups[0])) {
			diag_err("the text names more than %d machines", g);
			return -E2BIG;
		}
		st->groups[st->nr_groups++] = m;
	}
	return 0;
}

/* Everything read and checked before the directory is made: a bad FILE leaves nothing. */
static int read_all(struct import_state *st)
{
	char why[512];
	int err = 0;

	for (int i = 0; !err && i < st->o->com.nr_args; i++)
		err = read_file(st, st->o->com.args[i]);
	if (!err && !st->set.nr_rows) {
		diag_err("no bench output found in %s%s", st->o->com.args[0],
			 st->o->com.nr_args > 1 ? " ..." : "");
		err = -EINVAL;
	}
	if (!err) {
		err = import_params_build(&st->set, st->o->label, &st->params, why, sizeof(why));
		/* why is set only by import_params_build(): errors above are already told */
		if (err == -EINVAL)
			diag_err("%s", why);
	}
	if (!err && st->o->label && !st->params.matched) {
		diag_err("--label '%s' matches no row (the first is '%s')", st->o->label,
			 st->set.rows[0].label);
		err = -EINVAL;
	}
	if (!err && st->params.nr > 64) {
		diag_err("labels give %d parameters, more than 64", st->params.nr);
		err = -E2BIG;
	}
	err = err ?: find_groups(st);
	return err ?: collect_metrics(st);
}

/* A write failed (a full disk, a file size limit): leave no half set behind. */
static void unmake_dir(const char *dir)
{
	static const char *const names[] = { "meta", "samples.csv", "summary.csv" };
	char path[4200];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		heldir_unlink(path);
	}
	heldir_rmdir(dir);
}

/* dir created, with the meta and CSVs of the rows of group (a machine, or all). */
static int write_set(struct import_state *st, const char *dir, int group)
{
	int err = resultdir_create(dir);

	if (err) {
		diag_err("cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	st->dir = dir;
	st->group = group;
	set_tags(st, group == ALL_MACHINES && st->nr_groups == 1 ? st->groups[0] : group);
	err = write_file(st, "meta", write_meta);
	if (!err)
		err = write_file(st, "samples.csv", write_samples);
	if (!err)
		err = write_file(st, "summary.csv", write_summary);
	if (err)
		unmake_dir(dir);
	return err;
}

/*
 * Several machines: OUT/runs/<n> the import of each one's rows, OUT the
 * merge of them (its CSVs merge's, a run per machine), so that report and
 * merge draw a line per machine, named by it.
 */
static int write_machines(struct import_state *st)
{
	static char dirs[64][4200];
	const char *runs[64];
	const char *out = st->o->com.outdir;
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
	for (int g = 0; !err && g < st->nr_groups; g++) {
		snprintf(dirs[g], sizeof(dirs[g]), "%s/runs/%d", out, g + 1);
		runs[g] = dirs[g];
		err = write_set(st, dirs[g], st->groups[g]);
	}
	err = err ?: merge_in_place(out, runs, st->nr_groups);
	if (!err) {
		st->dir = out;
		st->group = ALL_MACHINES;
		set_tags(st, -1);
		err = write_file(st, "meta", write_meta);
	}
	if (err)
		resultdir_remove_tree(out);
	return err;
}

static int write_all(struct import_state *st)
{
	return st->nr_groups > 1 ? write_machines(st) :
				   write_set(st, st->o->com.outdir, ALL_MACHINES);
}

/* "OUT: 32 rows in 2 blocks from 1 file, a run per machine: runs/1 x86_64 (CPU), runs/2 ..." */
static void print_done(const struct import_state *st)
{
	const struct import_opts *o = st->o;

	printf("%s: %d rows in %d blocks from %d file%s", o->com.outdir, st->set.nr_rows,
	       st->set.nr_titles, o->com.nr_args, o->com.nr_args == 1 ? "" : "s");
	for (int g = 0; st->nr_groups > 1 && g < st->nr_groups; g++) {
		const struct import_machine *m = st->groups[g] >= 0 ?
						 &st->set.machines[st->groups[g]] : NULL;

		printf("%s runs/%d %s", g ? "," : ", a run per machine:", g + 1,
		       m ? m->arch : "(none named)");
		if (m && m->cpu_model)
			printf(" (%s)", m->cpu_model);
	}
	putchar('\n');
}

int cmd_import(const struct import_opts *o)
{
	struct import_state *st = calloc(1, sizeof(*st));
	int err = st ? check_args(o) : -ENOMEM, status;

	if (!err) {
		st->o = o;
		err = read_all(st);
	}
	/* past a file size limit, a write must fail with EFBIG, not kill the import */
	signal(SIGXFSZ, SIG_IGN);
	status = err ? EXIT_USAGE : EXIT_OK;
	if (!err) {
		err = write_all(st);
		status = err ? exit_write_status(err) : EXIT_OK;
	}
	if (!err)
		print_done(st);
	if (st) {
		import_params_free(&st->params);
		import_set_free(&st->set);
	}
	free(st);
	return status;
}
