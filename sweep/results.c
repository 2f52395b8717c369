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

#include "csvfile.h"
#include "results.h"

/* Longest row: fixed columns, every parameter, six statistics per metric. */
#define MAX_COLS	(16 + WL_MAX_PARAMS + 6 * WL_MAX_METRICS)
#define FIELD_LEN	512

struct results {
	const struct sweep_cfg *cfg;
	FILE *samples;
	FILE *summary;
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

/* mkdir -p: every missing parent, then dir itself. */
static int mkdir_parents(const char *dir)
{
	char path[4096];
	size_t len = strlen(dir);
	char *p;

	if (!len)
		return -EINVAL;
	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* O_EXCL: a finished run in the same directory is never overwritten. */
static int create_csv(const char *dir, const char *name, FILE **out)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	*out = fdopen(fd, "w");
	if (!*out) {
		close(fd);
		return -errno;
	}
	return 0;
}

static void samples_header(const struct sweep_cfg *cfg, struct row *r)
{
	static const char *const fixed[] = {
		"point", "experiment", "rep", "interval", "warmup", "elapsed_ns",
	};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		row_str(r, fixed[i]);
	for (int m = 0; m < cfg->wl->nr_metrics; m++)
		row_str(r, cfg->wl->metrics[m]);
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

static void summary_header(const struct sweep_cfg *cfg, struct row *r)
{
	const struct workload *wl = cfg->wl;

	row_str(r, "point");
	row_str(r, "experiment");
	for (int p = 0; p < wl->nr_params; p++)
		row_str(r, wl->params[p].name);
	for (size_t i = 0; i < sizeof(summary_run_cols) / sizeof(summary_run_cols[0]); i++)
		row_str(r, summary_run_cols[i]);
	for (int m = 0; m < wl->nr_metrics; m++)
		for (size_t s = 0; s < NR_STATS; s++)
			snprintf(row_next(r), FIELD_LEN, "%s_per_s_%s", wl->metrics[m],
				 stat_names[s]);
}

/* Write r to f and start a new row. */
static int row_flush(FILE *f, struct row *r)
{
	int err = csv_write_row(f, r->f, r->nr);

	r->nr = 0;
	return err;
}

static int write_header(FILE *f, const struct sweep_cfg *cfg,
			void (*fill)(const struct sweep_cfg *cfg, struct row *r))
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	fill(cfg, r);
	err = row_flush(f, r);
	free(r);
	return err;
}

int results_open(const char *dir, const struct sweep_cfg *cfg, struct results **out)
{
	struct results *r;
	int err;

	*out = NULL;
	err = mkdir_parents(dir);
	if (err)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cfg = cfg;
	err = create_csv(dir, "samples.csv", &r->samples);
	if (!err)
		err = create_csv(dir, "summary.csv", &r->summary);
	if (!err)
		err = write_header(r->samples, cfg, samples_header);
	if (!err)
		err = write_header(r->summary, cfg, summary_header);
	if (err) {
		results_close(r);
		return err;
	}
	*out = r;
	return 0;
}

static int append_samples(struct results *res, const struct point_result *pr, struct row *r)
{
	const char *title = experiment_title(res->cfg, &res->cfg->exps[pr->pt->exp]);
	int err = 0;

	for (int i = 0; !err && i < pr->nr_iv; i++) {
		const struct interval *iv = &pr->iv[i];

		row_u64(r, pr->pt->id);
		row_str(r, title);
		row_u64(r, iv->rep);
		row_u64(r, iv->idx);
		row_u64(r, iv->warmup);
		row_u64(r, iv->elapsed_ns);
		for (int m = 0; m < res->cfg->wl->nr_metrics; m++)
			row_u64(r, iv->delta[m]);
		err = row_flush(res->samples, r);
	}
	return err;
}

/* Intervals that count: those the statistics are (or would be) computed from. */
static int measured_intervals(const struct point_result *pr)
{
	int n = 0;

	if (pr->status == PS_OK)
		return pr->rate[0].n;
	for (int i = 0; i < pr->nr_iv; i++)
		n += !pr->iv[i].warmup;
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
	row_u64(r, measured_intervals(pr));
	row_u64(r, pr->tries);
	if (pr->status == PS_OK)
		quality_format(&pr->quality, row_next(r), FIELD_LEN);
	else
		row_str(r, "");
}

static void summary_stat_fields(const struct point_result *pr, int nr_metrics, struct row *r)
{
	for (int m = 0; m < nr_metrics; m++) {
		const struct summary *s = &pr->rate[m];
		const double v[NR_STATS] = {
			s->mean, s->stddev, s->median, s->min, s->max, s->ci95,
		};

		for (size_t i = 0; i < NR_STATS; i++) {
			if (pr->status == PS_OK)
				row_rate(r, v[i]);
			else
				row_str(r, "");
		}
	}
}

static int append_summary(struct results *res, const struct point_result *pr, struct row *r)
{
	const struct workload *wl = res->cfg->wl;

	row_u64(r, pr->pt->id);
	row_str(r, experiment_title(res->cfg, &res->cfg->exps[pr->pt->exp]));
	for (int p = 0; p < wl->nr_params; p++)
		param_format(&wl->params[p], pr->pt->wp.v[p], row_next(r), FIELD_LEN);
	summary_run_fields(pr, r);
	summary_stat_fields(pr, wl->nr_metrics, r);
	return row_flush(res->summary, r);
}

/* fsync too: fflush alone leaves the rows in the page cache. */
static int sync_file(FILE *f)
{
	if (fflush(f) || fsync(fileno(f)))
		return -errno;
	return 0;
}

int results_append(struct results *res, const struct point_result *pr)
{
	struct row *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	err = append_samples(res, pr, r);
	if (!err)
		err = append_summary(res, pr, r);
	free(r);
	if (!err)
		err = sync_file(res->samples);
	if (!err)
		err = sync_file(res->summary);
	return err;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	if (r->samples)
		fclose(r->samples);
	if (r->summary)
		fclose(r->summary);
	free(r);
}
