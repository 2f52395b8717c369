// SPDX-License-Identifier: GPL-2.0
/*
 * Result directories drawn again from their files, running nothing
 * (draw.h; the report command's work).  One directory is redrawn in
 * place (its table.txt and plots/ replaced), the way its run drew it
 * unless --set or --spec change labels, groups or charts.  Several are
 * drawn together into a new directory: a table block per run under a line
 * naming it, and charts with a line per run, named --by a meta fact or tag.
 * Runs that are the shards of one run are drawn as that run (shardset.h).
 * A run draws its own directory at its end the same way (draw_run_end()),
 * after filling its baseline columns from the rows read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "draw.h"
#include "exitcode.h"
#include "flamefile.h"
#include "htmlpage.h"
#include "meta.h"
#include "mergeset.h"
#include "profilerows.h"
#include "render.h"
#include "resultdir.h"
#include "resultload.h"
#include "results.h"
#include "runfacts.h"
#include "shardset.h"
#include "view.h"
#include "viewmap.h"

#define LABEL_LEN	RUN_LABEL_LEN
#define HEADING_LEN	768
#define MAX_RUNS	256

struct report {
	const struct draw_opts *o;
	const char *dirs[MAX_RUNS];
	int nr_dirs;
	struct loaded_run runs[MAX_RUNS];
	struct result_view *views[MAX_RUNS];	/* of each run, what its table shows */
	int nr_runs;
	char by_buf[LABEL_LEN];
	const char *by;
	char (*labels)[LABEL_LEN];
	char (*headings)[HEADING_LEN];
	struct run_facts *facts;	/* per run, from its meta */
	struct run_facts mixed;		/* several runs' charts: TCG if any run was */
	struct render_block *blocks;
	int nr_blocks;
	/* shards of one run: drawn as one, with these facts and a line per shard */
	bool one_run;
	struct run_facts whole;
	char *footer;
	size_t footer_len;
	const struct view_row **rows;	/* each run's rows, point order, run after run */
	/* every run's rows on the first run's experiments: its own, the others' placed */
	const struct view_row **chart_rows;
	struct view_row *placed;	/* the other runs' rows as rows of the first (viewmap.h) */
	const char **series;		/* per chart row, its run's label */
	int nr_chart;
	char *owned[MAX_RUNS];		/* the paths of merged runs, to free */
	int nr_owned;
	/* a run's own directory at its end (draw_run_end()), not a report */
	bool run_end;
	bool replace;			/* run_end: its table.txt replaces the one there */
	FILE *echo;			/* the table printed here too, or NULL */
	bool wrote;			/* got as far as writing: a failure is not a usage error */
	struct profile_rows *profile;	/* --profile: what prints each row's top symbols */
	bool merged;			/* the one directory is a merged set: runs/<n> drawn */
};

static int add_dir(struct report *rp, const char *dir)
{
	if (rp->nr_dirs == MAX_RUNS) {
		diag_err("too many result directories (at most %d)", MAX_RUNS);
		return -E2BIG;
	}
	rp->dirs[rp->nr_dirs++] = dir;
	return 0;
}

/* DIR, or the runs a merged set DIR holds: merge keeps each run's own files in DIR/runs/<n>. */
static int add_arg_dir(struct report *rp, const char *dir)
{
	int nr = merged_set_runs(dir), err = 0;
	char path[4200];

	if (!nr)
		return add_dir(rp, dir);
	rp->merged = true;
	for (int n = 1; !err && n <= nr; n++) {
		snprintf(path, sizeof(path), "%s/runs/%d", dir, n);
		if (rp->nr_owned == MAX_RUNS)
			return add_dir(rp, path);	/* reports the limit */
		rp->owned[rp->nr_owned] = strdup(path);
		if (!rp->owned[rp->nr_owned])
			return -ENOMEM;
		err = add_dir(rp, rp->owned[rp->nr_owned++]);
	}
	return err;
}

static int load_runs(struct report *rp)
{
	const struct draw_opts *o = rp->o;
	int err = 0;

	for (int i = 0; !err && i < o->nr_args; i++)
		err = add_arg_dir(rp, o->args[i]);
	for (int i = 0; !err && i < rp->nr_dirs; i++) {
		struct loaded_run *lr = &rp->runs[rp->nr_runs++];

		err = resultload_open(rp->dirs[i], o->spec_file, o->sets, o->nr_sets, lr) ?:
		      resultload_view(lr, &rp->views[i]);
		if (!err && lr->nr_hidden)
			fprintf(stderr, "note: %s: %d row%s of points the spec drawn does not "
				"have, not shown\n", lr->dir, lr->nr_hidden,
				lr->nr_hidden == 1 ? "" : "s");
	}
	return err;
}

