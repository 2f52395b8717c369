/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML page of a result directory (docs/html.md): one static file a
 * reviewer opens, with the machine and kernel as a header (meta's facts,
 * tags, VM/TCG marking, bpfsweep's version and commit, the system check's
 * warnings, the spec as run), then per experiment its charts (the SVGs of plots/
 * as data: URI images), the cover-letter block as table.c writes
 * it, a sortable table of every point with its flags, the points not
 * measured with their reasons, and the profiles' top symbols where the
 * run has them.  Every string of the directory goes through html.h's
 * escaping; the same files give the same bytes.
 */
#ifndef SWEEP_HTMLPAGE_H
#define SWEEP_HTMLPAGE_H

#include <stdbool.h>

#include "flamefile.h"
#include "resultload.h"

/*
 * The runs of a directory as draw read them (draw.h), handed to its page:
 * one read, one binding and one view per run serve the table, the charts
 * and the page.
 */
struct html_source {
	const struct loaded_run *runs;	/* the directory's run, or a merged set's runs/1..nr */
	struct result_view *const *views;	/* of each run (resultload_view()) */
	int nr;
	bool merged;			/* the directory is a merged set: its meta heads the page */
	/* the one run's flame graphs as its end drew them, or NULL: drawn from profiles/ */
	const struct flame_graphs *flames;
};

/*
 * The page of result directory dir, of the runs src holds (read as run:
 * no --spec, no --set), into out (NULL: dir/report.html), put whole in
 * place of what was there.  Errors are reported; 0 or -errno: -EINVAL
 * when a merged set's meta cannot be read, another when the page could
 * not be written.
 */
int html_report_write(const char *dir, const char *out, const struct html_source *src);

#endif
