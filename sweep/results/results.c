// SPDX-License-Identifier: GPL-2.0
/*
 * samples.csv and summary.csv of a result directory, programs.csv
 * (programs.h) beside them, and columns.csv (what summary.csv's columns
 * are: columns.h).  Rows are appended, flushed and fsync()ed as each
 * point ends: a crash, a power cut or a Ctrl-C loses nothing finished.
 * Column layout: docs/results.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "columns.h"
#include "csvfile.h"
#include "heldir.h"
#include "metric.h"
#include "programs.h"
#include "resultdir.h"
#include "results.h"

/* Per counter, with a baseline: ns per event over it and the ratio, each mean and sd. */
#define NR_BASE_COLS	4

/*
 * Longest row: fixed columns, every parameter, eight statistics per metric,
 * four of the per-thread metric's workers, six of ns_per_run and those
 * relative to a baseline, and the profiler's three.
 */
#define MAX_COLS	(19 + WL_MAX_PARAMS + 8 * WL_MAX_METRICS + 4 + 6 + \
			 NR_BASE_COLS * WL_MAX_METRICS + 3)
#define FIELD_LEN	512

struct results_file {
	const char *name;	/* "samples.csv" */
	int fd;
	off_t size;		/* what is on disk: the end of the last whole point */
};

struct results {
	const struct sweep_cfg *cfg;
	struct results_file samples;
	struct results_file summary;
	struct results_file programs;	/* fd -1: the workload loads no programs */
	struct column *cols;	/* summary.csv's (columns.h) */
	int nr_cols;
	int rollback_err;	/* of the last failed append, 0 if it was undone */
};

/* One row being built: fields point into buf. */
struct row {
	const char *f[MAX_COLS];
	char buf[MAX_COLS][FIELD_LEN];
	int nr;
};

static char *row_next(struct row *r)
{
	r->f[r->nr] = r->buf[r->nr];
	return r->buf[r->nr++];
}

static void row_str(struct row *r, const char *s)
{
	snprintf(row_next(r), FIELD_LEN, "%s", s ? s : "");
}

static void row_u64(struct row *r, uint64_t v)
{
	snprintf(row_next(r), FIELD_LEN, "%" PRIu64, v);
}

/* The columns every samples row starts with, before the metrics'. */
static const char *const samples_fixed[] = {
	"point", "experiment", "rep", "interval", "warmup", "elapsed_ns",
};

#define NR_SAMPLES_FIXED (sizeof(samples_fixed) / sizeof(samples_fixed[0]))

static int samples_header(const struct sweep_cfg *cfg, struct row *r)
{
	for (size_t i = 0; i < NR_SAMPLES_FIXED; i++)
		row_str(r, samples_fixed[i]);
	for (int m = 0; m < cfg->wl->nr_metrics; m++)
		row_str(r, cfg->wl->metrics[m].name);
	/* only a workload with a per-thread metric has thread rows: other files stay as they were */
	if (wl_thread_metric(cfg->wl) >= 0)
		row_str(r, "thread");
	/* and only a run with decide its arms' places in their rounds, last */
	if (cfg->decide_pct > 0)
		row_str(r, "slot");
	return 0;
}

/* The header cells of cols into r. */
static void header_of_columns(const struct column *cols, int nr, struct row *r)
{
	for (int i = 0; i < nr; i++)
		row_str(r, cols[i].name);
}

/* The summary's header, with the units' columns or (summary.csv before them) without. */
static int summary_header_of(const struct sweep_cfg *cfg, struct row *r, bool units)
{
	struct column *cols;
	int nr, err;

	err = columns_of(cfg, units, &cols, &nr);
	if (err)
		return err;
	header_of_columns(cols, nr, r);
	free(cols);
	return 0;
}

static int summary_header(const struct sweep_cfg *cfg, struct row *r)
{
	return summary_header_of(cfg, r, true);
}

static int programs_header_row(const struct sweep_cfg *cfg, struct row *r)
{
	const char *names[PROGRAMS_MAX_COLS];
	int nr = programs_header(cfg, names);

	for (int i = 0; i < nr; i++)
		row_str(r, names[i]);
	return 0;
}

static int summary_header_before_units(const struct sweep_cfg *cfg, struct row *r)
{
	return summary_header_of(cfg, r, false);
}

/* Write r to f and start a new row. */
static int row_flush(FILE *f, struct row *r)
{
	int err = csv_write_row(f, r->f, r->nr);

	r->nr = 0;
	return err;
}