/*
 * The --by a merged set was drawn with, when its meta keeps one (a kernel
 * sweep's: its kernels differ in more than their release, the CPU model of
 * an emulated CPU for one), and it still names a fact of these runs.
 */
static const char *kept_by(struct report *rp)
{
	char path[4200];

	if (rp->o->nr_args != 1)
		return NULL;
	snprintf(path, sizeof(path), "%s/meta", rp->o->args[0]);
	if (!meta_lookup(path, "report_by", rp->by_buf, sizeof(rp->by_buf)) ||
	    run_by_check(rp->runs[0].set, rp->by_buf))
		return NULL;
	return rp->by_buf;
}

/* --by, checked, or the one the set keeps, or the fewest facts that tell the runs apart. */
static int pick_by(struct report *rp)
{
	const struct result_set *sets[MAX_RUNS];

	for (int i = 0; i < rp->nr_runs; i++)
		sets[i] = rp->runs[i].set;
	if (rp->o->by && run_by_check(sets[0], rp->o->by)) {
		diag_err("--by expects host, arch, cpu_model, kernel_release, kernel, executor, "
			 "accel or tag:NAME, or several joined by commas, not '%s'", rp->o->by);
		return -EINVAL;
	}
	rp->by = rp->o->by ?: kept_by(rp) ?: run_pick_by(sets, rp->nr_runs, rp->by_buf,
							   sizeof(rp->by_buf));
	return 0;
}

/* --per names a number parameter of the charts' workload. */
static int check_per(const struct report *rp)
{
	const struct workload *wl = &rp->views[0]->schema;
	int p;

	if (!rp->o->per)
		return 0;
	p = param_index(wl->params, wl->nr_params, rp->o->per);
	if (p >= 0 && (wl->params[p].type == PT_INT || wl->params[p].type == PT_SIZE))
		return 0;
	diag_err("--per: %s has no number parameter '%s'", wl->name, rp->o->per);
	return -EINVAL;
}

/* Two runs of one label (--by host of two runs on one host) would draw as one zigzag series. */
static int check_labels(const struct report *rp)
{
	for (int i = 1; i < rp->nr_runs; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(rp->labels[i], rp->labels[j])) {
				diag_err("--by %s: runs %d and %d are both '%s', their points would "
					 "be one series; choose another --by", rp->by, j + 1, i + 1,
					 rp->labels[i]);
				return -EINVAL;
			}
	return 0;
}

