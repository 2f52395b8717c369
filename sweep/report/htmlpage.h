/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML page of a result directory (docs/html.md): one static file a
 * reviewer opens, with the machine and kernel as a header (meta's facts,
 * tags, VM/TCG marking, bpfsweep's version and commit, the system check's
 * warnings, the spec as run), then per experiment its charts (the SVGs of plots/
 * inline, rebuilt by htmlsvg.h), the cover-letter block as table.c writes
 * it, a sortable table of every point with its flags, the points not
 * measured with their reasons, and the profiles' top symbols where the
 * run has them.  Every string of the directory goes through html.h's
 * escaping; the same files give the same bytes.
 */
#ifndef SWEEP_HTMLPAGE_H
#define SWEEP_HTMLPAGE_H

/*
 * The page of result directory dir into out (NULL: dir/report.html),
 * written aside and renamed into place.  Errors are reported; 0 or -errno:
 * -EINVAL when dir could not be read as a result set (a usage error),
 * another when the page could not be written.
 */
int html_report_write(const char *dir, const char *out);

#endif