typedef int (*header_fn)(const struct sweep_cfg *cfg, struct row *r);

/* The header line of a file into m. */
static int header_text(const struct sweep_cfg *cfg, header_fn fill, struct membuf *m)
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = membuf_open(m);
	if (!err) {
		err = fill(cfg, r);
		err = row_flush(m->f, r) ?: err;
		err = membuf_close(m) ?: err;
	}
	free(r);
	return err;
}

/* Create dir/name holding only its header, on disk before any point runs. */
static int create_csv(const char *dir, const struct sweep_cfg *cfg, header_fn fill,
		      struct results_file *rf)
{
	struct membuf m;
	int err;

	err = header_text(cfg, fill, &m);
	if (!err) {
		rf->fd = resultdir_create_file(dir, rf->name, m.buf, m.len);
		err = rf->fd < 0 ? rf->fd : 0;
		rf->size = m.len;
	}
	membuf_free(&m);
	return err;
}

static struct results *results_new(const struct sweep_cfg *cfg)
{
	struct results *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cfg = cfg;
	r->samples = (struct results_file){ .name = "samples.csv", .fd = -1 };
	r->summary = (struct results_file){ .name = "summary.csv", .fd = -1 };
	r->programs = (struct results_file){ .name = PROGRAMS_CSV, .fd = -1 };
	return r;
}

/*
 * An existing file of an interrupted run, appended to from its end; one a
 * kill kept from being made, or (where O_TMPFILE is missing) from getting
 * its header, is made now.
 */
static int reopen_csv(const char *dir, const struct sweep_cfg *cfg, header_fn fill,
		      struct results_file *rf)
{
	char path[4200];
	struct membuf m;
	struct stat st;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, rf->name);
	rf->fd = heldir_open(path, O_RDWR, 0);
	if (rf->fd == -ENOENT)
		return create_csv(dir, cfg, fill, rf);
	if (rf->fd < 0)
		return rf->fd;
	if (fstat(rf->fd, &st))
		return -errno;
	rf->size = st.st_size;
	if (rf->size)
		return 0;
	err = header_text(cfg, fill, &m);
	if (!err)
		err = resultdir_write_at(rf->fd, 0, m.buf, m.len);
	if (!err)
		rf->size = m.len;
	membuf_free(&m);
	return err;
}

/*
 * columns.csv beside summary.csv: what each of its columns is.  A resumed
 * run's is written again (its headers were checked to be this run's): a
 * set from before columns.csv gets one.
 */
static int write_columns(const char *dir, const struct results *r, bool replace)
{
	struct membuf m;
	int err;

	err = membuf_open(&m);
	if (!err) {
		err = columns_write(m.f, r->cols, r->nr_cols);
		err = membuf_close(&m) ?: err;
	}
	if (!err)
		err = resultdir_put_file(dir, "columns.csv", m.buf, m.len, replace);
	membuf_free(&m);
	return err;
}

typedef int (*open_fn)(const char *dir, const struct sweep_cfg *cfg, header_fn fill,
		       struct results_file *rf);

static int results_open(const char *dir, const struct sweep_cfg *cfg, open_fn open_csv,
			struct results **out)
{
	struct results *r = results_new(cfg);
	int err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	err = columns_of(cfg, true, &r->cols, &r->nr_cols);
	if (!err && r->nr_cols > MAX_COLS)
		err = -E2BIG;
	/* first: a reader that finds summary.csv finds what its columns are */
	if (!err)
		err = write_columns(dir, r, open_csv == reopen_csv);
	if (!err)
		err = open_csv(dir, cfg, samples_header, &r->samples);
	if (!err)
		err = open_csv(dir, cfg, summary_header, &r->summary);
	if (!err && programs_kept(cfg))
		err = open_csv(dir, cfg, programs_header_row, &r->programs);
	if (err) {
		results_close(r);
		return err;
	}
	*out = r;
	return 0;
}

int results_create(const char *dir, const struct sweep_cfg *cfg, struct results **out)
{
	return results_open(dir, cfg, create_csv, out);
}

int results_reopen(const char *dir, const struct sweep_cfg *cfg, struct results **out)
{
	return results_open(dir, cfg, reopen_csv, out);
}

