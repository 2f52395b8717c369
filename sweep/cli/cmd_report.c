// SPDX-License-Identifier: GPL-2.0
/*
 * The report command: the table and charts of result directories drawn
 * again from their files, running nothing (draw.h).  One directory is
 * redrawn in place (its report.html too, where it has one), several are
 * drawn together into a new one (-o OUT); the page alone with --html
 * (report/drawpage.h).
 */
#include "cli.h"
#include "draw.h"
#include "drawpage.h"
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
	d.page = draw_page_kept(&d);
	status = o->draw.html ? draw_page_only(&d) : draw_runs(&d);
	read_locks_release(&locks);
	return status;
}
