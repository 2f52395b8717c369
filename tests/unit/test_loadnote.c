// SPDX-License-Identifier: GPL-2.0
/*
 * loadnote.c: the note under a table's block that carries its programs'
 * load figures (WL_LOAD_METRICS): one value where the points agree, the
 * lowest and highest where they do not, failed points and empty cells
 * left out, nothing where no point has them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loadnote.h"
#include "workload.h"

extern const struct workload csum_diff_workload;

static int metric_index(const struct workload *wl, const char *name)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (!strcmp(wl->metrics[m].name, name))
			return m;
	return -1;
}

/* nr rows of csum_diff, each load figure NaN but total_insns[i] and verify_time 150 us. */
static void make_rows(struct view_row *r, const double *insns, int nr)
{
	const struct workload *wl = &csum_diff_workload;

	for (int i = 0; i < nr; i++) {
		r[i] = (struct view_row){ .status = PS_OK };
		for (int m = 0; m < wl->nr_metrics; m++)
			r[i].stat[m].mean = NAN;
		r[i].stat[metric_index(wl, "total_insns")].mean = insns[i];
		r[i].stat[metric_index(wl, "verify_time")].mean = 150e-6 * (i + 1);
	}
}

static char *note_of(const struct view_row *r, int nr)
{
	const struct view_row *rows[4];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (int i = 0; i < nr; i++)
		rows[i] = &r[i];
	if (f) {
		table_load_note(f, &csum_diff_workload, rows, nr, false);
		fclose(f);
	}
	return text;
}

TEST(one_value_or_the_range)
{
	struct view_row r[3];
	double same[] = { 73, 73, 73 }, differ[] = { 112, 73, 90 };
	char *text;

	CHECK(metric_index(&csum_diff_workload, "total_insns") >= 0);
	make_rows(r, same, 3);
	text = note_of(r, 3);
	CHECK(text && strstr(text, "note: loading the programs"));
	CHECK(text && strstr(text, "total_insns 73insns, "));
	free(text);
	make_rows(r, differ, 3);
	/* a failed point's figures are not its block's */
	r[0].status = PS_FAILED;
	text = note_of(r, 3);
	CHECK(text && strstr(text, "total_insns 73insns..90insns, "));
	CHECK(text && !strstr(text, "112"));
	CHECK(text && !strstr(text, "jited_size"));
	free(text);
}

TEST(nothing_without_figures)
{
	struct view_row r[2];
	double none[] = { NAN, NAN };
	char *text;

	make_rows(r, none, 2);
	for (int i = 0; i < 2; i++)
		r[i].stat[metric_index(&csum_diff_workload, "verify_time")].mean = NAN;
	text = note_of(r, 2);
	CHECK_STR(text ? text : "(null)", "");
	free(text);
}

RUN_TESTS(one_value_or_the_range, nothing_without_figures)
