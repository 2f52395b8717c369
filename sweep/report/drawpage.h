/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report command draws as a page (htmlpage.h) of one result
 * directory: the page alone (report --html), or the page it already has
 * drawn again with its table and charts (report DIR in place).
 */
#ifndef SWEEP_DRAWPAGE_H
#define SWEEP_DRAWPAGE_H

#include "draw.h"

/*
 * report DIR --html [-o FILE]: the page of d's one directory, nothing else
 * drawn, into d->outdir taken as the page's file (NULL: DIR/report.html);
 * says where on stderr.  An exit status (exitcode.h): EXIT_USAGE with
 * several directories, a spec or sets.
 */
int draw_page_only(struct draw_opts *d);

/* The page report DIR draws in place with d: DIR's report.html again, where it has one. */
enum draw_page draw_page_kept(const struct draw_opts *d);

#endif
