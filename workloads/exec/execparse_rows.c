// SPDX-License-Identifier: GPL-2.0
/*
 * The exec workload's tabular parsers (execparse.h): a program's CSV, a
 * header then a row per interval, and its JSON lines, an object per
 * interval.  `fields` names the columns or keys: each a metric's rate per
 * second or the interval's length.  Rows are read by libcsv (csvfile.c),
 * objects by json-c; both are strict, and a line that does not read is
 * an error naming it, never a row skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "csvfile.h"
#include "execparse.h"

/* A cell as a number: all of it (libcsv has trimmed its blanks). */
static bool cell_number(const char *cell, double *v)
{
	char *end;

	*v = strtod(cell, &end);
	return end != cell && !*end && exec_good_number(*v);
}

/*
 * Before the header: is this it?  The header is the first line whose cells
 * name every field's column, so that a program may print text before it.
 */
static void csv_header(const struct exec_parser *p, struct exec_csv_state *st,
		       const struct csv_table *t)
{
	for (int f = 0; f < p->nr_fields; f++) {
		st->cell[f] = -1;
		for (int c = 0; c < t->nr_cols && st->cell[f] < 0; c++)
			if (!strcmp(t->rows[0][c], p->column[f]))
				st->cell[f] = c;
		if (st->cell[f] < 0)
			return;
	}
	st->header = true;
	st->nr_cells = t->nr_cols;
}

static int csv_row(const struct exec_parser *p, const struct exec_csv_state *st,
		   char **cells, int nr_cells, const char *line, struct exec_iv *iv,
		   char *why, size_t len)
{
	char what[96];
	double v;

	if (nr_cells != st->nr_cells) {
		snprintf(what, sizeof(what), "%d cells, the header has %d", nr_cells,
			 st->nr_cells);
		return exec_line_error(why, len, iv->line, line, what);
	}
	for (int f = 0; f < p->nr_fields; f++) {
		if (!cell_number(cells[st->cell[f]], &v)) {
			snprintf(what, sizeof(what), "column '%.40s' is no number", p->column[f]);
			return exec_line_error(why, len, iv->line, line, what);
		}
		if (!exec_set_field(p, f, v, iv))
			return exec_line_error(why, len, iv->line, line,
					       "an elapsed time of 2^63 ns or more");
	}
	return 1;
}

/* A line longer than EXEC_MAX_ROW_LINE: not a header before one, else an error. */
static int too_long(const struct exec_csv_state *st, int nr, const char *line, char *why,
		    size_t len)
{
	char what[64];

	if (st && !st->header)
		return 0;
	snprintf(what, sizeof(what), "longer than %d bytes, the most a row may be",
		 EXEC_MAX_ROW_LINE);
	return exec_line_error(why, len, nr, line, what);
}

int exec_csv_line(const struct exec_parser *p, struct exec_csv_state *st, const char *line,
		  struct exec_iv *iv, char *why, size_t len)
{
	struct csv_table t;
	int err;

	if (!line[strspn(line, " \t")])
		return 0;
	if (strlen(line) > EXEC_MAX_ROW_LINE)
		return too_long(st, iv->line, line, why, len);
	err = csv_read_string(line, &t);
	if (err == -ENOMEM)
		return err;
	if (!st->header) {
		/* text before the header need not be CSV */
		if (!err && t.nr_rows == 1)
			csv_header(p, st, &t);
		csv_table_free(&t);
		return 0;
	}
	if (err || t.nr_rows != 1) {
		csv_table_free(&t);
		return exec_line_error(why, len, iv->line, line, "not a CSV row");
	}
	err = csv_row(p, st, t.rows[0], t.nr_cols, line, iv, why, len);
	csv_table_free(&t);
	return err;
}

/* The object's value of each field's key into iv. */
static int jsonl_fields(const struct exec_parser *p, struct json_object *obj, const char *line,
			struct exec_iv *iv, char *why, size_t len)
{
	struct json_object *val;
	char what[96];
	double v;

	for (int f = 0; f < p->nr_fields; f++) {
		if (!json_object_object_get_ex(obj, p->column[f], &val)) {
			snprintf(what, sizeof(what), "no key '%.40s'", p->column[f]);
			return exec_line_error(why, len, iv->line, line, what);
		}
		/* json_object_get_double() would read a string's number too */
		if ((!json_object_is_type(val, json_type_int) &&
		     !json_object_is_type(val, json_type_double)) ||
		    !exec_good_number(v = json_object_get_double(val))) {
			snprintf(what, sizeof(what), "key '%.40s' is no number", p->column[f]);
			return exec_line_error(why, len, iv->line, line, what);
		}
		if (!exec_set_field(p, f, v, iv))
			return exec_line_error(why, len, iv->line, line,
					       "an elapsed time of 2^63 ns or more");
	}
	return 1;
}

int exec_jsonl_line(const struct exec_parser *p, const char *line, struct exec_iv *iv,
		    char *why, size_t len)
{
	const char *s = line + strspn(line, " \t");
	struct json_tokener *tok;
	struct json_object *obj;
	size_t n = strlen(s), end;
	int ret;

	if (*s != '{')
		return 0;
	if (n > EXEC_MAX_ROW_LINE)
		return too_long(NULL, iv->line, line, why, len);
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, s, n);
	end = json_tokener_get_parse_end(tok);
	/* the whole line one object: not a prefix of one, nor one and more */
	if (!obj || !json_object_is_type(obj, json_type_object) ||
	    s[end + strspn(s + end, " \t")])
		ret = exec_line_error(why, len, iv->line, line, "not one JSON object");
	else
		ret = jsonl_fields(p, obj, line, iv, why, len);
	json_object_put(obj);
	json_tokener_free(tok);
	return ret;
}
