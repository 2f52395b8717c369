// SPDX-License-Identifier: GPL-2.0
/*
 * A CSV file of a result directory read as every reader reads one
 * (resultcsv.h): opened or refused, located errors, control characters
 * escaped, an unfinished last line left out and said.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "resultcsv.h"
#include "resultfile.h"
#include "termsafe.h"

/* "DIR/FILE:LINE:COL: error: " and the message into why; -EINVAL */
int results_vrefuse_at(char *why, size_t whylen, const char *dir, const char *file, int line,
		       int col, const char *fmt, va_list ap)
{
	char path[4200];
	size_t n;

	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, file);
	else
		snprintf(path, sizeof(path), "%s", file);
	n = diag_where(why, whylen, path, line, col);
	if (n < whylen)
		vsnprintf(why + n, whylen - n, fmt, ap);
	return -EINVAL;
}

int results_refuse_at(char *why, size_t whylen, const char *dir, const char *file, int line,
		      int col, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = results_vrefuse_at(why, whylen, dir, file, line, col, fmt, ap);
	va_end(ap);
	return err;
}

int results_csv_read(const char *dir, const char *name, unsigned int flags, struct csv_table *t,
		    bool *exists, size_t *torn, char *why, size_t whylen)
{
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = csv_read_whole_lines(path, flags & ~RESULTS_CSV_EMPTY_OK, t, torn);
	*exists = err != -ENOENT;
	if (err == -ENOENT)
		return 0;
	/* no line of it read: the open failed (csv_open()), not the CSV */
	if ((err == -EINVAL || err == -EISDIR || err == -EXDEV || err == -ELOOP) && !t->err_line)
		return resultfile_refuse_open(why, whylen, dir, name, err);
	if (err == -EINVAL && t->err_fields)
		return results_refuse_at(why, whylen, dir, name, t->err_line, t->err_col, "a row of %d "
			      "fields, not as many as the header's", t->err_fields);
	if (err == -EINVAL)
		return results_refuse_at(why, whylen, dir, name, t->err_line, t->err_col, "%s",
			      t->err_nul ? "a NUL byte" : "not valid CSV");
	if (err)
		return err;
	/* a run writes each CSV with its header: one without it is no file bpfsweep left */
	if (!t->nr_rows && !(flags & RESULTS_CSV_EMPTY_OK))
		return results_refuse_at(why, whylen, dir, name, 1, 1, "%s %s", name, *torn ?
			      "holds no whole line: its header is cut short" :
			      "is empty: not even its header line");
	return 0;
}

/*
 * An unfinished last line (a kill in the middle of an append) is left out,
 * as docs/results.md says, and said: every reader comes through here, and a
 * row that is read nowhere should not vanish unsaid.
 */
void results_csv_warn_torn(const char *dir, const char *name, const struct csv_table *t,
		      size_t torn)
{
	char where[4300];

	if (!torn)
		return;
	snprintf(where, sizeof(where), "%s/%s:%d", dir, name, t->next_line);
	diag_warn("%s: an unfinished last line (%zu bytes, no line end) left out: what a "
		  "write cut short leaves; --resume drops it", where, torn);
}

/*
 * Summary cells (labels, reasons, parameter values) reach the table, the
 * terminal and compare: a control character in one is shown as an escape
 * (termsafe.h), never sent to the terminal.
 */
int results_csv_escape(struct csv_table *t)
{
	for (int r = 0; r < t->nr_rows; r++)
		for (int c = 0; c < t->nr_cols; c++) {
			char *safe;
			int err;

			if (!term_unsafe(t->rows[r][c]))
				continue;
			safe = term_escape(t->rows[r][c]);
			err = safe ? csv_set_cell(t, r, c, safe) : -ENOMEM;
			free(safe);
			if (err)
				return err;
		}
	return 0;
}

int results_read_table(const char *dir, const char *name, struct csv_table *t, bool *exists,
		       char *why, size_t whylen)
{
	size_t torn = 0;
	int err = results_csv_read(dir, name, 0, t, exists, &torn, why, whylen);

	if (!err && *exists)
		err = results_csv_escape(t);
	if (!err && *exists)
		results_csv_warn_torn(dir, name, t, torn);
	return err;
}
