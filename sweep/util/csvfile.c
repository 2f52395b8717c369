// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 4180 CSV through libcsv: the only file that sees libcsv.  Writing
 * quotes a field only when it needs it (csv_fwrite), so the common case
 * (numbers and plain names) stays readable by awk, cut and gnuplot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csv.h>

#include "csvfile.h"
#include "heldir.h"

/*
 * Separators, quotes and line breaks must be quoted by RFC 4180; leading or
 * trailing blanks too, because libcsv's reader trims unquoted fields.
 */
static bool csv_needs_quotes(const char *s, size_t len)
{
	if (!len)
		return false;
	if (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t')
		return true;
	return strpbrk(s, ",\"\r\n") != NULL;
}

int csv_write_row(FILE *f, const char *const *fields, int nr)
{
	for (int i = 0; i < nr; i++) {
		const char *s = fields[i] ? fields[i] : "";
		size_t len = strlen(s);

		if (i && fputc(',', f) == EOF)
			return -EIO;
		/* a lone empty field would be an empty line, which readers skip */
		if (csv_needs_quotes(s, len) || (nr == 1 && !len)) {
			if (csv_fwrite(f, s, len))
				return -EIO;
		} else if (len && fwrite(s, 1, len, f) != len) {
			return -EIO;
		}
	}
	if (fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

/*
 * Parser state shared by the libcsv callbacks.  Every cell's text goes
 * into t->text, sized before parsing to the bytes fed plus one (a cell is
 * never longer than its source, and its NUL takes its separator's place),
 * so the block never moves and cells can point into it from the start:
 * the table costs its data plus one pointer a cell, or with CSV_ROWS_ONLY
 * its data plus 4 bytes a row (and the header's pointers).
 */
struct csv_builder {
	struct csv_table *t;
	bool rows_only;
	size_t text_len, text_cap;
	size_t nr_cells, cells_cap;	/* in t->cells, all rows' (the header's alone: rows_only) */
	size_t row_at_cap;		/* of t->row_at */
	size_t row_start;		/* in t->text, of the row being read */
	int nr_fields;			/* of the row being read */
	int line;			/* 1-based line of what is being fed */
	size_t line_off;		/* bytes of that line fed before */
	int err;			/* first error, sticks */
};

/* The text offsets fit the 4 bytes a row of a CSV_ROWS_ONLY table keeps. */
_Static_assert(CSV_MAX_BYTES < UINT32_MAX, "row offsets are 32-bit");

/* Room for one more element of a doubling array; 0 or -ENOMEM. */
static int grow(void **array, size_t *cap, size_t nr, size_t size)
{
	size_t want = *cap ? 2 * *cap : 256;
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*array, want * size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*cap = want;
	return 0;
}

static void csv_on_field(void *data, size_t len, void *ctx)
{
	struct csv_builder *b = ctx;
	struct csv_table *t = b->t;
	char *s = t->text + b->text_len;
	bool pointed = !b->rows_only || !t->nr_rows;

	if (b->err)
		return;
	if (len >= b->text_cap - b->text_len) {
		b->err = -EINVAL;	/* not from these bytes: a broken promise above */
		return;
	}
	if (pointed && grow((void **)&t->cells, &b->cells_cap, b->nr_cells, sizeof(*t->cells))) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(s, data, len);
	s[len] = '\0';
	b->text_len += len + 1;
	if (pointed)
		t->cells[b->nr_cells++] = s;
	b->nr_fields++;
}

/* Row 0 sets the width every later row must have. */
static void csv_on_row(int term, void *ctx)
{
	struct csv_builder *b = ctx;
	struct csv_table *t = b->t;

	if (!b->err && t->nr_rows && b->nr_fields != t->nr_cols) {
		b->err = -EINVAL;
		t->err_fields = b->nr_fields;
	}
	if (!b->err && !t->nr_rows)
		t->nr_cols = b->nr_fields;
	if (!b->err && b->rows_only &&
	    grow((void **)&t->row_at, &b->row_at_cap, t->nr_rows, sizeof(*t->row_at)))
		b->err = -ENOMEM;
	if (!b->err && b->rows_only)
		t->row_at[t->nr_rows] = b->row_start;
	if (!b->err)
		t->nr_rows++;
	b->row_start = b->text_len;
	b->nr_fields = 0;
}

/* Everything but the err_ fields, which say why a read failed. */
static void csv_table_free_keep_line(struct csv_table *t)
{
	int line = t->err_line, col = t->err_col, fields = t->err_fields;
	bool nul = t->err_nul;

	for (int i = 0; i < t->nr_set; i++)
		free(t->set[i]);
	free(t->set);
	free(t->rows);
	free(t->cells);
	free(t->row_at);
	free(t->text);
	memset(t, 0, sizeof(*t));
	t->err_line = line;
	t->err_col = col;
	t->err_nul = nul;
	t->err_fields = fields;
}

void csv_table_free(struct csv_table *t)
{
	csv_table_free_keep_line(t);
	t->err_line = 0;
	t->err_col = 0;
	t->err_nul = false;
	t->err_fields = 0;
}

static int csv_begin(struct csv_parser *p, struct csv_builder *b, struct csv_table *t,
		     size_t size, unsigned int flags)
{
	memset(t, 0, sizeof(*t));
	memset(b, 0, sizeof(*b));
	b->t = t;
	b->rows_only = flags & CSV_ROWS_ONLY;
	b->line = 1;
	b->text_cap = size + 1;
	t->text = malloc(b->text_cap);
	if (!t->text)
		return -ENOMEM;
	if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI)) {
		free(t->text);
		t->text = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* One line (or its last piece) to libcsv; t->err_line says where it failed. */
static int csv_feed_line(struct csv_parser *p, struct csv_builder *b, const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len);

	if (nul) {
		b->t->err_nul = true;
		b->t->err_col = b->line_off + (nul - s) + 1;
		b->err = -EINVAL;
	} else if (csv_parse(p, s, len, csv_on_field, csv_on_row, b) != len)
		b->err = csv_error(p) == CSV_EPARSE ? -EINVAL : -ENOMEM;
	if (b->err && !b->t->err_line)
		b->t->err_line = b->line;
	if (b->err && !b->t->err_col)
		b->t->err_col = 1;
	return b->err;
}

/* Fed a line at a time, so that an error has its line (a quoted line break counts too). */
static int csv_feed(struct csv_parser *p, struct csv_builder *b, const char *s, size_t len)
{
	while (len && !b->err) {
		const char *nl = memchr(s, '\n', len);
		size_t n = nl ? (size_t)(nl - s) + 1 : len;

		if (csv_feed_line(p, b, s, n))
			break;
		b->line += !!nl;
		b->line_off = nl ? 0 : b->line_off + n;
		s += n;
		len -= n;
	}
	return b->err;
}

/* Flush the last row (a file need not end in "\n"), then the row index; release. */
static int csv_end(struct csv_parser *p, struct csv_builder *b, int err)
{
	struct csv_table *t = b->t;

	if (!err && csv_fini(p, csv_on_field, csv_on_row, b))
		err = csv_error(p) == CSV_EPARSE ? -EINVAL : -ENOMEM;
	if (!err)
		err = b->err;
	if (err == -EINVAL && !t->err_line)
		t->err_line = b->line;
	if (err == -EINVAL && !t->err_col)
		t->err_col = 1;
	csv_free(p);
	t->next_line = b->line;
	if (!err && t->nr_rows && !b->rows_only) {
		t->rows = malloc(t->nr_rows * sizeof(*t->rows));
		if (!t->rows)
			err = -ENOMEM;
	}
	for (int r = 0; !err && t->rows && r < t->nr_rows; r++)
		t->rows[r] = t->cells + (size_t)r * t->nr_cols;
	if (!err && t->nr_rows)
		t->header = t->cells;
	if (err)
		csv_table_free_keep_line(t);
	return err;
}

int csv_read_string(const char *text, struct csv_table *t)
{
	size_t len = strlen(text);
	struct csv_builder b;
	struct csv_parser p;
	int err;

	err = csv_begin(&p, &b, t, len, 0);
	if (err)
		return err;
	err = csv_feed(&p, &b, text, len);
	return csv_end(&p, &b, err);
}

/* The first size bytes of fd, a block at a time. */
static int csv_read_fd(int fd, size_t size, unsigned int flags, struct csv_table *t)
{
	struct csv_builder b;
	struct csv_parser p;
	char buf[65536];
	size_t off = 0;
	int err;

	err = csv_begin(&p, &b, t, size, flags);
	if (err)
		return err;
	while (!err && off < size) {
		size_t want = size - off < sizeof(buf) ? size - off : sizeof(buf);
		ssize_t n = pread(fd, buf, want, off);

		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;	/* cut shorter under us */
			break;
		}
		err = csv_feed(&p, &b, buf, n);
		off += n;
	}
	return csv_end(&p, &b, err);
}

/*
 * path opened and sized: a regular file of at most CSV_MAX_BYTES.  Opened
 * O_NONBLOCK, so that a FIFO in its place (which has no writer) is refused
 * by fstat() here rather than blocking open() for ever.
 */
static int csv_open(const char *path, size_t *size)
{
	struct stat st;
	int fd = heldir_open(path, O_RDONLY | O_NONBLOCK, 0);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > CSV_MAX_BYTES) {
		int err = fstat(fd, &st) ? -errno : S_ISDIR(st.st_mode) ? -EISDIR :
			  !S_ISREG(st.st_mode) ? -EINVAL : -EFBIG;

		close(fd);
		return err;
	}
	*size = st.st_size;
	return fd;
}

