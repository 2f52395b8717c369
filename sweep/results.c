// SPDX-License-Identifier: GPL-2.0
/*
 * samples.csv and summary.csv of a result directory.  Rows are appended,
 * flushed and fsync()ed as each point ends: a crash, a power cut or a
 * Ctrl-C loses nothing finished.  Column layout: docs/results.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "csvfile.h"
#include "metric.h"
#include "precision.h"
#include "progrun.h"
#include "resultdir.h"
#include "results.h"

/* Per counter, with a baseline: ns per event over it and the ratio, each mean and sd. */
#define NR_BASE_COLS	4

/*
 * Longest row: fixed columns, every parameter, eight statistics per metric,
 * four of the per-thread metric's workers, six of ns_per_run and those
 * relative to a baseline.
 */
#define MAX_COLS	(19 + WL_MAX_PARAMS + 8 * WL_MAX_METRICS + 4 + 6 + \
			 NR_BASE_COLS * WL_MAX_METRICS)
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

/* A field longer than FIELD_LEN may allow (the cpus of 1024 threads): not copied. */
static void row_ref(struct row *r, const char *s)
{
	r->f[r->nr++] = s ? s : "";
}

static void row_u64(struct row *r, uint64_t v)
{
	snprintf(row_next(r), FIELD_LEN, "%" PRIu64, v);
}

/* Rates keep three decimals: %g would round 14970123.4 to 1.49701e+07. */
static void row_rate(struct row *r, double v)
{
	char *s = row_next(r);

	if (isfinite(v))
		snprintf(s, FIELD_LEN, "%.3f", v);
	else
		s[0] = '\0';
}

static void samples_header(const struct sweep_cfg *cfg, struct row *r)
{
	static const char *const fixed[] = {
		"point", "experiment", "rep", "interval", "warmup", "elapsed_ns",
	};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		row_str(r, fixed[i]);
	for (int m = 0; m < cfg->wl->nr_metrics; m++)
		row_str(r, cfg->wl->metrics[m].name);
	/* only a workload with a per-thread metric has thread rows: other files stay as they were */
	if (wl_thread_metric(cfg->wl) >= 0)
		row_str(r, "thread");
}

/*
 * The per-point columns after the parameters.  Thread counts are
 * nr_producers/nr_consumers because "producers" is a parameter of several
 * workloads, and a header must not name a column twice.
 */
static const char *const summary_run_cols[] = {
	"status", "reason", "nr_producers", "nr_consumers", "nr_cpus", "cpus", "n", "tries",
	"quality",
};

static const char *const stat_names[] = {
	"mean", "stddev", "median", "min", "max", "ci95",
};

#define NR_STATS (sizeof(stat_names) / sizeof(stat_names[0]))

/* After them: the point's units, why its repetitions stopped, its half-width (precision.h). */
static const char *const unit_run_cols[] = { "unit_kind", "stop", "half_width_pct" };

#define NR_UNIT_RUN_COLS (sizeof(unit_run_cols) / sizeof(unit_run_cols[0]))

/* Each metric's independent units (units.h): how many, and their sd (ci95 is theirs). */
static const char *const unit_stat_names[] = { "units", "unit_sd" };

#define NR_UNIT_STATS (sizeof(unit_stat_names) / sizeof(unit_stat_names[0]))

/* The per-thread metric's spread across producers (worker_rate), after its own six. */
static const char *const worker_stat_names[] = {
	"worker_mean", "worker_min", "worker_median", "worker_max",
};

#define NR_WORKER_STATS (sizeof(worker_stat_names) / sizeof(worker_stat_names[0]))

/* "hits_per_s_mean" of a counter (a rate), "mem_mean" of a gauge (a level). */
static void stat_column(struct row *r, const struct metric_def *d, const char *stat)
{
	snprintf(row_next(r), FIELD_LEN, "%s%s_%s", d->name,
		 d->kind == MK_GAUGE ? "" : "_per_s", stat);
}

/* ns_per_run's six, after the metrics', of a workload with program counters (progrun.h). */
static void per_run_header(const struct workload *wl, struct row *r)
{
	int runs, ns;

	if (!prog_metrics(wl, &runs, &ns))
		return;
	for (size_t s = 0; s < NR_STATS; s++)
		snprintf(row_next(r), FIELD_LEN, "ns_per_run_%s", stat_names[s]);
}

/*
 * "hits_over_base_ns_mean", "_sd", "hits_vs_base_mean", "_sd" of each
 * counter, last, and only when the spec sets a baseline: every other
 * run's summary.csv stays as it was.
 */
