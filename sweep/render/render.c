// SPDX-License-Identifier: GPL-2.0
/* The table and charts of a result set into its directory: see render.h. */
#define _GNU_SOURCE	/* renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "export.h"
#include "heldir.h"
#include "plot.h"
#include "render.h"
#include "resultdir.h"
#include "table.h"

#define STAGING	".render.tmp"

typedef int (*block_fn)(FILE *f, const struct result_view *v, const struct run_facts *facts,
			const struct view_row *const *rows, int nr);

/* A block's footer a blank line below it: as it is, or each line a markdown list item. */
static void print_footer(FILE *f, const char *footer, bool md)
{
	fputc('\n', f);
	if (!md) {
		fputs(footer, f);
		return;
	}
	while (*footer) {
		size_t n = strcspn(footer, "\n");

		fprintf(f, "- %.*s\n", (int)n, footer);
		footer += n + (footer[n] == '\n');
	}
}

/*
 * Every block of job, a blank line between them, each under its heading
 * and over its footer (md: "## heading", the footer a list).
 */
static int render_blocks(FILE *f, const struct render_job *job, bool md, block_fn fn)
{
	int err = 0;

	for (int i = 0; !err && i < job->nr_blocks; i++) {
		const struct render_block *b = &job->blocks[i];

		if (i)
			fputc('\n', f);
		if (b->heading)
			fprintf(f, "%s%s\n\n", md ? "## " : "", b->heading);
		err = fn(f, b->view, b->facts, b->rows, b->nr_rows);
		if (!err && b->footer)
			print_footer(f, b->footer, md);
	}
	return err ?: ferror(f) ? -EIO : 0;
}

int render_table(FILE *f, const struct render_job *job)
{
	return render_blocks(f, job, false, table_render);
}

static int render_markdown(FILE *f, const struct render_job *job)
{
	return render_blocks(f, job, true, table_render_markdown);
}

int render_print(FILE *f, const struct render_job *job, enum out_format fmt)
{
	switch (fmt) {
	case OF_MARKDOWN:
		return render_markdown(f, job);
	case OF_CSV:
		return export_csv(f, job->blocks, job->nr_blocks);
	case OF_JSON:
		return export_json(f, job->blocks, job->nr_blocks);
	default:
		return render_table(f, job);
	}
}

static int table_fill(FILE *f, const void *job)
{
	return render_table(f, job);
}

static int write_table(const char *dir, const struct render_job *job)
{
	int err = resultdir_write_file(dir, "table.txt", job->replace, table_fill, job);

	if (err)
		diag_err("cannot write %s/table.txt: %s", dir, strerror(-err));
	return err;
}

static int draw(const char *dir, const struct render_job *job)
{
	return plot_render_rows(dir, job->chart_view, job->chart_facts, job->chart_rows,
				job->nr_chart, &job->plot, job->plot_timeout_s);
}

/* dir/.render.tmp/plots takes the place of dir/plots in one rename. */
static int swap_in(const char *dir, const char *staging)
{
	char from[4300], to[4300];
	int err = 0;

	snprintf(from, sizeof(from), "%s/plots", staging);
	snprintf(to, sizeof(to), "%s/plots", dir);
	/* from missing (nothing drawn): ENOENT from both, nothing to swap in */
	err = heldir_rename(from, to, RENAME_EXCHANGE);
	if (err == -ENOENT)
		err = heldir_rename(from, to, 0);
	if (err == -ENOENT)
		return 0;
	if (err)
		diag_err("cannot replace %s with the new charts: %s", to, strerror(-err));
	return err ?: resultdir_sync(dir);
}

static int redraw(const char *dir, const struct render_job *job)
{
	char staging[4200];
	int err;

	snprintf(staging, sizeof(staging), "%s/%s", dir, STAGING);
	err = resultdir_remove_tree(staging);
	if (!err)
		err = heldir_mkdir(staging, 0755);
	if (err) {
		diag_err("cannot create %s: %s", staging, strerror(-err));
		return err;
	}
	err = draw(staging, job);
	/* what was drawn goes in even when gnuplot failed: the .gp and .dat are there */
	err = swap_in(dir, staging) ?: err;
	resultdir_remove_tree(staging);
	return err;
}

int render_write(const char *dir, const struct render_job *job)
{
	int err = 0;

	/* a stdout that failed is main()'s to report, once */
	if (job->echo)
		err = render_print(job->echo, job, job->echo_format);
	if (err && err != -EIO)
		diag_err("cannot print the table: %s", strerror(-err));
	err = write_table(dir, job) ?: (err == -EIO ? 0 : err);
	if (job->no_plots || !job->nr_chart)
		return err;
	return (job->swap_charts ? redraw(dir, job) : draw(dir, job)) ?: err;
}
