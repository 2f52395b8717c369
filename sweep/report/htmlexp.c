// SPDX-License-Identifier: GPL-2.0
/*
 * An experiment's section of the HTML page (htmlexp.h): its charts, the
 * cover-letter block, the table, the points not measured and profiles.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base64.h"
#include "flamefile.h"
#include "heldir.h"
#include "html.h"
#include "htmlexp.h"
#include "htmltable.h"
#include "table.h"
#include "textfile.h"

#define CHART_MAX_BYTES	(16 << 20)	/* gnuplot's SVG of a chart: tens of KiB */
#define MAX_FILES	4096		/* of plots/ or profiles/ shown */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir/sub as a directory stream, opened beneath dir's held descriptor (heldir.h); or NULL. */
static DIR *open_sub(const char *dir, const char *sub)
{
	char path[4200];
	int fd;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	fd = heldir_open_dir(path);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

/*
 * The names in dir/sub that start with head and end with tail, sorted
 * (readdir's order is the file system's): *names (free each, then it);
 * how many, 0 when none or no such directory.  Listed beneath dir's held
 * descriptor, as its files are then read (a reader's or the run's own).
 */
static int list_files(const char *dir, const char *sub, const char *head, const char *tail,
		      char ***names)
{
	struct dirent *de;
	size_t hl = strlen(head), tl = strlen(tail);
	DIR *d;
	int nr = 0;

	*names = calloc(MAX_FILES, sizeof(**names));
	d = *names ? open_sub(dir, sub) : NULL;
	while (d && nr < MAX_FILES && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > hl + tl && !strncmp(de->d_name, head, hl) &&
		    !strcmp(de->d_name + len - tl, tail) && ((*names)[nr] = strdup(de->d_name)))
			nr++;
	}
	if (d)
		closedir(d);
	qsort(*names, nr, sizeof(**names), by_name);
	return nr;
}

static void free_names(char **names, int nr)
{
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/*
 * Chart name of dir/plots as an <img> of a data: URI, its bytes as gnuplot
 * wrote them: a browser renders an SVG loaded as an image in its secure
 * static mode (no script, no event handler, nothing fetched, no access to
 * the page), so a hostile title, or a file edited by hand, cannot act on
 * the page whatever it holds; the page's CSP takes images from data: only.
 * A note instead when the file cannot be read.
 */
static void chart(FILE *f, const char *dir, const char *name)
{
	char path[4200];
	char *svg = NULL;
	size_t len = 0;
	int err;

	snprintf(path, sizeof(path), "%s/plots/%s", dir, name);
	err = read_text_file_max(path, CHART_MAX_BYTES, &svg, &len);
	fputs("<figure class=\"chart\">\n", f);
	if (err) {
		fputs("<p class=\"warn\">chart not shown: ", f);
		html_text(f, textfile_strerror(err));
		fputs("</p>", f);
	} else {
		fputs("<img alt=\"chart plots/", f);
		html_text(f, name);
		fputs("\" src=\"data:image/svg+xml;base64,", f);
		base64_put(f, svg, len);
		fputs("\">", f);
	}
	fputs("\n<figcaption>plots/", f);
	html_text(f, name);
	fputs("</figcaption>\n</figure>\n", f);
	free(svg);
}

void html_charts(FILE *f, const char *dir, const char *head)
{
	char **names;
	int nr = list_files(dir, "plots", head, ".svg", &names);

	for (int i = 0; i < nr; i++)
		chart(f, dir, names[i]);
	free_names(names, nr);
}

/* The cover-letter block of rows, as table.txt has it, in a <pre>. */
static int cover_block(FILE *f, const struct html_run *run, const struct view_row **rows, int nr,
		       int x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int err;

	if (!m)
		return -ENOMEM;
	err = table_render(m, run->view, &run->facts, rows, nr);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err) {
		fprintf(f, "<pre class=\"cover\" id=\"%scover-%d\">", run->idp, x + 1);
		html_lines(f, text, len);
		fputs("</pre>\n", f);
	}
	free(text);
	return err;
}

