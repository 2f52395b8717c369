// SPDX-License-Identifier: GPL-2.0
/*
 * The report command: the table and charts of result directories drawn
 * again from their files, running nothing (draw.h).  One directory is
 * redrawn in place, several are drawn together into a new one (-o OUT).
 */
#include "cli.h"
#include "draw.h"

struct draw_opts cli_draw_opts(const struct cli_opts *o)
{
	return (struct draw_opts){
		.args = o->args, .nr_args = o->nr_args, .outdir = o->outdir,
		.spec_file = o->spec_file, .sets = o->sets, .nr_sets = o->nr_sets, .by = o->by,
		.normalize = o->normalize, .per = o->per, .no_plots = o->no_plots,
		.plot_timeout_s = o->plot_timeout_s, .format = o->format,
	};
}

int cmd_report(const struct cli_opts *o)
{
	struct draw_opts d = cli_draw_opts(o);

	return draw_runs(&d);
}