/* Does header row t_head (nr fields) name the columns fill() writes? */
static bool header_is(const struct sweep_cfg *cfg, header_fn fill, char *const *t_head, int nr)
{
	struct row *r = calloc(1, sizeof(*r));
	bool same;

	if (!r)
		return false;
	same = !fill(cfg, r) && r->nr == nr;
	for (int i = 0; same && i < nr; i++)
		same = !strcmp(r->f[i], t_head[i]);
	free(r);
	return same;
}

int results_check_header(const struct sweep_cfg *cfg, const struct csv_table *samples,
			 const struct csv_table *summary, const char **which)
{
	*which = NULL;
	if (samples->nr_rows && !header_is(cfg, samples_header, samples->header,
					   samples->nr_cols))
		*which = "samples.csv";
	else if (summary->nr_rows && !header_is(cfg, summary_header, summary->rows[0],
						summary->nr_cols))
		*which = "summary.csv";
	return *which ? -EBADMSG : 0;
}

int results_check_header_readable(const struct sweep_cfg *cfg, const struct csv_table *samples,
				  const struct csv_table *summary, const char **which)
{
	if (!results_check_header(cfg, samples, summary, which))
		return 0;
	if (*which && !strcmp(*which, "summary.csv") &&
	    header_is(cfg, summary_header_before_units, summary->rows[0], summary->nr_cols))
		*which = NULL;
	return *which ? -EBADMSG : 0;
}

int results_rewrite(const char *dir, const char *name, const struct csv_table *t,
		    const bool *keep)
{
	const char **f = calloc(t->nr_cols + 1, sizeof(*f));
	struct membuf m = { 0 };
	int err;

	err = f ? membuf_open(&m) : -ENOMEM;
	for (int i = 0; !err && i < t->nr_rows; i++) {
		if (i && !keep[i])
			continue;
		csv_row_cells(t, i, f);
		err = csv_write_row(m.f, f, t->nr_cols);
	}
	free(f);
	err = (m.f ? membuf_close(&m) : 0) ?: err;
	if (!err)
		err = resultdir_replace_file(dir, name, m.buf, m.len);
	membuf_free(&m);
	return err;
}

/* The columns every samples row starts with: which point and interval. */
static void sample_fixed(const struct point_result *pr, const char *title,
			 const struct interval *iv, struct row *r)
{
	row_u64(r, pr->pt->id);
	row_str(r, title);
	row_u64(r, iv->rep);
	row_u64(r, iv->idx);
	row_u64(r, iv->warmup);
	row_u64(r, iv->elapsed_ns);
}

/* With decide, the last cell: where in its round the interval's arm ran. */
static void sample_slot(const struct sweep_cfg *cfg, const struct interval *iv, struct row *r)
{
	if (cfg->decide_pct > 0)
		row_u64(r, iv->slot);
}

/*
 * A gauge that could not be read, or a program counter the kernel did not
 * keep, is an empty cell, not 18446744073709551615.
 */
static void row_value(struct row *r, const struct metric_def *d, uint64_t v)
{
	if ((d->kind == MK_GAUGE || d->source != MS_WORKLOAD) && v == METRIC_UNKNOWN)
		row_str(r, "");
	else
		row_u64(r, v);
}

/*
 * After an interval's row, one row per producer: its increase of the
 * per-thread metric m in that metric's column, the others empty.
 */
static int append_thread_rows(const struct sweep_cfg *cfg, const struct point_result *pr,
			      const char *title, const struct interval *iv, int m, FILE *f,
			      struct row *r)
{
	int err = 0;

	for (int t = 0; !err && iv->thread_delta && t < pr->nr_producers; t++) {
		sample_fixed(pr, title, iv, r);
		for (int k = 0; k < cfg->wl->nr_metrics; k++) {
			if (k == m)
				row_u64(r, iv->thread_delta[t]);
			else
				row_str(r, "");
		}
		row_u64(r, t);
		sample_slot(cfg, iv, r);
		err = row_flush(f, r);
	}
	return err;
}

static int append_samples(struct results *res, const struct point_result *pr, FILE *f,
			  struct row *r)
{
	const char *title = experiment_title(res->cfg, &res->cfg->exps[pr->pt->exp]);
	const struct workload *wl = res->cfg->wl;
	int tm = wl_thread_metric(wl), err = 0;

