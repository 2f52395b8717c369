// SPDX-License-Identifier: GPL-2.0
/*
 * The report command: the table and charts of result directories drawn
 * again from their files, running nothing (draw.h).  One directory is
 * redrawn in place (its report.html too, where it has one), several are
 * drawn together into a new one (-o OUT).
 */
#include <limits.h>
#include <stdio.h>

#include "cli.h"
#include "diag.h"
#include "draw.h"
#include "heldir.h"
#include "readlock.h"

struct draw_opts cli_draw_opts(const struct cli_draw *d, const char *const *sets, int nr_sets)
{
	return (struct draw_opts){
		.sets = sets, .nr_sets = nr_sets, .by = d->by, .no_plots = d->no_plots,
		.plot_timeout_s = d->plot_timeout_s, .format = d->format,
	};
}

void cli_draw_page(const struct cli_draw *c, struct draw_opts *d)
{
	d->page = c->no_plots || c->no_html ? DRAW_NO_PAGE : DRAW_PAGE;
	d->sets_as_run = true;
}

/* What report and merge draw: their DIR..., -o, --spec, --normalize, --per, --profile too. */
struct draw_opts cli_report_draw_opts(const struct draw_cmd_opts *o)
{
	struct draw_opts d = cli_draw_opts(&o->draw, o->sets, o->nr_sets);

	d.args = o->com.args;
	d.nr_args = o->com.nr_args;
	d.outdir = o->com.outdir;
	d.spec_file = o->spec_file;
	d.normalize = o->normalize;
	d.per = o->per;
	d.profile = o->profile;
	return d;
}

/* report DIR --html [-o FILE]: the page of one directory, nothing else drawn (htmlpage.h). */
static int report_html(const struct draw_cmd_opts *o, struct draw_opts *d)
{
	int status;

	if (o->com.nr_args != 1 || o->spec_file || o->nr_sets) {
		diag_err("report --html draws one directory, as run (no --spec, no --set)");
		return EXIT_USAGE;
	}
	d->page = DRAW_PAGE_ONLY;
	d->page_out = o->com.outdir;	/* -o: the page's file, not a new directory */
	d->outdir = NULL;
	status = draw_runs(d);
	if (status)
		return status;
	fprintf(stderr, "report: %s%s\n", o->com.outdir ?: o->com.args[0],
		o->com.outdir ? "" : "/report.html");
	return EXIT_OK;
}

/*
 * report DIR, drawn in place: its report.html, where it has one, drawn
 * again after the table and charts (a page made once keeps in step); none
 * is made where there was none, nor under --no-plots.
 */
static enum draw_page redraw_page(const struct draw_opts *d)
{
	char path[PATH_MAX];

	if (d->nr_args != 1 || d->outdir || d->print_only || d->no_plots)
		return DRAW_NO_PAGE;
	snprintf(path, sizeof(path), "%s/report.html", d->args[0]);
	return heldir_access(path) ? DRAW_NO_PAGE : DRAW_PAGE;
}

/*
 * Read under shared locks, so that a directory a run is writing is refused
 * (readlock.h); one directory with -f other than text only printed.
 */
int cmd_report(const struct draw_cmd_opts *o)
{
	struct draw_opts d = cli_report_draw_opts(o);
	struct read_locks locks;
	int status;

	d.print_only = !o->com.outdir && o->draw.format != OF_TEXT;
	if (read_locks_take(&locks, o->com.args, o->com.nr_args))
		return EXIT_USAGE;
	d.page = redraw_page(&d);
	status = o->draw.html ? report_html(o, &d) : draw_runs(&d);
	read_locks_release(&locks);
	return status;
}
