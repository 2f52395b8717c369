/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formats a printed table comes in (--format of run, report, merge
 * and compare), and the pieces their printers share: the option's
 * parser, a markdown cell and a number as JSON or CSV carries it.
 */
#ifndef SWEEP_OUTFMT_H
#define SWEEP_OUTFMT_H

#include <stddef.h>
#include <stdio.h>

struct json_object;

enum out_format { OF_TEXT, OF_MARKDOWN, OF_CSV, OF_JSON };

/* "text", "markdown", "csv" or "json" into *fmt; else reported, -EINVAL. */
int out_format_parse(const char *arg, enum out_format *fmt);

/* "| s " with '|' escaped, so that a label cannot end its cell. */
void md_cell(FILE *f, const char *s);

/*
 * The shortest text that reads back as v ("0.05", not
 * "0.050000000000000003"); "" when v is not finite.
 */
void num_shortest(double v, char *buf, size_t len);

/* v as a JSON number; NULL (JSON null) when not finite: JSON has no NaN. */
struct json_object *json_num(double v);

/*
 * Print root, pretty, without escaping '/' (paths), and drop it.
 * Returns 0, or -EIO when it could not be written.
 */
int json_print(FILE *f, struct json_object *root);

#endif
