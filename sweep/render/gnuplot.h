/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running gnuplot on the charts plot.c wrote (gnuplot.c): no shell, a
 * time limit, and the SVG's title set to the chart's.
 */
#ifndef SWEEP_GNUPLOT_H
#define SWEEP_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

#define GNUPLOT_SLUG_LEN	200	/* a chart's file name, without .gp */
#define GNUPLOT_TITLE_LEN	512

/* dir/slug.ext opened for writing into *f; 0 or -errno, reported. */
int gnuplot_open_out(const char *dir, const char *slug, const char *ext, FILE **f);

/* Closes f (dir/slug.ext); 0 or -errno of a failed write, reported. */
int gnuplot_close_out(FILE *f, const char *dir, const char *slug, const char *ext);

/* dir/slug.ext removed: a chart that cannot be drawn leaves no half of its data. */
void gnuplot_remove_out(const char *dir, const char *slug, const char *ext);

/*
 * s as a gnuplot string in a script, inert and read back as written: each
 * line of it single-quoted (' doubled), lines joined by "\n", control
 * characters as spaces.
 */
void gnuplot_put_quoted(FILE *f, const char *s);

/*
 * s as a "..." string of a gnuplot data file, read back as written:
 * letters, digits, space and -_.,:=+/() as they are, every other byte and
 * a digit after one as a \ooo octal escape, control characters as spaces.
 */
void gnuplot_put_data_text(FILE *f, const char *s);

/* gnuplot's path on $PATH into buf; 0 or -ENOENT. */
int gnuplot_find(char *buf, size_t len);

/*
 * gnuplot's svg "name" of the chart slug (letters, digits and _ only):
 * it ids the SVG's groups, and is its <title> until the chart's own
 * title replaces it.
 */
void gnuplot_svg_name(const char *slug, char *buf, size_t len);

/*
 * gnuplot on dir/<slugs[i]>.gp for each of the nr charts, each killed
 * after timeout_s seconds, then its SVG titled titles[i].  Every error is
 * reported; the first one is returned, the other charts still run.
 */
int gnuplot_render_all(const char *dir, char (*slugs)[GNUPLOT_SLUG_LEN],
		       char (*titles)[GNUPLOT_TITLE_LEN], int nr, unsigned int timeout_s);

/*
 * Path of chart template `name` into buf, first readable of:
 *   1. <directory of /proc/self/exe>/plots/            the build tree
 *   2. <directory of /proc/self/exe>/../share/bpfsweep/plots/   make install
 *   3. plots/ under the current directory              tests, odd layouts
 * Returns 0, or -ENOENT (buf then holds the last path tried).
 */
int plot_template_find(const char *name, char *buf, size_t len);

#endif
