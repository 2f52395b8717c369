/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CSV files of a result directory, read alike by results_read.c
 * (summary.csv, samples.csv) and the readers of the others (programs.csv:
 * results_read_table()).
 */
#ifndef SWEEP_RESULTCSV_H
#define SWEEP_RESULTCSV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "csvfile.h"

/*
 * results_csv_read()'s flag, beside csv_read_whole_lines()'s: an empty file
 * is no rows, not refused (programs.csv, which resume rewrites and merge
 * takes as none, may be left empty by a kill before its header line).
 */
#define RESULTS_CSV_EMPTY_OK	(1u << 8)

/*
 * dir/name into *t (flags: csv_read_whole_lines()'s and RESULTS_CSV_EMPTY_OK):
 * *exists false, and 0, where there is none; a file that cannot be opened,
 * is no CSV or has no header refused into why ("DIR/FILE:LINE:COL: error:
 * ...", -EINVAL); *torn the bytes of an unfinished last line left out.
 */
int results_csv_read(const char *dir, const char *name, unsigned int flags, struct csv_table *t,
		     bool *exists, size_t *torn, char *why, size_t whylen);

/* Says, as a warning, that dir/name's unfinished last line (torn bytes) was left out. */
void results_csv_warn_torn(const char *dir, const char *name, const struct csv_table *t,
			   size_t torn);

/* Every cell of t with a control character in it escaped (termsafe.h); 0 or -ENOMEM. */
int results_csv_escape(struct csv_table *t);

/*
 * dir/name, another CSV a run writes (programs.csv), read as results_read()
 * reads its own: *exists false, and 0, where there is none; a file that
 * cannot be opened, is no CSV or has no header refused into why; control
 * characters in its cells escaped; an unfinished last line left out and
 * said.  0 or -errno.
 */
int results_read_table(const char *dir, const char *name, struct csv_table *t, bool *exists,
		       char *why, size_t whylen);

/* A refusal of dir/file at line, col into why, as results_read()'s own.  -EINVAL. */
int results_refuse_at(char *why, size_t whylen, const char *dir, const char *file, int line,
		      int col, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* results_refuse_at() with a va_list. */
int results_vrefuse_at(char *why, size_t whylen, const char *dir, const char *file, int line,
		       int col, const char *fmt, va_list ap);

#endif
