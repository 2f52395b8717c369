// SPDX-License-Identifier: GPL-2.0
/*
 * The merge command: several runs as one result set in a new directory
 * (mergeset.h), then its table and charts, of all runs (draw.h).
 */
#include "cli.h"
#include "diag.h"
#include "draw.h"
#include "mergeset.h"
#include "readlock.h"
#include "resultdir.h"

int cmd_merge(const struct draw_cmd_opts *o)
{
	struct draw_opts d = cli_report_draw_opts(o);
	struct read_locks locks;
	int status;

	if (!o->com.outdir) {
		diag_err("merge writes a new directory: give -o OUT");
		return EXIT_USAGE;
	}
	/* the runs read under shared locks: one a run is writing is refused (readlock.h) */
	if (read_locks_take(&locks, o->com.args, o->com.nr_args))
		return EXIT_USAGE;
	status = merge_runs(o->com.outdir, o->com.args, o->com.nr_args);
	status = status ? exit_write_status(status) : EXIT_OK;
	read_locks_release(&locks);
	if (status)
		return status;
	status = draw_in_place(&d, o->com.outdir);
	/* report could not read OUT (a run it refuses): no set a later report can use */
	if (status == EXIT_USAGE)
		resultdir_remove_tree(o->com.outdir);
	return status;
}
