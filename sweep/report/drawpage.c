// SPDX-License-Identifier: GPL-2.0
/*
 * What the report command draws as a page (drawpage.h): d's options
 * turned into draw.h's page modes.
 */
#include <limits.h>
#include <stdio.h>

#include "diag.h"
#include "drawpage.h"
#include "exitcode.h"
#include "heldir.h"

int draw_page_only(struct draw_opts *d)
{
	const char *page_out = d->outdir;	/* -o: the page's file, not a new directory */
	int status;

	if (d->nr_args != 1 || d->spec_file || d->nr_sets) {
		diag_err("report --html draws one directory, as run (no --spec, no --set)");
		return EXIT_USAGE;
	}
	d->page = DRAW_PAGE_ONLY;
	d->page_out = page_out;
	d->outdir = NULL;
	status = draw_runs(d);
	if (status)
		return status;
	fprintf(stderr, "report: %s%s\n", page_out ?: d->args[0], page_out ? "" : "/report.html");
	return EXIT_OK;
}

/*
 * A page made once keeps in step: drawn again after the table and charts;
 * none is made where there was none, nor under --no-plots, nor when the
 * table is only printed or several directories drawn into a new one.
 */
enum draw_page draw_page_kept(const struct draw_opts *d)
{
	char path[PATH_MAX];

	if (d->nr_args != 1 || d->outdir || d->print_only || d->no_plots)
		return DRAW_NO_PAGE;
	snprintf(path, sizeof(path), "%s/report.html", d->args[0]);
	return heldir_access(path) ? DRAW_NO_PAGE : DRAW_PAGE;
}