/* The points of rows that have no numbers, with why. */
static void unmeasured(FILE *f, const struct html_run *run, const struct view_row **rows, int nr,
		       int x)
{
	char label[512];
	bool any = false;

	for (int i = 0; i < nr; i++) {
		const struct view_row *r = rows[i];

		if (r->status == PS_OK)
			continue;
		if (!any)
			fprintf(f, "<h3>Points not measured</h3>\n<ul id=\"%sunmeasured-%d\">\n",
				run->idp, x + 1);
		any = true;
		table_label(run->view, r, label, sizeof(label));
		fprintf(f, "<li data-point=\"%lld\"><b>", r->id);
		html_text(f, label);
		fprintf(f, "</b>: %s: ", point_status_name(r->status));
		html_text(f, r->reason[0] ? r->reason : "no reason recorded");
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
}

/*
 * The flame graph of row's point: as the run's end drew it (run->flames),
 * else drawn here from its folded stacks as the run's profiles/<point>.svg
 * is (flamefile.h).  Nothing for a point without a profile; true when
 * something was written.
 */
static bool flame(FILE *f, const struct html_run *run, const struct view_row *row,
		  const char *label)
{
	struct flame_graph own = { 0 };
	const struct flame_graph *g = &own;
	bool shown;

	if (run->flames)
		g = flame_graph_of(run->flames, row->id);
	else
		flame_draw_point(run->dir, row->id, &own);	/* -ENOMEM: own.err says so */
	shown = g && g->err != -ENOENT;
	if (shown) {
		/* "chart": scaled to the page's width as the charts are */
		fprintf(f, "<figure class=\"chart flame\" data-point=\"%lld\">\n", row->id);
		if (g->err) {
			fputs("<p class=\"warn\">flame graph not drawn: ", f);
			html_text(f, g->why[0] ? g->why : strerror(-g->err));
			fputs("</p>", f);
		} else {
			fwrite(g->svg, 1, g->len, f);
		}
		fputs("\n<figcaption>", f);
		html_text(f, label);
		fputs(": flame graph of its repetitions' stacks summed</figcaption>\n"
		      "</figure>\n", f);
	}
	flame_graph_free(&own);
	return shown;
}

/* The top symbols of each profiled repetition of row (profiles/<id>-r<rep>.top). */
static bool tops(FILE *f, const struct html_run *run, const struct view_row *row,
		 const char *label)
{
	char head[32], path[4200];
	char **names;
	int nr;

	snprintf(head, sizeof(head), "%lld-r", row->id);
	nr = list_files(run->dir, "profiles", head, ".top", &names);
	for (int k = 0; k < nr; k++) {
		char *text = NULL;
		size_t len = 0;

		snprintf(path, sizeof(path), "%s/profiles/%s", run->dir, names[k]);
		if (read_text_file_len(path, &text, &len))
			continue;
		fprintf(f, "<details class=\"profile\" data-point=\"%lld\"><summary>", row->id);
		html_text(f, label);
		fputs(" (profiles/", f);
		html_text(f, names[k]);
		fputs(")</summary><pre>", f);
		html_lines(f, text, len);
		fputs("</pre></details>\n", f);
		free(text);
	}
	free_names(names, nr);
	return nr > 0;
}

/* Each profiled point of rows: its flame graph, then its repetitions' top symbols. */
static void profiles(FILE *f, const struct html_run *run, const struct view_row **rows, int nr)
{
	char label[512];
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	bool any = false;

	if (!m)
		return;
	for (int i = 0; i < nr; i++) {
		table_label(run->view, rows[i], label, sizeof(label));
		any |= flame(m, run, rows[i], label);
		any |= tops(m, run, rows[i], label);
	}
	if (!fclose(m) && any) {
		fputs("<h3>Profiles: flame graphs and top symbols</h3>\n", f);
		fwrite(text, 1, len, f);
	}
	free(text);
}

int html_exp_section(FILE *f, const struct html_run *run, int x)
{
	const struct view_row **rows = calloc(run->nr_rows + 1, sizeof(*rows));
	char id[48], head[16];
	int nr = 0, err = 0;

	if (!rows)
		return -ENOMEM;
	for (int i = 0; i < run->nr_rows; i++)
		if (run->rows[i]->exp == x)
			rows[nr++] = run->rows[i];
	if (nr || x >= 0) {
		fprintf(f, "<section id=\"%sexp-%d\">\n<h2>", run->idp, x + 1);
		html_text(f, x >= 0 ? view_exp_title(run->view, &run->view->exps[x]) :
				      "Rows of no experiment of the spec");
		fputs("</h2>\n", f);
		/* plots/<x + 1>-*.svg: the names plot.c gives experiment x's charts */
		snprintf(head, sizeof(head), "%d-", x + 1);
		if (x >= 0)
			html_charts(f, run->dir, head);
		err = nr ? cover_block(f, run, rows, nr, x) : 0;
		snprintf(id, sizeof(id), "%stable-%d", run->idp, x + 1);
		html_table(f, run, rows, nr, id);
		unmeasured(f, run, rows, nr, x);
		profiles(f, run, rows, nr);
		fputs("</section>\n", f);
	}
	free(rows);
	return err;
}

