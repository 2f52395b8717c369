// SPDX-License-Identifier: GPL-2.0
/*
 * csvget FILE COLUMN [KEY VALUE]: print COLUMN of every data row (of the
 * rows whose KEY column equals VALUE).  The shell tests read result CSVs
 * through the project's own libcsv reader instead of fragile text tools.
 */
#include <stdio.h>
#include <string.h>

#include "csvfile.h"

int main(int argc, char **argv)
{
	struct csv_table t;
	int col, key = -1, err;

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: csvget FILE COLUMN [KEY VALUE]\n");
		return 2;
	}
	err = csv_read_file(argv[1], &t);
	if (err) {
		fprintf(stderr, "csvget: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	col = csv_column(&t, argv[2]);
	if (argc == 5)
		key = csv_column(&t, argv[3]);
	if (col < 0 || (argc == 5 && key < 0)) {
		fprintf(stderr, "csvget: %s: no column '%s'\n", argv[1],
			col < 0 ? argv[2] : argv[3]);
		csv_table_free(&t);
		return 1;
	}
	for (int r = 1; r < t.nr_rows; r++)
		if (key < 0 || !strcmp(t.rows[r][key], argv[4]))
			printf("%s\n", t.rows[r][col]);
	csv_table_free(&t);
	return 0;
}
