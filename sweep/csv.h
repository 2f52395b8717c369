/* SPDX-License-Identifier: GPL-2.0 */
/* RFC 4180 CSV through libcsv.  The only user of libcsv. */
#ifndef SWEEP_CSV_H
#define SWEEP_CSV_H

#include <stdio.h>

/* Write one row, quoting fields as needed, ending with "\n". Returns 0/-errno. */
int csv_write_row(FILE *f, const char *const *fields, int nr);

/*
 * A whole CSV file read into memory: rows[r][c], row 0 the header.
 * Every row has nr_cols fields (a file where it does not is -EINVAL).
 */
struct csv_table {
	char ***rows;
	int nr_rows;
	int nr_cols;
};

int csv_read_file(const char *path, struct csv_table *t);
int csv_read_string(const char *text, struct csv_table *t);
void csv_table_free(struct csv_table *t);

/* Column index of header name, or -1. */
int csv_column(const struct csv_table *t, const char *name);

#endif