int csv_read_file(const char *path, struct csv_table *t)
{
	size_t size;
	int fd = csv_open(path, &size), err;

	memset(t, 0, sizeof(*t));
	if (fd < 0)
		return fd;
	err = csv_read_fd(fd, size, 0, t);
	close(fd);
	return err;
}

/* Bytes up to and with the last line end among fd's first size, found from the end. */
static int whole_lines_size(int fd, size_t size, size_t *whole)
{
	char buf[4096];
	size_t end = size;

	while (end) {
		size_t n = end < sizeof(buf) ? end : sizeof(buf);
		ssize_t got = pread(fd, buf, n, end - n);

		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		for (size_t i = n; i > 0; i--) {
			if (buf[i - 1] == '\n') {
				*whole = end - n + i;
				return 0;
			}
		}
		end -= n;
	}
	*whole = 0;
	return 0;
}

int csv_read_whole_lines(const char *path, unsigned int flags, struct csv_table *t,
			 size_t *torn)
{
	size_t size, whole;
	int fd = csv_open(path, &size), err;

	memset(t, 0, sizeof(*t));
	*torn = 0;
	if (fd < 0)
		return fd;
	err = whole_lines_size(fd, size, &whole);
	if (!err) {
		*torn = size - whole;
		err = csv_read_fd(fd, whole, flags, t);
	}
	close(fd);
	return err;
}

