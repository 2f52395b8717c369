/* SPDX-License-Identifier: GPL-2.0 */
/* RFC 4180 CSV files through libcsv; csvfile.c is libcsv's only user. */
#ifndef SWEEP_CSVFILE_H
#define SWEEP_CSVFILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Write one row ending with "\n".  A field is quoted (RFC 4180) only when it
 * holds a comma, quote, line break or edge blanks.  NULL fields are empty.
 * Returns 0/-errno.
 */
int csv_write_row(FILE *f, const char *const *fields, int nr);

/*
 * A whole CSV file read into memory: rows[r][c], row 0 the header.
 * Every row has nr_cols fields (a file where it does not is -EINVAL).
 * The cells point into one block of text, so a table takes about its
 * file's size plus a pointer a cell; csv_set_cell() replaces one.
 */
struct csv_table {
	char ***rows;
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
	char **cells;		/* every row's cells, row after row */
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

/* Cell (row, col) of t now says value (copied); 0 or -ENOMEM. */
int csv_set_cell(struct csv_table *t, int row, int col, const char *value);

/*
 * The most a result's CSV may be: samples.csv grows with points × repetitions × intervals
 * (a 1 MiB text file cap is some 20000 samples), so only a wrong file is refused.
 */
#define CSV_MAX_BYTES	((size_t)1 << 30)

/*
 * A file that a kill may have cut short while appending: only its whole
 * lines are read, and *torn gets the length of an unfinished last line
 * (0 when the file ends with a line end).  Returns as csv_read_file().
 */
int csv_read_whole_lines(const char *path, struct csv_table *t, size_t *torn);

/* Column index of header name, or -1. */
int csv_column(const struct csv_table *t, const char *name);

#endif
