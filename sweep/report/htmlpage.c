// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page of a result directory (htmlpage.h): the header of its
 * machine, then a section per experiment (htmlexp.h); of a merged set, its
 * charts, then each run's header and sections.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "html.h"
#include "htmlpage.h"
#include "htmlrun.h"
#include "htmlexp.h"
#include "resultdir.h"
#include "table.h"

/* What a page shows: one run, or the runs of a merged set. */
struct html_page {
	const char *dir;
	struct result_set *merged;	/* a merged set's meta alone, or NULL */
	struct run_facts merged_facts;
	struct html_run *runs;
	int nr_runs;
};

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

/* The title: of the run, or of a merged set. */
static void title(FILE *f, const char *text, const struct run_facts *facts)
{
	char notes[256];

	table_title_notes(facts, notes, sizeof(notes));
	fputs("<h1 id=\"title\">", f);
	html_text(f, text ?: "bpfsweep results");
	fputs("</h1>\n", f);
	if (notes[0]) {
		fputs("<p class=\"warn\" id=\"notes\">", f);
		html_text(f, notes + 1);	/* its leading blank */
		fputs("</p>\n", f);
	}
}

/* The run's machine, kernel, bpfsweep and tags from meta, and the system check's warnings. */
static void machine(FILE *f, const struct html_run *run)
{
	const struct result_set *set = run->lr->set;
	char id[64];
	int tags = 0;

	fprintf(f, "<dl class=\"facts\" id=\"%smachine\">\n", run->idp);
	for (size_t i = 0; i < sizeof(header_facts) / sizeof(header_facts[0]); i++) {
		const char *v = result_meta(set, header_facts[i].key);

		snprintf(id, sizeof(id), "%sfact-%s", run->idp, header_facts[i].key);
		if (v)
			fact(f, header_facts[i].label, v, id);
	}
	for (int i = 0; i < set->nr_meta; i++)
		if (!strcmp(set->meta[i].key, "tag")) {
			snprintf(id, sizeof(id), "%stag-%d", run->idp, ++tags);
			fact(f, "tag", set->meta[i].value, id);
		}
	fputs("</dl>\n", f);
	snprintf(id, sizeof(id), "%swarnings", run->idp);
	meta_list(f, set, "system_warning", id, "System check warnings");
}

/* A <details> of text[0..len) (the spec as run, meta) in a <pre>. */
static void details(FILE *f, const char *summary, const char *idp, const char *id,
		    const char *text, size_t len)
{
	if (!text)
		return;
	fprintf(f, "<details><summary>%s</summary><pre id=\"%s%s\">", summary, idp, id);
	html_lines(f, text, len);
	fputs("</pre></details>\n", f);
}

/* The run's experiments, then its spec and meta. */
static int run_body(FILE *f, const struct html_run *run)
{
	const struct result_set *set = run->lr->set;
	char *meta = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&meta, &len);
	int err = 0;

	if (!m)
		return -ENOMEM;
	for (int i = 0; i < set->nr_meta; i++)
		if (strcmp(set->meta[i].key, META_LEFT_OUT))
			fprintf(m, "%s: %s\n", set->meta[i].key, set->meta[i].value);
	if (fclose(m))
		return -ENOMEM;
	for (int x = -1; !err && x < run->view->nr_exps; x++)
		err = html_exp_section(f, run, x);
	if (set->spec)
		details(f, "The spec as run", run->idp, "spec", set->spec, strlen(set->spec));
	details(f, "meta", run->idp, "meta", meta, len);
	free(meta);
	return err;
}

static int page_one(FILE *f, const struct html_run *run)
{
	int err;

	html_page_begin(f, run->view->title ?: "bpfsweep results");
	fputs("<header>\n", f);
	title(f, run->view->title ?: result_meta(run->lr->set, "title"), &run->facts);
	machine(f, run);
	fputs("</header>\n<main>\n", f);
	err = run_body(f, run);
	fputs("</main>\n", f);
	html_page_end(f);
	return err;
}

/*
 * A merged set (merge, a fleet, a kernel sweep: runs/<n> the runs' own
 * files): its charts, a series per run, then each run's header and body.
 */
static int page_merged(FILE *f, const struct html_page *pg)
{
	const char *name = result_meta(pg->merged, "title");
	char heading[768];
	int err = 0;

	html_page_begin(f, name ?: "bpfsweep results");
	fputs("<header>\n", f);
	title(f, name, &pg->merged_facts);
	fprintf(f, "<p>%d runs, merged.</p>\n</header>\n<main>\n", pg->nr_runs);
	html_charts(f, pg->dir, "");
	for (int i = 0; !err && i < pg->nr_runs; i++) {
		const struct html_run *run = &pg->runs[i];

		run_heading(run->lr->set, i, heading, sizeof(heading));
		fprintf(f, "<section class=\"run\" id=\"%sall\">\n<h2>", run->idp);
		html_text(f, heading);
		fputs("</h2>\n", f);
		machine(f, run);
		err = run_body(f, run);
		fputs("</section>\n", f);
	}
	fputs("</main>\n", f);
	html_page_end(f);
	return err;
}

static int page_fill(FILE *f, const void *ctx)
{
	const struct html_page *pg = ctx;

	return pg->merged ? page_merged(f, pg) : page_one(f, &pg->runs[0]);
}

/*
 * The page into path, in place of what was there: written whole in memory
 * and put as every result file is, so a kill leaves the old page or the new
 * one and never a half page or a stray path.tmp (resultdir_replace_file()).
 */
static int write_file(const struct html_page *pg, const char *path)
{
	char dir[4200];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;

	if (!*name)
		return -EISDIR;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	return resultdir_write_file(dir, name, true, page_fill, pg);
}

/* The runs src holds, as the page shows them; a merged set's meta read. 0 or -errno. */
static int page_of(struct html_page *pg, const struct html_source *src)
{
	int err = 0;

	pg->runs = calloc(src->nr ? src->nr : 1, sizeof(*pg->runs));
	if (!pg->runs)
		return -ENOMEM;
	if (src->merged) {
		err = results_read_meta(pg->dir, &pg->merged);
		if (err) {
			diag_err("cannot read %s/meta: %s", pg->dir, strerror(-err));
			return -EINVAL;
		}
		pg->merged_facts = run_facts_of(pg->merged);
	}
	for (int i = 0; !err && i < src->nr; i++, pg->nr_runs++) {
		struct html_run *run = &pg->runs[i];

		err = html_run_of(&src->runs[i], src->views[i], run);
		run->flames = src->flames && !src->merged ? src->flames : NULL;
		if (src->merged)	/* runs/<n>, n from 1 */
			snprintf(run->idp, sizeof(run->idp), "r%d-", i + 1);
	}
	return err;
}

int html_report_write(const char *dir, const char *out, const struct html_source *src)
{
	struct html_page pg = { .dir = dir };
	char path[4200];
	int err = page_of(&pg, src);

	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!out)
		out = path;
	if (err == -ENOMEM)
		diag_err("cannot write %s: %s", out, strerror(ENOMEM));
	else if (!err && (err = write_file(&pg, out)))
		diag_err("cannot write %s: %s", out, strerror(-err));
	for (int i = 0; i < pg.nr_runs; i++)
		html_run_free(&pg.runs[i]);
	free(pg.runs);
	result_set_free(pg.merged);
	return err;
}
