/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML writer of bpfsweep's pages (report --html, a run's report.html):
 * one escaping function that every string from a spec, a result file, an
 * option or a machine goes through, and the page's frame (doctype, a
 * Content-Security-Policy that forbids every load from outside the file,
 * the inline style and the one inline script, which sorts tables).
 * Output depends only on what is written through it: no clock, no
 * environment, so that a page rewritten from the same files is the same
 * bytes.
 */
#ifndef SWEEP_HTML_H
#define SWEEP_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * text[0..n) as HTML text or a double-quoted attribute value: control
 * characters, invalid UTF-8 and C1 controls as the escapes termsafe.h
 * writes (\n, \e, \x01: shown, never acted on), then & < > " ' as
 * character references.  The one escaping function of the pages.
 */
void html_put(FILE *f, const char *text, size_t n);

/* html_put() of a NUL-terminated s; NULL writes nothing. */
void html_text(FILE *f, const char *s);

/* Lines of text (a <pre> block): each escaped by html_put(), the newlines kept. */
void html_lines(FILE *f, const char *text, size_t n);

/*
 * The page's start: doctype, charset, the CSP (default-src 'none': no
 * fetch, no frame, no form; the style inline, the script by its hash), the
 * title (escaped) and the style, up to the opened <body>.
 */
void html_page_begin(FILE *f, const char *title);

/* The page's end: the sorting script (a table of class "sortable"), </body></html>. */
void html_page_end(FILE *f);

/* The script html_page_end() writes, for its hash in the CSP (tests). */
extern const char html_sort_script[];

#endif
