// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page of a result directory (htmlpage.h): the header of its
 * machine, then a section per experiment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "heldir.h"
#include "html.h"
#include "htmlpage.h"
#include "htmlrun.h"
#include "htmlsvg.h"
#include "htmltable.h"
#include "table.h"
#include "textfile.h"

#define CHART_MAX_BYTES	(16 << 20)	/* gnuplot's SVG of a chart: tens of KiB */
#define MAX_FILES	4096		/* of plots/ or profiles/ shown */

/* The facts of meta the header shows, in this order (tags follow them). */
static const struct {
	const char *key;
	const char *label;
} header_facts[] = {
	{ .key = "host", .label = "host" },
	{ .key = "arch", .label = "arch" },
	{ .key = "cpu_model", .label = "CPU model" },
	{ .key = "nproc", .label = "CPUs" },
	{ .key = "kernel_release", .label = "kernel release" },
	{ .key = "kernel_version", .label = "kernel version" },
	{ .key = "virtualised", .label = "virtualised" },
	{ .key = "hypervisor_type", .label = "hypervisor" },
	{ .key = "kernel", .label = "kernel" },
	{ .key = "executor", .label = "executor" },
	{ .key = "vm_accel", .label = "VM accelerator" },
	{ .key = "bpfsweep", .label = "bpfsweep" },
	{ .key = "git", .label = "commit" },
	{ .key = "command", .label = "command" },
	{ .key = "start", .label = "start" },
};

/*
 * meta's end is written after the run drew its directory, report.html
 * with it: left out, the run's page and report --html's are the same bytes.
 */
#define META_LEFT_OUT	"end"

static void fact(FILE *f, const char *label, const char *value, const char *id)
{
	fprintf(f, "<dt>%s</dt><dd id=\"%s\">", label, id);
	html_text(f, value);
	fputs("</dd>\n", f);
}

