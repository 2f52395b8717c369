/* SPDX-License-Identifier: GPL-2.0 */
/* RFC 4180 CSV files through libcsv; csvfile.c is libcsv's only user. */
#ifndef SWEEP_CSVFILE_H
#define SWEEP_CSVFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Write one row ending with "\n".  A field is quoted (RFC 4180) only when it
 * holds a comma, quote, line break or edge blanks.  NULL fields are empty.
 * Returns 0/-errno.
 */
int csv_write_row(FILE *f, const char *const *fields, int nr);

/*
 * A whole CSV file read into memory: row 0 the header.  Every row has
 * nr_cols fields (a file where it does not is -EINVAL).  The cells are
 * NUL-ended, one after another, in one block of text the file's size.
 *
 * A table read whole (csv_read_file(), csv_read_string()) has rows[r][c],
 * a pointer a cell: csv_set_cell() replaces one.  A table read with
 * CSV_ROWS_ONLY has no rows (NULL): only where each row starts (4 bytes a
 * row), its cells found by csv_cell() and csv_row_cells().  That is for
 * samples.csv, the one result file that grows with points x repetitions x
 * intervals: its rows are some 8 short cells (~40 bytes), which a pointer
 * a cell would more than double (docs/results.md "Reading back").
 */
struct csv_table {
	char ***rows;		/* NULL in a CSV_ROWS_ONLY table */
	char **header;		/* row 0's cells (NULL without rows), in either kind */
	int nr_rows;
	int nr_cols;
	/*
	 * why a read failed with -EINVAL: its 1-based line and column (a NUL
	 * byte's, else 1: libcsv does not say where a row went wrong), whether
	 * for a NUL byte, and the fields of a row of another width than the
	 * header (0 for a NUL or a parse error)
	 */
	int err_line, err_col;
	bool err_nul;
	int err_fields;
	/* the line after the last one read: where a torn last line is (csv_read_whole_lines) */
	int next_line;
	/* the storage behind rows */
	char **cells;		/* every row's cells, row after row (rows only) */
	uint32_t *row_at;	/* each row's first cell in text (CSV_ROWS_ONLY only) */
	char *text;		/* every cell's text, NUL-ended */
	char **set;		/* texts of replaced cells */
	int nr_set;
};

/*
 * Both return 0, -EINVAL for malformed CSV (a NUL byte too; the err_
 * fields say where and which, and stay after the table is emptied),
 * -EFBIG above CSV_MAX_BYTES, or -errno; *t is empty on error.
 */
int csv_read_file(const char *path, struct csv_table *t);
int csv_read_string(const char *text, struct csv_table *t);
void csv_table_free(struct csv_table *t);

/*
 * Cell (row, col) of t now says value (copied); 0, -ENOMEM, or -EINVAL for
 * a CSV_ROWS_ONLY table.
 */
int csv_set_cell(struct csv_table *t, int row, int col, const char *value);

/*
 * The most a result's CSV may be: samples.csv grows with points × repetitions × intervals
 * (a 1 MiB text file cap is some 20000 samples), so only a wrong file is refused.
 */
#define CSV_MAX_BYTES	((size_t)1 << 30)

/* csv_read_whole_lines()'s flags */
#define CSV_ROWS_ONLY	1	/* no pointer a cell: csv_cell() reads them */

/*
 * A file that a kill may have cut short while appending: only its whole
 * lines are read, and *torn gets the length of an unfinished last line
 * (0 when the file ends with a line end).  Returns as csv_read_file().
 */
int csv_read_whole_lines(const char *path, unsigned int flags, struct csv_table *t,
			 size_t *torn);

/* Cell (row, col) of either kind of table: a walk along its row in a CSV_ROWS_ONLY one. */
const char *csv_cell(const struct csv_table *t, int row, int col);

/* Row row's nr_cols cells into cells[], in one walk along it. */
void csv_row_cells(const struct csv_table *t, int row, const char **cells);

/* Column index of header name, or -1. */
int csv_column(const struct csv_table *t, const char *name);

#endif