static int by_point(const void *a, const void *b)
{
	const struct view_row *x = *(const struct view_row *const *)a;
	const struct view_row *y = *(const struct view_row *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Does every point of the chart rows come once (shards of one run: its
 * point ids)?  Then they are put in point order; else left as they are,
 * run after run, as their series labels are.  -ENOMEM, or 1 or 0.
 */
static int sort_chart_once(struct report *rp)
{
	size_t size = (rp->nr_chart + 1) * sizeof(*rp->chart_rows);
	const struct view_row **sorted = malloc(size);
	bool once = true;

	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, rp->chart_rows, size);
	qsort(sorted, rp->nr_chart, sizeof(*sorted), by_point);
	for (int i = 1; once && i < rp->nr_chart; i++)
		once = sorted[i]->id != sorted[i - 1]->id;
	if (once)
		memcpy(rp->chart_rows, sorted, size);
	free(sorted);
	return once;
}

/* The lines under the one table: a shard each, by its index (runs come in any order). */
static int shard_lines(struct report *rp, const struct shard *sh, bool machines)
{
	FILE *f = open_memstream(&rp->footer, &rp->footer_len);
	int order[MAX_RUNS];

	if (!f)
		return -ENOMEM;
	for (int i = 0; i < rp->nr_runs; i++) {
		int j = i;

		for (; j > 0 && sh[order[j - 1]].index > sh[i].index; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (int k = 0; k < rp->nr_runs; k++) {
		int i = order[k];

		shardset_line(f, &rp->runs[i], &sh[i], rp->labels[i],
			      machines ? &rp->facts[i] : NULL);
	}
	return fclose(f) ? -ENOMEM : 0;
}

/* Did every run run the same spec, and every row of theirs find its place in the chart? */
static bool one_spec(const struct report *rp)
{
	const char *spec = rp->runs[0].set->spec;
	int total = 0;

	for (int i = 0; i < rp->nr_runs; i++) {
		const char *s = rp->runs[i].set->spec;

		if (!spec || !s || strcmp(s, spec))
			return false;
		total += rp->runs[i].nr_shown;
	}
	return total == rp->nr_chart;
}

/*
 * Shards of one run are that run: one block of every point in point order
 * (the chart rows, tied to the first run's spec), charts without a series
 * per run, and a line per shard under the table.  Anything else (shards
 * of other specs, or that share a point) is drawn run by run.
 */
static int one_table(struct report *rp)
{
	struct shard sh[MAX_RUNS];
	bool one_machine = true;
	int err;

	for (int i = 0; i < rp->nr_runs; i++) {
		shardset_of(rp->runs[i].set, &sh[i]);
		one_machine &= shardset_same_machine(&rp->facts[0], &rp->facts[i]);
	}
	if (!shardset_whole(sh, rp->nr_runs) || !one_spec(rp))
		return 0;
	err = sort_chart_once(rp);
	if (err <= 0)
		return err;
	rp->whole = shardset_facts(rp->facts, rp->nr_runs);
	err = shard_lines(rp, sh, !one_machine);
	if (err)
		return err;
	rp->blocks[0] = (struct render_block){
		.view = rp->views[0], .rows = rp->chart_rows, .nr_rows = rp->nr_chart,
		.facts = &rp->whole, .footer = rp->footer,
		/* a merged set's own directory; the rows are not one of the runs' */
		.dir = rp->o->nr_args == 1 ? rp->o->args[0] : NULL,
	};
	rp->nr_blocks = 1;
	rp->one_run = true;
	return 0;
}

/*
 * Run i's rows on the charts of the first run's experiments: its own, or
 * another's placed on them (viewmap.h); rows of an experiment or enum value
 * the first run lacks, and every row of another workload, are left out.
 */
static void chart_rows_of(struct report *rp, int i, const struct view_row **rows, int nr)
{
	const struct result_view *v = rp->views[i], *to = rp->views[0];

	for (int k = 0; k < nr && (i == 0 || view_same_schema(v, to)); k++) {
		struct view_row *at = &rp->placed[rp->nr_chart];

		if (i && !view_row_onto(v, rows[k], to, at))
			continue;
		rp->chart_rows[rp->nr_chart] = i ? at : rows[k];
		rp->series[rp->nr_chart++] = rp->labels[i];
	}
}

static int gather_alloc(struct report *rp, int total)
{
	int nr = rp->nr_runs;

	rp->labels = calloc(nr, sizeof(*rp->labels));
	rp->headings = calloc(nr, sizeof(*rp->headings));
	rp->blocks = calloc(nr, sizeof(*rp->blocks));
	rp->facts = calloc(nr, sizeof(*rp->facts));
	rp->series = calloc(total + 1, sizeof(*rp->series));
	rp->rows = calloc(total + 1, sizeof(*rp->rows));
	rp->chart_rows = calloc(total + 1, sizeof(*rp->chart_rows));
	rp->placed = calloc(total + 1, sizeof(*rp->placed));
	if (!rp->labels || !rp->headings || !rp->blocks || !rp->facts || !rp->series ||
	    !rp->rows || !rp->chart_rows || !rp->placed)
		return -ENOMEM;
	return 0;
}

/* Table blocks, headings and chart rows of every run. */
static int gather(struct report *rp)
{
	int nr = rp->nr_runs, total = 0, err;

	if (nr <= 0)
		return -EINVAL;
	for (int i = 0; i < nr; i++)
		total += rp->runs[i].nr_shown;
	err = gather_alloc(rp, total);
	if (err)
		return err;
	for (int i = 0, at = 0; i < nr; i++) {
		const struct loaded_run *lr = &rp->runs[i];
		const struct view_row **rows = rp->rows + at;

		for (int k = 0; k < lr->nr_shown; k++)
			rows[k] = &rp->views[i]->rows[lr->idx[k]];
		at += lr->nr_shown;
		run_label(lr->set, rp->by, i, rp->labels[i], LABEL_LEN);
		run_heading(lr->set, i, rp->headings[i], HEADING_LEN);
		rp->facts[i] = run_facts_of(lr->set);
		rp->mixed.tcg |= rp->facts[i].tcg;
		rp->mixed.icount |= rp->facts[i].icount;
		/* several runs: the heading names each run's machine */
		rp->blocks[i] = (struct render_block){
			.view = rp->views[i], .rows = rows, .nr_rows = lr->nr_shown,
			.heading = nr > 1 ? rp->headings[i] : NULL,
			.facts = nr > 1 ? NULL : &rp->facts[i],
			.dir = lr->dir, .set = lr->set,
		};
		chart_rows_of(rp, i, rows, lr->nr_shown);
	}
	rp->nr_blocks = nr;
	return one_table(rp) ?: rp->one_run ? 0 : check_labels(rp);
}

/*
 * report DIR -f markdown|csv|json: the table printed and nothing written,
 * so that it reads a directory it cannot or must not write.
 */
static int print_only(const struct render_job *job, enum out_format fmt)
{
	int err = render_print(stdout, job, fmt);

	/* a stdout that failed is main()'s to report, once */
	if (err && err != -EIO)
		diag_err("cannot print the table: %s", strerror(-err));
	return err == -EIO ? 0 : err;
}

/*
 * A report redraws a directory in place (table.txt replaced, the charts
 * swapped in) or writes a new one; a run draws its own directory as a run
 * does: table.txt new unless resumed, the charts straight into plots/.
 */
static int write_out(struct report *rp)
{
	const struct draw_opts *o = rp->o;
	const char *dir = o->outdir ?: o->args[0];
	bool several = rp->nr_runs > 1 && !rp->one_run;
	struct render_job job = { .blocks = rp->blocks, .nr_blocks = rp->nr_blocks,
				  .chart_view = rp->views[0], .chart_rows = rp->chart_rows,
				  .chart_facts = rp->one_run ? &rp->whole :
						 several ? &rp->mixed : &rp->facts[0],
				  .nr_chart = rp->nr_chart,
				  .plot = { several ? rp->series : NULL, o->per,
					    o->normalize != NULL },
				  .replace = rp->run_end ? rp->replace : !o->outdir,
				  .swap_charts = !rp->run_end && !o->outdir,
				  .no_plots = o->no_plots, .plot_timeout_s = o->plot_timeout_s,
				  .echo = rp->echo, .echo_format = o->format };
	int err;

	rp->wrote = true;
	if (o->print_only)
		return print_only(&job, o->format);
	err = render_write(dir, &job);
	if (!rp->run_end)
		fprintf(stderr, "report: %s\n", dir);
	return err;
}

/* The new directory of a report of several runs (-o OUT); 0 or -errno (reported). */
static int create_out(const struct draw_opts *o)
{
	int err = o->outdir ? resultdir_create(o->outdir) : 0;

	if (err)
		diag_err("cannot create %s: %s%s", o->outdir, strerror(-err),
			 err == -EEXIST ? " (report writes a new directory)" : "");
	return err;
}

static void report_free(struct report *rp)
{
	for (int i = 0; i < rp->nr_runs; i++) {
		resultload_free(&rp->runs[i]);
		view_free(rp->views[i]);
	}
	for (int i = 0; i < rp->nr_owned; i++)
		free(rp->owned[i]);
	free(rp->labels);
	free(rp->headings);
	free(rp->blocks);
	free(rp->facts);
	free(rp->series);
	free(rp->rows);
	free(rp->chart_rows);
	free(rp->placed);
	free(rp->footer);
	profile_rows_free(rp->profile);
}

/*
 * A run's baseline cells in its summary.csv: a row of its view v against
 * its baseline row, found in the whole set, which only its end knows (a
 * report leaves the CSVs as they are).  0 or -errno (reported).
 */
static int fill_baseline(const struct loaded_run *lr, const struct result_view *v)
{
	int err = results_fill_baseline(lr->dir, lr->cfg, v);

	if (err)
		diag_err("cannot write the baseline columns of %s/summary.csv: %s", lr->dir,
			 strerror(-err));
	return err;
}

/* --profile: each printed row followed by its point's top symbols (profilerows.h). */
static int attach_profiles(struct report *rp)
{
	const char *dirs[MAX_RUNS];

	for (int i = 0; i < rp->nr_runs; i++)
		dirs[i] = rp->runs[i].dir;
	rp->profile = profile_rows_attach(rp->views, dirs, rp->nr_runs, rp->echo);
	return rp->profile ? 0 : -ENOMEM;
}

/* Read, check and gather rp's runs and write them out; 0, or -errno (reported). */
static int draw(struct report *rp)
{
	int err = load_runs(rp), filled = 0;

	if (!err && rp->run_end)
		filled = fill_baseline(&rp->runs[0], rp->views[0]);
	if (!err && rp->o->profile)
		err = attach_profiles(rp);
	err = err ?: pick_by(rp) ?: check_per(rp) ?: gather(rp);
	if (!err && !rp->run_end)
		err = create_out(rp->o);
	return (err ?: write_out(rp)) ?: filled;
}

/* Did draw read the directory as run, as its page shows it (no --spec, no --set of its own)? */
static bool as_run(const struct draw_opts *o)
{
	return !o->spec_file && (!o->nr_sets || o->sets_as_run);
}

/* The page of the one directory of rp's runs read (htmlpage.h); 0 or -errno (reported). */
static int page_of_runs(struct report *rp, const struct flame_graphs *flames)
{
	const struct html_source src = { .runs = rp->runs, .views = rp->views,
					 .nr = rp->nr_runs, .merged = rp->merged,
					 .flames = flames };

	return html_report_write(rp->o->args[0], rp->o->page_out, &src);
}

/* The runs of o's one directory read as run, then its page: report --html. */
static int page_only(struct report *rp)
{
	int err = load_runs(rp);

	rp->wrote = !err;
	err = err ?: page_of_runs(rp, NULL);
	if (err == -EINVAL)
		rp->wrote = false;	/* a merged set without a readable meta: no result set */
	return err;
}

/*
 * The page of the directory rp drew, from the runs it read when it read
 * them as run; else (report DIR --spec, --set) read again as run, since
 * the page shows the directory as run (docs/html.md).
 */
static int write_page(struct report *rp, const struct flame_graphs *flames)
{
	struct draw_opts run = *rp->o;
	struct report *again;
	int err;

	if (as_run(rp->o))
		return page_of_runs(rp, flames);
	run.spec_file = NULL;
	run.sets = NULL;
	run.nr_sets = 0;
	again = calloc(1, sizeof(*again));
	if (!again)
		return -ENOMEM;
	*again = (struct report){ .o = &run };
	err = page_only(again);
	report_free(again);
	free(again);
	return err;
}

/* The exit status of a draw that returned err. */
static int draw_status(const struct report *rp, int err)
{
	return !err ? EXIT_OK : rp->wrote ? EXIT_POINTS_FAILED /* drawn, not all written */ :
	       EXIT_USAGE;
}

int draw_runs(const struct draw_opts *o)
{
	struct report *drawing;	/* large (the runs' state), so on the heap */
	int status;

	if (o->nr_args > 1 && !o->outdir) {
		diag_err("report of several directories writes a new one: give -o OUT");
		return EXIT_USAGE;
	}
	drawing = calloc(1, sizeof(*drawing));
	if (!drawing) {
		diag_err("report: %s", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	*drawing = (struct report){ .o = o, .echo = stdout };
	if (o->page == DRAW_PAGE_ONLY) {
		status = draw_status(drawing, page_only(drawing));
	} else {
		status = draw_status(drawing, draw(drawing));
		/* the page too, where the table and charts were drawn */
		if (o->page == DRAW_PAGE && status != EXIT_USAGE && write_page(drawing, NULL))
			status = EXIT_POINTS_FAILED;
	}
	report_free(drawing);
	free(drawing);
	return status;
}

/* d for the one directory args[0], drawn in place. */
static struct draw_opts in_place(const struct draw_opts *d, const char *const *args)
{
	struct draw_opts one = *d;

	one.args = args;
	one.nr_args = 1;
	one.outdir = NULL;
	return one;
}

int draw_in_place(const struct draw_opts *d, const char *dir)
{
	const char *args[] = { dir };
	struct draw_opts one = in_place(d, args);

	return draw_runs(&one);
}

int draw_run_end(const struct draw_opts *d, const char *dir, bool replace, bool quiet)
{
	const char *args[] = { dir };
	struct draw_opts one = in_place(d, args);
	struct flame_graphs flames = { 0 };
	bool page = !one.no_plots && !one.no_html;
	struct report *drawing = calloc(1, sizeof(*drawing));	/* large: on the heap */
	int err;

	if (!drawing)
		return -ENOMEM;
	*drawing = (struct report){ .o = &one, .run_end = true, .replace = replace,
				    .echo = quiet ? NULL : stdout };
	err = draw(drawing);
	/*
	 * Each profiled point's flame graph, drawn once (here: no gnuplot, so
	 * --no-plots too), then written as its file and put on the page.
	 */
	if (!err)
		err = flame_write_dir(dir, page ? &flames : NULL);
	if (!err && page)
		err = write_page(drawing, &flames);
	flame_graphs_free(&flames);
	report_free(drawing);
	free(drawing);
	return err;
}