/* Every meta line with key, as list items of a list with id (nothing when none). */
static void meta_list(FILE *f, const struct result_set *set, const char *key, const char *id,
		      const char *heading)
{
	bool any = false;

	for (int i = 0; i < set->nr_meta; i++) {
		if (strcmp(set->meta[i].key, key))
			continue;
		if (!any)
			fprintf(f, "<h3>%s</h3>\n<ul class=\"warn\" id=\"%s\">\n", heading, id);
		any = true;
		fputs("<li>", f);
		html_text(f, set->meta[i].value);
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
}

static void header(FILE *f, const struct html_run *run)
{
	const struct result_set *set = run->set;
	char notes[256], id[64];
	int tags = 0;

	table_title_notes(&run->facts, notes, sizeof(notes));
	fputs("<header>\n<h1 id=\"title\">", f);
	html_text(f, run->view->title ?: result_meta(set, "title") ?: "bpfsweep results");
	fputs("</h1>\n", f);
	if (notes[0]) {
		fputs("<p class=\"warn\" id=\"notes\">", f);
		html_text(f, notes + 1);	/* its leading blank */
		fputs("</p>\n", f);
	}
	fputs("<dl class=\"facts\" id=\"machine\">\n", f);
	for (size_t i = 0; i < sizeof(header_facts) / sizeof(header_facts[0]); i++) {
		const char *v = result_meta(set, header_facts[i].key);

		snprintf(id, sizeof(id), "fact-%s", header_facts[i].key);
		if (v)
			fact(f, header_facts[i].label, v, id);
	}
	for (int i = 0; i < set->nr_meta; i++)
		if (!strcmp(set->meta[i].key, "tag")) {
			snprintf(id, sizeof(id), "tag-%d", ++tags);
			fact(f, "tag", set->meta[i].value, id);
		}
	fputs("</dl>\n", f);
	meta_list(f, set, "system_warning", "warnings", "System check warnings");
	fputs("</header>\n", f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in dir/sub that start with head and end with tail, sorted
 * (readdir's order is the file system's): *names (free each, then it);
 * how many, 0 when none or no such directory.
 */
static int list_files(const char *dir, const char *sub, const char *head, const char *tail,
		      char ***names)
{
	char path[4200];
	struct dirent *de;
	size_t hl = strlen(head), tl = strlen(tail);
	DIR *d;
	int nr = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	*names = calloc(MAX_FILES, sizeof(**names));
	d = *names ? opendir(path) : NULL;
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

/* Chart name of dir/plots inline, its ids prefixed by prefix; a note when it is refused. */
static void chart(FILE *f, const char *dir, const char *name, const char *prefix)
{
	char path[4200], why[256] = "";
	char *svg = NULL;
	size_t len = 0;
	int err;

	snprintf(path, sizeof(path), "%s/plots/%s", dir, name);
	err = read_text_file_max(path, CHART_MAX_BYTES, &svg, &len);
	fputs("<figure class=\"chart\">\n", f);
	if (!err)
		err = html_svg(f, svg, len, prefix, why, sizeof(why));
	if (err) {
		fputs("<p class=\"warn\">chart not shown: ", f);
		html_text(f, why[0] ? why : textfile_strerror(err));
		fputs("</p>", f);
	}
	fputs("\n<figcaption>plots/", f);
	html_text(f, name);
	fputs("</figcaption>\n</figure>\n", f);
	free(svg);
}

/* Experiment x's charts: plots/<x + 1>-*.svg, the names plot.c gives them. */
static void charts(FILE *f, const struct html_run *run, int x)
{
	char head[32], prefix[48];
	char **names;
	int nr;

	snprintf(head, sizeof(head), "%d-", x + 1);
	nr = list_files(run->dir, "plots", head, ".svg", &names);
	for (int i = 0; i < nr; i++) {
		snprintf(prefix, sizeof(prefix), "c%d-%d-", x + 1, i + 1);
		chart(f, run->dir, names[i], prefix);
	}
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
		fprintf(f, "<pre class=\"cover\" id=\"cover-%d\">", x + 1);
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
			fprintf(f, "<h3>Points not measured</h3>\n<ul id=\"unmeasured-%d\">\n", x + 1);
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

/* The top symbols of each profiled repetition of rows (profiles/<id>-r<rep>.top). */
static void profiles(FILE *f, const struct html_run *run, const struct view_row **rows, int nr)
{
	char head[32], path[4200], label[512];
	bool any = false;

	for (int i = 0; i < nr; i++) {
		char **names;
		int nr_names;

		snprintf(head, sizeof(head), "%lld-r", rows[i]->id);
		nr_names = list_files(run->dir, "profiles", head, ".top", &names);
		for (int k = 0; k < nr_names; k++) {
			char *text = NULL;
			size_t len = 0;

			snprintf(path, sizeof(path), "%s/profiles/%s", run->dir, names[k]);
			if (read_text_file_len(path, &text, &len))
				continue;
			if (!any)
				fputs("<h3>Profiles: top symbols</h3>\n", f);
			any = true;
			table_label(run->view, rows[i], label, sizeof(label));
			fprintf(f, "<details class=\"profile\" data-point=\"%lld\"><summary>",
				rows[i]->id);
			html_text(f, label);
			fputs(" (profiles/", f);
			html_text(f, names[k]);
			fputs(")</summary><pre>", f);
			html_lines(f, text, len);
			fputs("</pre></details>\n", f);
			free(text);
		}
		free_names(names, nr_names);
	}
}

/* Experiment x's section (x -1: the rows of no experiment of the spec, if any). */
static int section(FILE *f, const struct html_run *run, int x)
{
	const struct view_row **rows = calloc(run->nr_rows + 1, sizeof(*rows));
	char id[32];
	int nr = 0, err = 0;

	if (!rows)
		return -ENOMEM;
	for (int i = 0; i < run->nr_rows; i++)
		if (run->rows[i]->exp == x)
			rows[nr++] = run->rows[i];
	if (nr || x >= 0) {
		fprintf(f, "<section id=\"exp-%d\">\n<h2>", x + 1);
		html_text(f, x >= 0 ? view_exp_title(run->view, &run->view->exps[x]) :
				      "Rows of no experiment of the spec");
		fputs("</h2>\n", f);
		if (x >= 0)
			charts(f, run, x);
		err = nr ? cover_block(f, run, rows, nr, x) : 0;
		snprintf(id, sizeof(id), "table-%d", x + 1);
		html_table(f, run, rows, nr, id);
		unmeasured(f, run, rows, nr, x);
		profiles(f, run, rows, nr);
		fputs("</section>\n", f);
	}
	free(rows);
	return err;
}

/* A <details> of text (the spec as run, meta) in a <pre>. */
static void details(FILE *f, const char *summary, const char *id, const char *text)
{
	if (!text)
		return;
	fprintf(f, "<details><summary>%s</summary><pre id=\"%s\">", summary, id);
	html_lines(f, text, strlen(text));
	fputs("</pre></details>\n", f);
}

static int page(FILE *f, const struct html_run *run)
{
	char *meta = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&meta, &len);
	int err = 0;

	if (!m)
		return -ENOMEM;
	for (int i = 0; i < run->set->nr_meta; i++)
		if (strcmp(run->set->meta[i].key, META_LEFT_OUT))
			fprintf(m, "%s: %s\n", run->set->meta[i].key, run->set->meta[i].value);
	if (fclose(m))
		return -ENOMEM;
	html_page_begin(f, run->view->title ?: "bpfsweep results");
	header(f, run);
	fputs("<main>\n", f);
	for (int x = -1; !err && x < run->view->nr_exps; x++)
		err = section(f, run, x);
	details(f, "The spec as run", "spec", run->set->spec);
	details(f, "meta", "meta", meta);
	fputs("</main>\n", f);
	html_page_end(f);
	free(meta);
	return err;
}

/* The page into path, written as path.tmp and renamed over it. */
static int write_file(const struct html_run *run, const char *path)
{
	char tmp[4210];
	FILE *f;
	int fd, err;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = heldir_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		heldir_unlink(tmp);
		return err;
	}
	err = page(f, run);
	if ((ferror(f) | fclose(f)) && !err)
		err = -EIO;
	if (!err)
		err = heldir_rename(tmp, path, 0);
	if (err)
		heldir_unlink(tmp);
	return err;
}

int html_report_write(const char *dir, const char *out)
{
	struct html_run run;
	char path[4200];
	int err = html_run_load(dir, &run);

	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!out)
		out = path;
	if (!err) {
		err = write_file(&run, out);
		if (err)
			diag_err("cannot write %s: %s", out, strerror(-err));
	}
	html_run_free(&run);
	return err;
}