const char *csv_cell(const struct csv_table *t, int row, int col)
{
	const char *s;

	if (t->rows)
		return t->rows[row][col];
	s = t->text + t->row_at[row];
	while (col--)
		s += strlen(s) + 1;
	return s;
}

void csv_row_cells(const struct csv_table *t, int row, const char **cells)
{
	const char *s = t->rows ? NULL : t->text + t->row_at[row];

	for (int c = 0; c < t->nr_cols; c++) {
		cells[c] = t->rows ? t->rows[row][c] : s;
		if (s)
			s += strlen(s) + 1;
	}
}

int csv_set_cell(struct csv_table *t, int row, int col, const char *value)
{
	char **set, *v;

	if (!t->rows)
		return -EINVAL;		/* a CSV_ROWS_ONLY table's cells are its text */
	set = realloc(t->set, (t->nr_set + 1) * sizeof(*set));
	v = strdup(value);
	if (set)
		t->set = set;
	if (!set || !v) {
		free(v);
		return -ENOMEM;
	}
	t->set[t->nr_set++] = v;
	t->rows[row][col] = v;
	return 0;
}

int csv_column(const struct csv_table *t, const char *name)
{
	if (!t->nr_rows)
		return -1;
	for (int c = 0; c < t->nr_cols; c++)
		if (!strcmp(t->header[c], name))
			return c;
	return -1;
}
