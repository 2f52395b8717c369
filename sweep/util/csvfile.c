// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 4180 CSV through libcsv: the only file that sees libcsv.  Writing
 * quotes a field only when it needs it (csv_fwrite), so the common case
 * (numbers and plain names) stays readable by awk, cut and gnuplot.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "csvfile.h"
#include "textfile.h"

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

/* Parser state shared by the libcsv callbacks. */
struct csv_builder {
	struct csv_table *t;
	char **row;		/* the row being read */
	int nr_fields;
	int err;		/* first error, sticks */
};

static void csv_on_field(void *data, size_t len, void *ctx)
{
	struct csv_builder *b = ctx;
	char **row, *s;

	if (b->err)
		return;
	row = realloc(b->row, (b->nr_fields + 1) * sizeof(*row));
	if (!row) {
		b->err = -ENOMEM;
		return;
	}
	b->row = row;
	s = malloc(len + 1);
	if (!s) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(s, data, len);
	s[len] = '\0';
	b->row[b->nr_fields++] = s;
}

static void csv_free_row(char **row, int nr)
{
	for (int i = 0; row && i < nr; i++)
		free(row[i]);
	free(row);
}

/* Row 0 sets the width every later row must have. */
static void csv_on_row(int term, void *ctx)
{
	struct csv_builder *b = ctx;
	struct csv_table *t = b->t;
	char ***rows;

	if (!b->err && t->nr_rows && b->nr_fields != t->nr_cols)
		b->err = -EINVAL;
	if (!b->err) {
		rows = realloc(t->rows, (t->nr_rows + 1) * sizeof(*rows));
		if (rows) {
			t->rows = rows;
			if (!t->nr_rows)
				t->nr_cols = b->nr_fields;
			t->rows[t->nr_rows++] = b->row;
			b->row = NULL;
		} else {
			b->err = -ENOMEM;
		}
	}
	csv_free_row(b->row, b->nr_fields);
	b->row = NULL;
	b->nr_fields = 0;
}

static int csv_begin(struct csv_parser *p, struct csv_builder *b, struct csv_table *t)
{
	memset(t, 0, sizeof(*t));
	memset(b, 0, sizeof(*b));
	b->t = t;
	if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI))
		return -ENOMEM;
	return 0;
}

static int csv_feed(struct csv_parser *p, struct csv_builder *b, const char *s, size_t len)
{
	if (csv_parse(p, s, len, csv_on_field, csv_on_row, b) != len)
		return csv_error(p) == CSV_EPARSE ? -EINVAL : -ENOMEM;
	return b->err;
}

/* Flush the last row (a file need not end in "\n"), then release. */
static int csv_end(struct csv_parser *p, struct csv_builder *b, int err)
{
	if (!err && csv_fini(p, csv_on_field, csv_on_row, b))
		err = csv_error(p) == CSV_EPARSE ? -EINVAL : -ENOMEM;
	if (!err)
		err = b->err;
	csv_free(p);
	csv_free_row(b->row, b->nr_fields);
	if (err)
		csv_table_free(b->t);
	return err;
}

int csv_read_string(const char *text, struct csv_table *t)
{
	struct csv_builder b;
	struct csv_parser p;
	int err;

	err = csv_begin(&p, &b, t);
	if (err)
		return err;
	err = csv_feed(&p, &b, text, strlen(text));
	return csv_end(&p, &b, err);
}

int csv_read_file(const char *path, struct csv_table *t)
{
	struct csv_builder b;
	struct csv_parser p;
	char buf[65536];
	size_t n;
	FILE *f;
	int err;

	f = fopen(path, "r");
	if (!f) {
		memset(t, 0, sizeof(*t));
		return -errno;
	}
	err = csv_begin(&p, &b, t);
	if (err)
		goto close_file;
	while (!err && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		err = csv_feed(&p, &b, buf, n);
	if (!err && ferror(f))
		err = -EIO;
	err = csv_end(&p, &b, err);
close_file:
	fclose(f);
	return err;
}

int csv_read_whole_lines(const char *path, struct csv_table *t, size_t *torn)
{
	char *text, *end;
	int err;

	memset(t, 0, sizeof(*t));
	*torn = 0;
	err = read_text_file_max(path, CSV_MAX_BYTES, &text, NULL);
	if (err)
		return err;
	end = strrchr(text, '\n');
	end = end ? end + 1 : text;
	*torn = strlen(end);
	*end = '\0';
	err = csv_read_string(text, t);
	free(text);
	return err;
}

void csv_table_free(struct csv_table *t)
{
	for (int r = 0; r < t->nr_rows; r++)
		csv_free_row(t->rows[r], t->nr_cols);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

int csv_column(const struct csv_table *t, const char *name)
{
	if (!t->nr_rows)
		return -1;
	for (int c = 0; c < t->nr_cols; c++)
		if (!strcmp(t->rows[0][c], name))
			return c;
	return -1;
}
