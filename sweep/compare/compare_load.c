// SPDX-License-Identifier: GPL-2.0
/*
 * A result directory as compare reads it (compare_build.h): its files read
 * back and checked (results_read.h), and its result view, described by
 * its own columns as an imported set's is (viewdesc.h): compare matches
 * sets by their summary.csv columns, whatever spec ran them, so it needs
 * no spec bound, and its numbers are the view's, as report's are.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "compare_build.h"
#include "diag.h"
#include "mergeset.h"

/*
 * A merged set (merge, a fleet's or a kernel sweep's OUT) holds a row of
 * each point per run, each run's own files in DIR/runs/<n>: compare pairs
 * points of one run a side, so it names those.  0, or -EINVAL said.
 */
static int refuse_merged(const char *dir)
{
	int nr = merged_set_runs(dir);

	if (!nr)
		return 0;
	diag_err("%s: a merged set (merge, a fleet's or a kernel sweep's OUT): compare takes one "
		 "run a side; give it one of %s/runs/1 to %s/runs/%d", dir, dir, dir, nr);
	return -EINVAL;
}

static int read_set(const char *dir, struct result_set **rs)
{
	char why[512];
	struct stat st;
	int err;

	if (stat(dir, &st)) {
		err = -errno;
		diag_err("%s: %s", dir, strerror(-err));
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_err("%s: not a result directory", dir);
		return -ENOTDIR;
	}
	err = refuse_merged(dir);
	if (err)
		return err;
	err = results_read(dir, rs, why, sizeof(why));
	if (err) {
		results_read_diag(dir, err, why);
		return err;
	}
	if (!(*rs)->has_summary || (*rs)->summary.nr_rows < 1) {
		diag_err("%s: not a result directory (no summary.csv)", dir);
		return -EINVAL;
	}
	return 0;
}

int compare_set_load(const char *dir, struct compare_set *s)
{
	char why[512];
	int err;

	*s = (struct compare_set){ .dir = dir };
	err = read_set(dir, &s->set);
	if (err)
		return err;
	err = view_build(s->set, NULL, &s->view, why, sizeof(why));
	if (!err)
		err = prog_table_read(dir, &s->progs, why, sizeof(why));
	if (err)
		results_read_diag(dir, err, why);
	return err;
}

void compare_set_free(struct compare_set *s)
{
	prog_table_free(&s->progs);
	view_free(s->view);
	result_set_free(s->set);
	*s = (struct compare_set){ 0 };
}
