/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chart's SVG (gnuplot's, drawn from a run's data) inline in an HTML
 * page, rebuilt from its parts rather than copied: the elements a chart
 * has (no script, style, foreignObject, image or link; text only in
 * title and desc, which the HTML parser reads as HTML), attributes that
 * are no event handler and load nothing (href only to "#id", url() only
 * to "#id", in any case; no backslash, control character or invalid
 * UTF-8 in a value, which CSS could read as an escape), every text and
 * attribute value decoded and escaped again by html_put(), so that a
 * title gnuplot left unescaped, or a file edited by hand, cannot close the
 * <svg> or run anything.  Ids get a prefix of the chart's, so that two
 * charts of a page do not share their markers'.
 */
#ifndef SWEEP_HTMLSVG_H
#define SWEEP_HTMLSVG_H

#include <stddef.h>
#include <stdio.h>

/*
 * svg[0..n) written to f as inline SVG, its ids prefixed by prefix ("c1-":
 * letters, digits and '-' only, or nothing is written).  Nothing is
 * written when it does not pass: -EINVAL with why saying what (the first
 * thing refused, with its byte offset), -ENOMEM.
 */
int html_svg(FILE *f, const char *svg, size_t n, const char *prefix, char *why, size_t len);

#endif
