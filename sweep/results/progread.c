// SPDX-License-Identifier: GPL-2.0
/*
 * programs.csv read back (progread.h).  Its columns are found by name: the
 * figures are those between prog_id and reason (veristat's names), so a
 * set of a bpfsweep with another figure reads too.  The file is read,
 * escaped and refused as results_read.c reads summary.csv
 * (results_read_table()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progread.h"
#include "programs.h"
#include "resultcsv.h"
#include "results_read.h"

/* A cell that is not what its column holds. */
static int refuse_cell(char *why, size_t whylen, const char *dir, const struct csv_table *t,
		       int r, int c, const char *what)
{
	const char *s = t->rows[r][c];

	return results_refuse_at(why, whylen, dir, PROGRAMS_CSV, r + 1, c + 1, "%s is '%.40s%s', "
				 "not %s", t->header[c], s, strlen(s) > 40 ? "..." : "", what);
}

static int layout(struct prog_table *t, const char *dir, char *why, size_t whylen)
{
	static const char *const need[] = { "point", "rep", "prog_name", "prog_id", "reason" };
	int id = csv_column(&t->csv, "prog_id"), reason = csv_column(&t->csv, "reason");

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (csv_column(&t->csv, need[i]) < 0)
			return results_refuse_at(why, whylen, dir, PROGRAMS_CSV, 1, 1, "no column "
						 "'%s': not a header bpfsweep writes", need[i]);
	if (reason < id || reason - id - 1 > PROG_MAX_FIGS)
		return results_refuse_at(why, whylen, dir, PROGRAMS_CSV, 1, id + 1, "the figures "
					 "are not between prog_id and reason, or more than %d",
					 PROG_MAX_FIGS);
	for (int c = id + 1; c < reason; c++)
		t->fig[t->nr_figs++] = t->csv.header[c];
	return 0;
}

/* The program's figures of row r; an empty cell is one not known. */
static int read_figs(struct prog_table *t, int r, struct prog_row *p, const char *dir,
		     char *why, size_t whylen)
{
	int first = csv_column(&t->csv, "prog_id") + 1;

	for (int f = 0; f < t->nr_figs; f++) {
		const char *s = t->csv.rows[r][first + f];
		long long v;

		if (!*s)
			continue;
		if (!results_count(s, &v))
			return refuse_cell(why, whylen, dir, &t->csv, r, first + f, "empty or a "
					   "whole number from 0 to 9223372036854775807");
		p->v[f] = (uint64_t)v;
		p->known[f] = true;
	}
	return 0;
}

/*
 * How many rows before p in its repetition share its name: the nth of them.
 * A point's rows are one stretch of the file (results.c appends them together).
 */
static int nth_of(const struct prog_table *t, const struct prog_row *p)
{
	int nth = 0;

	for (const struct prog_row *q = p - 1; q >= t->rows && q->point == p->point &&
	     !strcmp(q->run, p->run); q--)
		nth += q->rep == p->rep && !strcmp(q->name, p->name);
	return nth;
}

static int read_row(struct prog_table *t, int r, const char *dir, char *why, size_t whylen)
{
	int pc = csv_column(&t->csv, "point"), rc = csv_column(&t->csv, "rep");
	int nc = csv_column(&t->csv, "prog_name");
	struct prog_row *p = &t->rows[t->nr_rows];
	const char *rep = t->csv.rows[r][rc];
	long long v;

	*p = (struct prog_row){ .rep = -1, .run = "" };
	if (csv_column(&t->csv, "run") >= 0)
		p->run = t->csv.rows[r][csv_column(&t->csv, "run")];
	if (!results_count(t->csv.rows[r][pc], &p->point))
		return refuse_cell(why, whylen, dir, &t->csv, r, pc, "a point number");
	if (*rep && (!results_count(rep, &v) || v > 1000000))
		return refuse_cell(why, whylen, dir, &t->csv, r, rc, "empty or a repetition number");
	p->rep = *rep ? (int)v : -1;
	/* a point that loaded no program: its row says why, and has no figure */
	if (!*t->csv.rows[r][nc])
		return 0;
	p->name = t->csv.rows[r][nc];
	p->nth = nth_of(t, p);
	t->nr_rows++;
	return read_figs(t, r, p, dir, why, whylen);
}

int prog_table_read(const char *dir, struct prog_table *t, char *why, size_t whylen)
{
	int err;

	*t = (struct prog_table){ 0 };
	why[0] = '\0';
	/* a program's name reaches the terminal: the reader escapes control characters */
	err = results_read_table(dir, PROGRAMS_CSV, &t->csv, &t->present, why, whylen);
	if (err || !t->present)
		return err;
	err = layout(t, dir, why, whylen);
	if (!err)
		t->rows = calloc(t->csv.nr_rows, sizeof(*t->rows));
	if (!err && !t->rows)
		err = -ENOMEM;
	for (int r = 1; !err && r < t->csv.nr_rows; r++)
		err = read_row(t, r, dir, why, whylen);
	return err;
}

void prog_table_free(struct prog_table *t)
{
	csv_table_free(&t->csv);
	free(t->rows);
	*t = (struct prog_table){ 0 };
}

int prog_table_fig(const struct prog_table *t, const char *name)
{
	for (int f = 0; f < t->nr_figs; f++)
		if (!strcmp(t->fig[f], name))
			return f;
	return -1;
}
