// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep import FILE... -o OUT: published bench output written as a
 * result directory the other commands read (docs/import.md).  The reading
 * and writing are import_dir.c's; this is the command's options and exit
 * status.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "cli.h"
#include "diag.h"
#include "import_dir.h"

static int check_args(const struct import_opts *o)
{
	if (!o->com.nr_args) {
		diag_err("import needs at least one FILE");
		return -EINVAL;
	}
	if (!o->com.outdir) {
		diag_err("import needs -o OUT, the result directory to create");
		return -EINVAL;
	}
	return 0;
}

int cmd_import(const struct import_opts *o)
{
	const struct import_req rq = {
		.argv_line = o->com.argv_line, .files = o->com.args, .nr_files = o->com.nr_args,
		.label = o->label, .tags = o->com.tags, .outdir = o->com.outdir,
	};
	struct import_job *job = NULL;
	int err = check_args(o);

	/* everything read and checked before the directory is made: a bad FILE leaves nothing */
	err = err ?: import_job_read(&rq, &job);
	if (err) {
		import_job_free(job);
		return EXIT_USAGE;
	}
	/* past a file size limit, a write must fail with EFBIG, not kill the import */
	signal(SIGXFSZ, SIG_IGN);
	err = import_job_write(job);
	if (!err)
		import_job_print(job, stdout);
	import_job_free(job);
	return err ? exit_write_status(err) : EXIT_OK;
}
