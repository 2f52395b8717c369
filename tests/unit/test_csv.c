// SPDX-License-Identifier: GPL-2.0
/* csv.c: fields that need quoting survive a write/read round trip. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "csvfile.h"

static const char *const header[] = { "name", "note", "empty", "value" };
static const char *const row1[] = { "plain", "a, b", "", "1.500" };
static const char *const row2[] = { "say \"hi\"", "line1\nline2", "", " padded " };
static const char *const row3[] = { "crlf\r\nend", "\xc2\xb1 utf-8", "", "" };
static const char *const *const rows[] = { header, row1, row2, row3 };

static int write_rows(FILE *f)
{
	for (int r = 0; r < 4; r++) {
		int err = csv_write_row(f, rows[r], 4);

		if (err)
			return err;
	}
	return 0;
}

/* Every field of t equals rows[][]; returns the first mismatch or -1. */
static int first_mismatch(const struct csv_table *t)
{
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			if (strcmp(t->rows[r][c], rows[r][c]))
				return r * 4 + c;
	return -1;
}

TEST(write_quotes_only_when_needed)
{
	static const char want[] = "name,note,empty,value\nplain,\"a, b\",,1.500\n"
				   "\"say \"\"hi\"\"\",\"line1\nline2\",,\" padded \"\n";
	char *text = NULL;
	int diff;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f);
	CHECK_INT(write_rows(f), 0);
	fclose(f);
	diff = strncmp(text, want, strlen(want));
	free(text);
	CHECK_INT(diff, 0);
}

TEST(round_trip_string)
{
	struct csv_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f);
	CHECK_INT(write_rows(f), 0);
	fclose(f);
	CHECK_INT(csv_read_string(text, &t), 0);
	free(text);
	CHECK_INT(t.nr_rows, 4);
	CHECK_INT(t.nr_cols, 4);
	CHECK_INT(first_mismatch(&t), -1);
	CHECK_INT(csv_column(&t, "value"), 3);
	CHECK_INT(csv_column(&t, "nope"), -1);
	csv_table_free(&t);
	CHECK_INT(t.nr_rows, 0);
}

TEST(round_trip_file)
{
	char path[] = "/tmp/test_csv.XXXXXX";
	struct csv_table t;
	int fd = mkstemp(path);
	FILE *f;

	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	CHECK(f);
	CHECK_INT(write_rows(f), 0);
	CHECK_INT(fclose(f), 0);
	CHECK_INT(csv_read_file(path, &t), 0);
	unlink(path);
	CHECK_INT(t.nr_rows, 4);
	CHECK_INT(first_mismatch(&t), -1);
	csv_table_free(&t);
}

TEST(lone_empty_field_is_a_row)
{
	static const char *const one[] = { "" };
	struct csv_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f);
	CHECK_INT(csv_write_row(f, (const char *const[]){ "h" }, 1), 0);
	CHECK_INT(csv_write_row(f, one, 1), 0);
	fclose(f);
	CHECK_INT(csv_read_string(text, &t), 0);
	free(text);
	CHECK_INT(t.nr_rows, 2);
	CHECK_STR(t.rows[1][0], "");
	csv_table_free(&t);
}

TEST(last_row_without_newline_and_crlf)
{
	struct csv_table t;

	CHECK_INT(csv_read_string("a,b\r\n1,2\r\n3,4", &t), 0);
	CHECK_INT(t.nr_rows, 3);
	CHECK_STR(t.rows[1][1], "2");
	CHECK_STR(t.rows[2][0], "3");
	csv_table_free(&t);
}

TEST(bad_row_width)
{
	struct csv_table t;

	CHECK_INT(csv_read_string("a,b,c\n1,2,3\n4,5\n", &t), -EINVAL);
	CHECK_INT(t.nr_rows, 0);
	CHECK(!t.rows);
	CHECK_INT(csv_read_string("a,b\n1,2,3\n", &t), -EINVAL);
	CHECK_INT(csv_read_string("a,b\n1,2", &t), 0);
	csv_table_free(&t);
}

TEST(malformed_quotes)
{
	struct csv_table t;

	CHECK_INT(csv_read_string("a,b\n\"1\"x,2\n", &t), -EINVAL);
	CHECK_INT(csv_read_string("a,b\n1,\"2\n", &t), -EINVAL);
}

TEST(missing_file)
{
	struct csv_table t;

	CHECK_INT(csv_read_file("/nonexistent/bpfsweep.csv", &t), -ENOENT);
	CHECK_INT(t.nr_rows, 0);
}

TEST(empty_input)
{
	struct csv_table t;

	CHECK_INT(csv_read_string("", &t), 0);
	CHECK_INT(t.nr_rows, 0);
	CHECK_INT(csv_column(&t, "a"), -1);
	csv_table_free(&t);
}