	for (int i = 0; !err && i < pr->nr_iv; i++) {
		const struct interval *iv = &pr->iv[i];

		sample_fixed(pr, title, iv, r);
		for (int m = 0; m < wl->nr_metrics; m++)
			row_value(r, &wl->metrics[m], iv->value[m]);
		if (tm >= 0)
			row_str(r, "");
		sample_slot(res->cfg, iv, r);
		err = row_flush(f, r);
		if (!err && tm >= 0)
			err = append_thread_rows(res->cfg, pr, title, iv, tm, f, r);
	}
	return err;
}

/* The cells of cols[0..nr) of src's point into r (columns.h). */
static void column_cells(const struct column *cols, int nr, const struct col_src *src,
			 struct row *r)
{
	for (int i = 0; i < nr; i++, r->nr++)
		r->f[r->nr] = column_cell(&cols[i], src, r->buf[r->nr], FIELD_LEN);
}

static int append_summary(struct results *res, const struct point_result *pr, FILE *f,
			  struct row *r)
{
	/* the baseline may not have run yet: results_fill_baseline() fills its cells */
	const struct col_src src = { .cfg = res->cfg, .pr = pr };

	column_cells(res->cols, res->nr_cols, &src, r);
	return row_flush(f, r);
}

/* A point's rows of each file, formatted in memory: a file gets all of them or none. */
struct point_rows {
	struct membuf samples, summary, programs;
};

static int format_point(struct results *res, const struct point_result *pr,
			struct point_rows *pm)
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = membuf_open(&pm->samples) ?: membuf_open(&pm->summary) ?:
	      membuf_open(&pm->programs);
	if (!err)
		err = append_samples(res, pr, pm->samples.f, r);
	if (!err)
		err = append_summary(res, pr, pm->summary.f, r);
	if (!err && res->programs.fd >= 0)
		err = programs_write_point(pm->programs.f, res->cfg, pr);
	if (pm->samples.f)
		err = membuf_close(&pm->samples) ?: err;
	if (pm->summary.f)
		err = membuf_close(&pm->summary) ?: err;
	if (pm->programs.f)
		err = membuf_close(&pm->programs) ?: err;
	free(r);
	return err;
}

/* A file back to its size before the point; nothing for one the run does not write. */
static int cut_back(const struct results_file *rf)
{
	if (rf->fd < 0)
		return 0;
	return ftruncate(rf->fd, rf->size) || fsync(rf->fd) ? -errno : 0;
}

/*
 * Undo a point whose rows did not all reach the disk: every file goes back
 * to its size before it, so no row is torn and summary.csv never claims
 * samples or programs that the other files do not hold.
 */
static int roll_back(struct results *res)
{
	int err = cut_back(&res->samples);

	err = cut_back(&res->programs) ?: err;
	return cut_back(&res->summary) ?: err;
}

/* m's text at the end of rf, synced (resultdir_write_at()); nothing for a file not written. */
static int append_to(const struct results_file *rf, const struct membuf *m)
{
	return rf->fd < 0 ? 0 : resultdir_write_at(rf->fd, rf->size, m->buf, m->len);
}

/*
 * Samples and programs first: a kill between the writes leaves rows of a
 * point with no summary row (a resumed run drops them), never a summary
 * row whose other rows are not there.
 */
int results_append(struct results *res, const struct point_result *pr)
{
	struct point_rows pm = { 0 };
	int err;

	err = format_point(res, pr, &pm) ?: append_to(&res->samples, &pm.samples) ?:
	      append_to(&res->programs, &pm.programs) ?: append_to(&res->summary, &pm.summary);
	if (!err) {
		res->samples.size += pm.samples.len;
		res->programs.size += pm.programs.len;
		res->summary.size += pm.summary.len;
	} else {
		res->rollback_err = roll_back(res);
	}
	membuf_free(&pm.samples);
	membuf_free(&pm.summary);
	membuf_free(&pm.programs);
	return err;
}

/* The row of v with point id, or NULL. */
static const struct view_row *row_of_point(const struct result_view *v, long id)
{
	for (int i = 0; i < v->nr_rows; i++)
		if (v->rows[i].id == id)
			return &v->rows[i];
	return NULL;
}

/* Line i's baseline cells replaced by those of row r against its baseline row base. */
static int fill_row(struct csv_table *t, int i, const struct column *cols, int nr_cols,
		    const struct view_row *r, const struct view_row *base)
{
	char buf[FIELD_LEN];

	for (int c = 0; c < nr_cols; c++) {
		int col = csv_column(t, cols[c].name);
		int err;

		if (!column_is_baseline(&cols[c]) || col < 0)
			continue;
		err = csv_set_cell(t, i, col, column_baseline_cell(&cols[c], r, base, buf,
								   sizeof(buf)));
		if (err)
			return err;
	}
	return 0;
}