static void baseline_header(const struct sweep_cfg *cfg, struct row *r)
{
	static const char *const cols[NR_BASE_COLS] = {
		"over_base_ns_mean", "over_base_ns_sd", "vs_base_mean", "vs_base_sd",
	};
	const struct workload *wl = cfg->wl;

	if (!cfg_has_baseline(cfg))
		return;
	for (int m = 0; m < wl->nr_metrics; m++)
		for (int c = 0; wl->metrics[m].kind == MK_COUNTER && c < NR_BASE_COLS; c++)
			snprintf(row_next(r), FIELD_LEN, "%s_%s", wl->metrics[m].name, cols[c]);
}

/* The summary's header, with the units' columns or (summary.csv before them) without. */
static void summary_header_of(const struct sweep_cfg *cfg, struct row *r, bool units)
{
	const struct workload *wl = cfg->wl;
	int tm = wl_thread_metric(wl);

	/* exp first: a number, so `cut -d,` counts fields right despite quoted titles */
	row_str(r, "exp");
	row_str(r, "point");
	row_str(r, "experiment");
	for (int p = 0; p < wl->nr_params; p++)
		row_str(r, wl->params[p].name);
	for (size_t i = 0; i < sizeof(summary_run_cols) / sizeof(summary_run_cols[0]); i++)
		row_str(r, summary_run_cols[i]);
	for (size_t i = 0; units && i < NR_UNIT_RUN_COLS; i++)
		row_str(r, unit_run_cols[i]);
	for (int m = 0; m < wl->nr_metrics; m++) {
		for (size_t s = 0; s < NR_STATS; s++)
			stat_column(r, &wl->metrics[m], stat_names[s]);
		for (size_t s = 0; units && s < NR_UNIT_STATS; s++)
			stat_column(r, &wl->metrics[m], unit_stat_names[s]);
		for (size_t s = 0; m == tm && s < NR_WORKER_STATS; s++)
			stat_column(r, &wl->metrics[m], worker_stat_names[s]);
	}
	per_run_header(wl, r);
	baseline_header(cfg, r);
}

static void summary_header(const struct sweep_cfg *cfg, struct row *r)
{
	summary_header_of(cfg, r, true);
}

static void summary_header_before_units(const struct sweep_cfg *cfg, struct row *r)
{
	summary_header_of(cfg, r, false);
}

/* Write r to f and start a new row. */
static int row_flush(FILE *f, struct row *r)
{
	int err = csv_write_row(f, r->f, r->nr);

	r->nr = 0;
	return err;
}

typedef void (*header_fn)(const struct sweep_cfg *cfg, struct row *r);

