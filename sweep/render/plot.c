// SPDX-License-Identifier: GPL-2.0
/*
 * Charts.  For each "plot = X vs Y by Z" of each experiment: its model
 * (plotchart.c), its .dat and .gp (plotfile.c), then gnuplot itself, run
 * without a shell (gnuplot.c), to make the .png and .svg.  Everything is
 * written before gnuplot runs, so a machine without gnuplot still gets
 * the .gp and .dat.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "heldir.h"
#include "plot.h"
#include "plotchart.h"
#include "textfile.h"

#define PLOT_TEMPLATE	"lines.gp"

struct plot_job {
	const struct result_view *v;
	const struct run_facts *facts;
	const struct view_row *const *rows;
	const struct plot_opts *po;
	int nr;
	char dir[PATH_MAX];
	char *tpl;
	char (*slugs)[SLUG_LEN];
	char (*titles)[TITLE_LEN];	/* of slugs[i]'s chart, for its SVG */
	int nr_slugs;
	int skipped;		/* -EDOM when a scaling chart was left out */
};

static int plot_one(struct plot_job *job, const struct view_exp *e, const struct plot_req *req)
{
	struct chart c = { .v = job->v, .facts = job->facts, .e = e, .req = req, .po = job->po,
			   .per = -1 };
	const struct workload *wl = &job->v->schema;
	int err;

	if (job->po->per) {
		c.per = param_index(wl->params, wl->nr_params, job->po->per);
		if (c.per < 0) {
			diag_err("--per: %s has no parameter '%s'", wl->name, job->po->per);
			return -EINVAL;
		}
	}
	chart_slug(&c, job->slugs, job->nr_slugs);
	err = chart_build(&c, job->rows, job->nr);
	if (err)
		diag_err("chart %s: %s", c.slug, strerror(-err));
	/* an experiment with no point in the set (--only, a cut run) is not news */
	if (!err && !c.nr_ent && c.nr_absent)
		diag_warn("chart %s: no point finished ok, nothing to draw", c.slug);
	if (!err && c.nr_ent)
		err = chart_write(job->dir, &c, job->tpl);
	if (err == -EDOM) {
		/* the other charts are still drawn */
		job->skipped = err;
		c.nr_ent = err = 0;
	}
	if (!err && c.nr_ent) {
		chart_title(&c, job->titles[job->nr_slugs], TITLE_LEN);
		memcpy(job->slugs[job->nr_slugs++], c.slug, SLUG_LEN);
	}
	chart_free(&c);
	return err;
}

static int nr_plot_reqs(const struct result_view *v)
{
	int nr = 0;

	for (int x = 0; x < v->nr_exps; x++)
		nr += v->exps[x].nr_plots;
	return nr;
}

int plot_check_gnuplot(const struct sweep_cfg *cfg)
{
	char gnuplot[PATH_MAX];
	int nr = 0;

	for (int x = 0; x < cfg->nr_exps; x++)
		nr += cfg->exps[x].nr_plots;
	if (!nr || !gnuplot_find(gnuplot, sizeof(gnuplot)))
		return 0;
	diag_err("gnuplot not found, and the spec asks for charts: install gnuplot-nox, "
		 "or pass --no-plots");
	return -ENOENT;
}

static int plot_prepare(struct plot_job *job, const char *dir)
{
	char path[PATH_MAX];
	int nr = nr_plot_reqs(job->v), err;

	if (!nr)
		return 0;
	snprintf(job->dir, sizeof(job->dir), "%s/plots", dir);
	err = heldir_mkdir(job->dir, 0755);
	if (err && err != -EEXIST) {
		diag_err("cannot create %s: %s", job->dir, strerror(-err));
		return err;
	}
	if (plot_template_find(PLOT_TEMPLATE, path, sizeof(path))) {
		diag_err("chart template %s not found in plots/ or ../share/bpfsweep/plots/ "
			 "beside the executable, in %s/plots/, nor in ./plots/", PLOT_TEMPLATE,
			 BPFSWEEP_DATADIR);
		return -ENOENT;
	}
	err = read_text_file(path, &job->tpl);
	if (err) {
		diag_err("cannot read %s: %s", path, strerror(-err));
		return err;
	}
	job->slugs = calloc(nr, sizeof(*job->slugs));
	job->titles = calloc(nr, sizeof(*job->titles));
	if (!job->slugs || !job->titles) {
		diag_err("charts: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

int plot_render_rows(const char *dir, const struct result_view *v, const struct run_facts *facts,
		     const struct view_row *const *rows, int nr, const struct plot_opts *po,
		     unsigned int timeout_s)
{
	static const struct plot_opts plain;
	struct plot_job job = { .v = v, .facts = facts, .rows = rows, .nr = nr,
				.po = po ?: &plain };
	int err;

	err = plot_prepare(&job, dir);
	for (int x = 0; !err && job.slugs && x < v->nr_exps; x++) {
		const struct view_exp *e = &v->exps[x];

		for (int p = 0; !err && p < e->nr_plots; p++)
			err = plot_one(&job, e, &e->plots[p]);
	}
	if (!err)
		err = gnuplot_render_all(job.dir, job.slugs, job.titles, job.nr_slugs,
				 timeout_s ?: PLOT_TIMEOUT_S) ?: job.skipped;
	free(job.tpl);
	free(job.slugs);
	free(job.titles);
	return err;
}