/* A kill in the middle of an append: the unfinished last line is left out, and said. */
TEST(whole_lines_leave_out_a_torn_tail)
{
	char path[] = "/tmp/test_csv.XXXXXX";
	struct csv_table t;
	size_t torn;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK_INT(write(fd, "a,b\n1,2\n3", 9), 9);
	close(fd);
	CHECK_INT(csv_read_whole_lines(path, 0, &t, &torn), 0);
	CHECK_INT(t.nr_rows, 2);
	CHECK_INT(torn, 1);
	CHECK_STR(t.rows[1][1], "2");
	csv_table_free(&t);
	/* the same file read whole is malformed: the torn row is one field short */
	CHECK_INT(csv_read_file(path, &t), -EINVAL);
	unlink(path);
}

/*
 * CSV_ROWS_ONLY keeps no pointer a cell: the same cells come back through
 * csv_cell() and csv_row_cells(), quoted separators and line breaks too,
 * the header by name; a cell cannot be replaced.
 */
TEST(rows_only_reads_the_same_cells)
{
	char path[] = "/tmp/test_csv.XXXXXX";
	const char *cells[4];
	struct csv_table t;
	size_t torn;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f);
	CHECK_INT(write_rows(f), 0);
	CHECK_INT(fclose(f), 0);
	CHECK_INT(csv_read_whole_lines(path, CSV_ROWS_ONLY, &t, &torn), 0);
	CHECK_INT(t.nr_rows, 4);
	CHECK(!t.rows);
	CHECK_INT(csv_column(&t, "value"), 3);
	for (int r = 0; r < 4; r++) {
		csv_row_cells(&t, r, cells);
		for (int c = 0; c < 4; c++) {
			CHECK_STR(csv_cell(&t, r, c), rows[r][c]);
			CHECK_STR(cells[c], rows[r][c]);
		}
	}
	CHECK_INT(csv_set_cell(&t, 1, 1, "x"), -EINVAL);
	csv_table_free(&t);
	unlink(path);
}

/*
 * Where a file is malformed, for its reader's "file:line:col": a NUL at its
 * byte (a line fed in pieces too), a row of another width with its fields.
 */
TEST(malformed_says_line_and_column)
{
	char path[] = "/tmp/test_csv.XXXXXX", big[70000];
	struct csv_table t;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	/* line 2 longer than a read block: the NUL's column counts the whole line */
	memset(big, 'x', sizeof(big));
	memcpy(big, "a\n", 2);
	big[sizeof(big) - 3] = '\0';
	CHECK_INT(write(fd, big, sizeof(big)), sizeof(big));
	close(fd);
	CHECK_INT(csv_read_file(path, &t), -EINVAL);
	unlink(path);
	CHECK(t.err_nul);
	CHECK_INT(t.err_line, 2);
	CHECK_INT(t.err_col, (int)sizeof(big) - 2 - 2);
	CHECK_INT(t.err_fields, 0);
	CHECK_INT(csv_read_string("a,b,c\n1,2,3\n4,5\n", &t), -EINVAL);
	CHECK(!t.err_nul);
	CHECK_INT(t.err_line, 3);
	CHECK_INT(t.err_col, 1);
	CHECK_INT(t.err_fields, 2);
	CHECK_INT(csv_read_string("a,b\n\"1\"x,2\n", &t), -EINVAL);
	CHECK_INT(t.err_line, 2);
	CHECK_INT(t.err_col, 1);
	CHECK_INT(t.err_fields, 0);
	csv_table_free(&t);
	CHECK_INT(t.err_line, 0);
}

/*
 * A FIFO in a CSV's place has no writer: opened without O_NONBLOCK it
 * blocked report, compare, merge and --resume for ever.  Refused at once,
 * as a device is (the alarm fails the test rather than hang it).
 */
TEST(fifo_and_device_refused_at_once)
{
	char dir[] = "/tmp/test_csv.XXXXXX", path[64];
	struct csv_table t;
	size_t torn;

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CHECK_INT(mkfifo(path, 0600), 0);
	alarm(5);
	CHECK_INT(csv_read_file(path, &t), -EINVAL);
	CHECK_INT(t.err_line, 0);
	CHECK_INT(csv_read_whole_lines(path, 0, &t, &torn), -EINVAL);
	CHECK_INT(csv_read_file("/dev/zero", &t), -EINVAL);
	alarm(0);
	unlink(path);
	rmdir(dir);
}

RUN_TESTS(write_quotes_only_when_needed, round_trip_string, round_trip_file,
	  lone_empty_field_is_a_row, last_row_without_newline_and_crlf, bad_row_width,
	  malformed_quotes, missing_file, empty_input, whole_lines_leave_out_a_torn_tail,
	  malformed_says_line_and_column, fifo_and_device_refused_at_once,
	  rows_only_reads_the_same_cells)