/* The baseline cells of t's lines whose points are rows of v, among rows[0..v->nr_rows). */
static int fill_rows(const struct sweep_cfg *cfg, struct csv_table *t, bool *keep,
		     const struct result_view *v, const struct view_row **rows)
{
	int c_id = csv_column(t, "point"), nr_cols, err;
	struct column *cols = NULL;

	if (c_id < 0)
		return -EBADMSG;
	err = columns_of(cfg, true, &cols, &nr_cols);
	for (int i = 1; !err && i < t->nr_rows; i++) {
		const struct view_row *r = row_of_point(v, strtol(t->rows[i][c_id], NULL, 10));

		keep[i] = true;
		if (r && r->exp >= 0)
			err = fill_row(t, i, cols, nr_cols, r,
				       baseline_find_row(v, r, rows, v->nr_rows));
	}
	free(cols);
	return err;
}

int results_fill_baseline(const char *dir, const struct sweep_cfg *cfg,
			  const struct result_view *v)
{
	const struct view_row **rows = NULL;
	struct csv_table t = { 0 };
	bool *keep = NULL;
	char path[4200];
	int err;

	if (!cfg_has_baseline(cfg))
		return 0;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	err = csv_read_file(path, &t);
	if (err)
		return err;
	keep = calloc(t.nr_rows ? t.nr_rows : 1, sizeof(*keep));
	rows = calloc(v->nr_rows + 1, sizeof(*rows));
	for (int i = 0; rows && i < v->nr_rows; i++)
		rows[i] = &v->rows[i];
	err = keep && rows ? fill_rows(cfg, &t, keep, v, rows) : -ENOMEM;
	if (!err)
		err = results_rewrite(dir, "summary.csv", &t, keep);
	free(rows);
	free(keep);
	csv_table_free(&t);
	return err;
}

int results_published_columns(FILE *f, const struct published_layout *l)
{
	struct column *cols;
	int nr, err;

	err = columns_of_published(l, &cols, &nr);
	if (err)
		return err;
	err = columns_write(f, cols, nr);
	free(cols);
	return err;
}

int results_published_samples(FILE *f, const struct published_layout *l)
{
	const char **cells = calloc(NR_SAMPLES_FIXED + l->nr_metrics, sizeof(*cells));
	int nr = 0, err;

	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < NR_SAMPLES_FIXED; i++)
		cells[nr++] = samples_fixed[i];
	for (int m = 0; m < l->nr_metrics; m++)
		cells[nr++] = l->metrics[m].name;
	err = csv_write_row(f, cells, nr);
	free(cells);
	return err;
}

/* One row's cells: the header's (row NULL) or a published row's, through the column table. */
static int published_line(FILE *f, const struct column *cols, int nr, const struct col_src *src,
			  const char **cells, char (*buf)[FIELD_LEN])
{
	for (int i = 0; i < nr; i++)
		cells[i] = src->row ? column_cell(&cols[i], src, buf[i], FIELD_LEN) : cols[i].name;
	return csv_write_row(f, cells, nr);
}

int results_published_summary(FILE *f, const struct published_layout *l,
			      const struct published_row *rows, int nr_rows)
{
	struct col_src src = { .layout = l };
	struct column *cols = NULL;
	const char **cells = NULL;
	char (*buf)[FIELD_LEN] = NULL;
	int nr = 0, err;

	err = columns_of_published(l, &cols, &nr);
	if (!err) {
		cells = calloc(nr, sizeof(*cells));
		buf = calloc(nr, sizeof(*buf));
		err = cells && buf ? published_line(f, cols, nr, &src, cells, buf) : -ENOMEM;
	}
	for (int i = 0; !err && i < nr_rows; i++) {
		src.row = &rows[i];
		err = published_line(f, cols, nr, &src, cells, buf);
	}
	free(buf);
	free(cells);
	free(cols);
	return err;
}

int results_rollback_error(const struct results *res)
{
	return res->rollback_err;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	if (r->samples.fd >= 0)
		close(r->samples.fd);
	if (r->summary.fd >= 0)
		close(r->summary.fd);
	if (r->programs.fd >= 0)
		close(r->programs.fd);
	free(r->cols);
	free(r);
}