/* The header line of a file into m. */
static int header_text(const struct sweep_cfg *cfg, header_fn fill, struct membuf *m)
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = membuf_open(m);
	if (!err) {
		fill(cfg, r);
		err = row_flush(m->f, r);
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
	rf->fd = open(path, O_RDWR | O_CLOEXEC);
	if (rf->fd < 0 && errno == ENOENT)
		return create_csv(dir, cfg, fill, rf);
	if (rf->fd < 0 || fstat(rf->fd, &st))
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
	err = open_csv(dir, cfg, samples_header, &r->samples);
	if (!err)
		err = open_csv(dir, cfg, summary_header, &r->summary);
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
static bool header_is(const struct sweep_cfg *cfg, header_fn fill, char **t_head, int nr)
{
	struct row *r = calloc(1, sizeof(*r));
	bool same;

	if (!r)
		return false;
	fill(cfg, r);
	same = r->nr == nr;
	for (int i = 0; same && i < nr; i++)
		same = !strcmp(r->f[i], t_head[i]);
	free(r);
	return same;
}

int results_check_header(const struct sweep_cfg *cfg, const struct csv_table *samples,
			 const struct csv_table *summary, const char **which)
{
	*which = NULL;
	if (samples->nr_rows && !header_is(cfg, samples_header, samples->rows[0],
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
	struct membuf m;
	int err;

	err = membuf_open(&m);
	for (int i = 0; !err && i < t->nr_rows; i++)
		if (!i || keep[i])
			err = csv_write_row(m.f, (const char *const *)t->rows[i], t->nr_cols);
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
static int append_thread_rows(const struct point_result *pr, const char *title,
			      const struct interval *iv, int m, int nr_metrics, FILE *f,
			      struct row *r)
{
	int err = 0;

	for (int t = 0; !err && iv->thread_delta && t < pr->nr_producers; t++) {
		sample_fixed(pr, title, iv, r);
		for (int k = 0; k < nr_metrics; k++) {
			if (k == m)
				row_u64(r, iv->thread_delta[t]);
			else
				row_str(r, "");
		}
		row_u64(r, t);
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
		err = row_flush(f, r);
		if (!err && tm >= 0)
			err = append_thread_rows(pr, title, iv, tm, wl->nr_metrics, f, r);
	}
	return err;
}

int results_measured_intervals(const struct point_result *pr)
{
	int n = 0;

	/* an ok point's statistics leave out intervals of no length, as result.c does */
	for (int i = 0; i < pr->nr_iv; i++)
		n += !pr->iv[i].warmup && (pr->status != PS_OK || pr->iv[i].elapsed_ns);
	return n;
}

static void summary_run_fields(const struct point_result *pr, struct row *r)
{
	row_str(r, point_status_name(pr->status));
	row_str(r, pr->reason);
	row_u64(r, pr->nr_producers);
	row_u64(r, pr->nr_consumers);
	row_u64(r, pr->nr_cpus);
	row_ref(r, pr->cpus);
	row_u64(r, results_measured_intervals(pr));
	row_u64(r, pr->tries);
	/* a stalled point's flags say how many of its intervals counted nothing */
	if (pr->status == PS_OK || pr->status == PS_STALLED)
		quality_format(&pr->quality, row_next(r), FIELD_LEN);
	else
		row_str(r, "");
	row_str(r, pr->status == PS_OK ? unit_kind_name(point_unit_kind(pr)) : "");
	row_str(r, pr->status == PS_OK ? pr->stop : "");
	if (pr->status == PS_OK)
		row_rate(r, precision_half_width_pct(pr));
	else
		row_str(r, "");
}

/* Statistics of an ok point, with three decimals; empty cells otherwise. */
static void row_stats(const struct point_result *pr, const double *v, size_t nr, struct row *r)
{
	for (size_t i = 0; i < nr; i++) {
		if (pr->status == PS_OK)
			row_rate(r, v[i]);
		else
			row_str(r, "");
	}
}

/* How many units (an empty cell when none) and their sd, of an ok point. */
static void unit_fields(const struct point_result *pr, const struct units *u, struct row *r)
{
	if (pr->status == PS_OK && u->kind != UK_NONE) {
		row_u64(r, u->n);
		row_rate(r, u->sd);
	} else {
		row_str(r, "");
		row_str(r, "");
	}
}

static void summary_stat_fields(const struct point_result *pr, const struct workload *wl,
				struct row *r)
{
	const struct summary *w = &pr->worker_rate;
	const double workers[NR_WORKER_STATS] = { w->mean, w->min, w->median, w->max };
	int tm = wl_thread_metric(wl);

	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct summary *s = &pr->stat[m];
		const double v[NR_STATS] = {
			s->mean, s->stddev, s->median, s->min, s->max, s->ci95,
		};

		row_stats(pr, v, NR_STATS, r);
		unit_fields(pr, &pr->unit[m], r);
		if (m == tm)
			row_stats(pr, workers, NR_WORKER_STATS, r);
	}
}

/* ns_per_run's six; empty cells where it is unknown (no statistics, no runs). */
static void per_run_fields(const struct point_result *pr, const struct workload *wl,
			   struct row *r)
{
	const struct summary *s = &pr->per_run;
	const double v[NR_STATS] = { s->mean, s->stddev, s->median, s->min, s->max, s->ci95 };
	int runs, ns;

	if (prog_metrics(wl, &runs, &ns))
		row_stats(pr, v, NR_STATS, r);
}

/* A figure relative to the baseline, or an empty cell when it is unknown. */
static void row_fixed(struct row *r, double v, int decimals)
{
	char *s = row_next(r);

	if (isfinite(v))
		snprintf(s, FIELD_LEN, "%.*f", decimals, v);
	else
		s[0] = '\0';
}

/*
 * The baseline columns of pr against base (NULL: not known, empty cells).
 * A ratio keeps six decimals: three would round 0.9996 to 1.000.
 */
static void baseline_fields(const struct sweep_cfg *cfg, const struct point_result *pr,
			    const struct point_result *base, struct row *r)
{
	const struct workload *wl = cfg->wl;
	struct baseline_delta d;

	if (!cfg_has_baseline(cfg))
		return;
	for (int m = 0; m < wl->nr_metrics; m++) {
		if (wl->metrics[m].kind != MK_COUNTER)
			continue;
		baseline_of_metric(pr, base, m, &d);
		row_fixed(r, d.over_ns, 3);
		row_fixed(r, d.over_ns_sd, 3);
		row_fixed(r, d.ratio, 6);
		row_fixed(r, d.ratio_sd, 6);
	}
}

static int append_summary(struct results *res, const struct point_result *pr, FILE *f,
			  struct row *r)
{
	const struct workload *wl = res->cfg->wl;

	row_u64(r, pr->pt->exp);
	row_u64(r, pr->pt->id);
	row_str(r, experiment_title(res->cfg, &res->cfg->exps[pr->pt->exp]));
	for (int p = 0; p < wl->nr_params; p++)
		param_format(&wl->params[p], pr->pt->wp.v[p], row_next(r), FIELD_LEN);
	summary_run_fields(pr, r);
	summary_stat_fields(pr, wl, r);
	per_run_fields(pr, wl, r);
	/* the baseline may not have run yet: results_fill_baseline() fills them */
	baseline_fields(res->cfg, pr, NULL, r);
	return row_flush(f, r);
}

/* The point's rows, formatted in memory: a file gets all of them or none. */
static int format_point(struct results *res, const struct point_result *pr,
			struct membuf *samples, struct membuf *summary)
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = membuf_open(samples);
	if (!err)
		err = membuf_open(summary);
	if (!err)
		err = append_samples(res, pr, samples->f, r);
	if (!err)
		err = append_summary(res, pr, summary->f, r);
	if (samples->f)
		err = membuf_close(samples) ?: err;
	if (summary->f)
		err = membuf_close(summary) ?: err;
	free(r);
	return err;
}

/*
 * Undo a point whose rows did not all reach the disk: both files go back to
 * their size before it, so no row is torn and summary.csv never claims
 * samples that samples.csv does not hold.
 */
static int roll_back(struct results *res)
{
	int err = 0;

	if (ftruncate(res->samples.fd, res->samples.size) || fsync(res->samples.fd))
		err = -errno;
	if (ftruncate(res->summary.fd, res->summary.size) || fsync(res->summary.fd))
		err = err ?: -errno;
	return err;
}

/*
 * Samples first: a kill between the two writes leaves samples of a point
 * with no summary row (a resumed run drops them), never the reverse.
 */
int results_append(struct results *res, const struct point_result *pr)
{
	struct membuf samples = { 0 }, summary = { 0 };
	int err;

	err = format_point(res, pr, &samples, &summary);
	if (!err)
		err = resultdir_write_at(res->samples.fd, res->samples.size, samples.buf,
					 samples.len);
	if (!err)
		err = resultdir_write_at(res->summary.fd, res->summary.size, summary.buf,
					 summary.len);
	if (!err) {
		res->samples.size += samples.len;
		res->summary.size += summary.len;
	} else {
		res->rollback_err = roll_back(res);
	}
	membuf_free(&samples);
	membuf_free(&summary);
	return err;
}

/* The point of set[0..nr) with id, or NULL. */
static const struct point_result *set_point(const struct point_result *set, int nr, long id)
{
	for (int i = 0; i < nr; i++)
		if (set[i].pt->id == id)
			return &set[i];
	return NULL;
}

/* Row i's baseline cells, from column c0 on, replaced by those of pr against its baseline. */
static int fill_row(const struct sweep_cfg *cfg, struct csv_table *t, int i, int c0,
		    const struct point_result *pr, const struct point_result *set, int nr,
		    struct row *r)
{
	r->nr = 0;
	baseline_fields(cfg, pr, baseline_find(cfg, pr, set, nr), r);
	for (int c = 0; c < r->nr && c0 + c < t->nr_cols; c++) {
		char *v = strdup(r->f[c]);

		if (!v)
			return -ENOMEM;
		free(t->rows[i][c0 + c]);
		t->rows[i][c0 + c] = v;
	}
	return 0;
}

int results_fill_baseline(const char *dir, const struct sweep_cfg *cfg,
			  const struct point_result *set, int nr)
{
	struct csv_table t = { 0 };
	struct row *r = NULL;
	bool *keep = NULL;
	char path[4200];
	int err, c0, c_id;

	if (!cfg_has_baseline(cfg))
		return 0;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	err = csv_read_file(path, &t);
	if (err)
		return err;
	r = calloc(1, sizeof(*r));
	keep = calloc(t.nr_rows ? t.nr_rows : 1, sizeof(*keep));
	err = r && keep ? 0 : -ENOMEM;
	/* the first baseline column: the header ends in them (baseline_header()) */
	if (!err) {
		baseline_header(cfg, r);
		c0 = r->nr ? csv_column(&t, r->f[0]) : -1;
		c_id = csv_column(&t, "point");
		err = c0 < 0 || c_id < 0 ? -EBADMSG : 0;
	}
	for (int i = 1; !err && i < t.nr_rows; i++) {
		const struct point_result *pr = set_point(set, nr, strtol(t.rows[i][c_id], NULL, 10));

		keep[i] = true;
		if (pr)
			err = fill_row(cfg, &t, i, c0, pr, set, nr, r);
	}
	if (!err)
		err = results_rewrite(dir, "summary.csv", &t, keep);
	free(keep);
	free(r);
	csv_table_free(&t);
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
	free(r);
}
