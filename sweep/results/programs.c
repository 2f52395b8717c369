// SPDX-License-Identifier: GPL-2.0
/*
 * programs.csv (programs.h): a row per program a repetition loaded.  The
 * figures are those the runner read after the repetition's setup
 * (loadfill.h), the same ones summary.csv's load metrics sum, so the
 * rows of a repetition add up to its point's totals.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "matrix.h"
#include "programs.h"

#define CELL_LEN	448

/* The columns before the figures: which point, repetition and program. */
static const char *const lead[] = {
	"point", "experiment", "rep", "prog_name", "prog_type", "prog_id",
};

#define NR_LEAD	(sizeof(lead) / sizeof(lead[0]))

/* One row being built. */
struct prow {
	const char *f[PROGRAMS_MAX_COLS];
	char buf[PROGRAMS_MAX_COLS][CELL_LEN];
	int nr;
};

/* A figure of one program: every load metric but load_time, the whole object's. */
static bool per_program(const struct metric_def *d)
{
	return d->source == MS_LOAD && d->load_field != LF_LOAD_US;
}

bool programs_kept(const struct sweep_cfg *cfg)
{
	return cfg->wl->load_stats.set;
}

int programs_header(const struct sweep_cfg *cfg, const char **names)
{
	const struct workload *wl = cfg->wl;
	int nr = 0;

	for (size_t i = 0; i < NR_LEAD; i++)
		names[nr++] = lead[i];
	for (int m = 0; m < wl->nr_metrics; m++)
		if (per_program(&wl->metrics[m]))
			names[nr++] = wl->metrics[m].name;
	names[nr++] = "reason";
	return nr;
}

static char *cell(struct prow *r)
{
	r->f[r->nr] = r->buf[r->nr];
	return r->buf[r->nr++];
}

static void cell_str(struct prow *r, const char *s)
{
	snprintf(cell(r), CELL_LEN, "%s", s);
}

/* A figure the kernel did not give is an empty cell, as in summary.csv. */
static void cell_u64(struct prow *r, uint64_t v)
{
	if (v == METRIC_UNKNOWN)
		cell_str(r, "");
	else
		snprintf(cell(r), CELL_LEN, "%" PRIu64, v);
}

/* point, experiment and rep (empty: no repetition) of a row. */
static void point_cells(const struct sweep_cfg *cfg, const struct point_result *pr, int rep,
			struct prow *r)
{
	r->nr = 0;
	snprintf(cell(r), CELL_LEN, "%d", pr->pt->id);
	cell_str(r, experiment_title(cfg, &cfg->exps[pr->pt->exp]));
	if (rep < 0)
		cell_str(r, "");
	else
		snprintf(cell(r), CELL_LEN, "%d", rep);
}

/*
 * Which of p's figures the kernel did not give, and the point's caveat
 * where its total is unknown though this program's is known (more
 * programs than are kept: progload.c).
 */
static void program_reason(const struct workload *wl, const struct wl_load_stats *ls,
			   const struct wl_prog_load *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int m = 0; m < wl->nr_metrics && n < len; m++) {
		const struct metric_def *d = &wl->metrics[m];

		if (per_program(d) && p->v[d->load_field] == METRIC_UNKNOWN)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", d->name);
	}
	if (n && n < len)
		n += snprintf(buf + n, len - n, ": not given by this kernel");
	else if (!n && p->v[LF_JITED_SIZE] == 0)
		n += snprintf(buf, len, "jited_size 0: the JIT is off");
	if (n < len && ls->total[LF_TOTAL_INSNS] == METRIC_UNKNOWN &&
	    p->v[LF_TOTAL_INSNS] != METRIC_UNKNOWN && ls->note[0])
		snprintf(buf + n, len - n, "%sthe point's: %s", n ? "; " : "", ls->note);
}

static int program_row(FILE *f, const struct sweep_cfg *cfg, const struct point_result *pr,
		       const struct rep_load *rl, const struct wl_prog_load *p, struct prow *r)
{
	const struct workload *wl = cfg->wl;

	point_cells(cfg, pr, rl->rep, r);
	cell_str(r, p->name);
	cell_str(r, p->type);
	snprintf(cell(r), CELL_LEN, "%" PRIu32, p->id);
	for (int m = 0; m < wl->nr_metrics; m++)
		if (per_program(&wl->metrics[m]))
			cell_u64(r, p->v[wl->metrics[m].load_field]);
	program_reason(wl, &rl->ls, p, cell(r), CELL_LEN);
	return csv_write_row(f, r->f, r->nr);
}

/* The row of a point that loaded no program: every figure empty, and why. */
static int no_program_row(FILE *f, const struct sweep_cfg *cfg, const struct point_result *pr,
			  struct prow *r)
{
	const char *names[PROGRAMS_MAX_COLS];
	int nr = programs_header(cfg, names);

	point_cells(cfg, pr, -1, r);
	while (r->nr < nr - 1)
		cell_str(r, "");
	if (pr->status == PS_OK)
		cell_str(r, "no program loaded");
	else
		snprintf(cell(r), CELL_LEN, "no program loaded: %s%s%s",
			 point_status_name(pr->status), pr->reason[0] ? ": " : "", pr->reason);
	return csv_write_row(f, r->f, r->nr);
}

int programs_write_point(FILE *f, const struct sweep_cfg *cfg, const struct point_result *pr)
{
	struct prow *r = calloc(1, sizeof(*r));
	int err = 0;

	if (!r)
		return -ENOMEM;
	if (!pr->nr_loads)
		err = no_program_row(f, cfg, pr, r);
	for (int l = 0; !err && l < pr->nr_loads; l++) {
		const struct rep_load *rl = &pr->loads[l];

		for (int i = 0; !err && i < rl->ls.nr_progs; i++)
			err = program_row(f, cfg, pr, rl, &rl->ls.prog[i], r);
	}
	free(r);
	return err;
}
