// SPDX-License-Identifier: GPL-2.0
/*
 * Each row's top symbols under it (profilerows.h).  A row is found in
 * its run's view by address: the rows of one printed block may come from
 * several runs (shards drawn as one run), each with its own directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "heldir.h"
#include "profilerows.h"
#include "profiles.h"
#include "symname.h"

struct profile_rows {
	const struct result_view **views;
	const char **dirs;
	int nr;
	FILE *echo;
};

/* The directory of the run whose view holds r; NULL when none does. */
static const char *dir_of(const struct profile_rows *pr, const struct view_row *r)
{
	uintptr_t at = (uintptr_t)r;

	for (int i = 0; i < pr->nr; i++) {
		uintptr_t first = (uintptr_t)pr->views[i]->rows;

		if (at >= first && at < first + pr->views[i]->nr_rows * sizeof(*r))
			return pr->dirs[i];
	}
	return NULL;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void print_top(FILE *out, const struct profile_top *t, int indent)
{
	char name[PROFILE_ROW_NAME_WIDTH + 1];

	fprintf(out, "%*sprofile: %" PRIu64 " sample%s of %d repetition%s, self share\n",
		indent, "", t->samples, t->samples == 1 ? "" : "s", t->reps,
		t->reps == 1 ? "" : "s");
	for (int i = 0; i < t->nr && i < PROFILE_ROW_SYMBOLS && t->sym[i].self; i++)
		fprintf(out, "%*s%6.1f%%  %s\n", indent, "", share(t->sym[i].self, t->samples),
			sym_short(t->sym[i].name, PROFILE_ROW_NAME_WIDTH, name, sizeof(name)));
}

/* The view's under_row: rows of points without a profile get nothing. */
static void print_row_profile(FILE *out, const struct view_row *r, int indent, const void *ctx)
{
	const struct profile_rows *pr = ctx;
	const char *dir = dir_of(pr, r);
	struct profile_top t;
	int err;

	/* table.txt is written through another stream: it stays as it was */
	if (out != pr->echo || !dir || r->status != PS_OK)
		return;
	err = profiles_top_of_point(dir, r->id, &t);
	if (!err)
		print_top(out, &t, indent);
	else if (err != -ENOENT)
		diag_warn("%s: the profile of point %lld: %s", dir, r->id, strerror(-err));
	profile_top_free(&t);
}

static bool has_profiles(const char *dir)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/" PROFILES_DIR, dir);
	return !heldir_stat(path, &st) && S_ISDIR(st.st_mode);
}

struct profile_rows *profile_rows_attach(struct result_view *const *views,
					 const char *const *dirs, int nr, FILE *echo)
{
	struct profile_rows *pr = calloc(1, sizeof(*pr));

	if (pr) {
		pr->views = calloc(nr ? nr : 1, sizeof(*pr->views));
		pr->dirs = calloc(nr ? nr : 1, sizeof(*pr->dirs));
	}
	if (!pr || !pr->views || !pr->dirs) {
		profile_rows_free(pr);
		return NULL;
	}
	pr->nr = nr;
	pr->echo = echo;
	for (int i = 0; i < nr; i++) {
		pr->views[i] = views[i];
		pr->dirs[i] = dirs[i];
		views[i]->under_row = print_row_profile;
		views[i]->under_ctx = pr;
		if (!has_profiles(dirs[i]))
			diag_warn("%s: no profiles (not run with profile = on, or the kernel "
				  "refused it: summary.csv's profile column says)", dirs[i]);
	}
	return pr;
}

void profile_rows_free(struct profile_rows *pr)
{
	if (!pr)
		return;
	free(pr->views);
	free(pr->dirs);
	free(pr);
}
