// SPDX-License-Identifier: GPL-2.0
/* compare --profile's section (compare_profile.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "compare_profile.h"
#include "diag.h"
#include "profilediff.h"
#include "profiles.h"

/* Both sides' profiles of one point. */
struct point_profiles {
	struct folded side[2];	/* BASE, NEW */
	int reps[2];
	int err[2];
};

static void read_side(const char *dir, long long id, struct point_profiles *pp, int s)
{
	char why[512];

	pp->err[s] = profiles_read_point(dir, id, &pp->side[s], &pp->reps[s], why, sizeof(why));
	if (pp->err[s] && pp->err[s] != -ENOENT)
		diag_warn("%s: the profile of point %lld: %s", dir, id,
			  why[0] ? why : strerror(-pp->err[s]));
}

static void print_move(FILE *f, const struct sym_move *m, bool *cautioned)
{
	char rel[32];

	if (isnan(m->rel_pct))
		snprintf(rel, sizeof(rel), "%9s ", "new");
	else
		snprintf(rel, sizeof(rel), "%+9.1f%%", m->rel_pct);
	fprintf(f, "  %6.1f%% %6.1f%% %+8.1f pp %s %7" PRIu64 " %7" PRIu64 "  %s%s\n",
		m->base_pct, m->new_pct, m->delta_pp, rel, m->base, m->new, m->name,
		m->too_few ? " (?)" : "");
	*cautioned |= m->too_few;
}

/* pp's moves under their header; 0 or -ENOMEM. */
static int print_moves(FILE *f, const struct point_profiles *pp, double alpha, bool *cautioned)
{
	struct sym_move *m;
	int nr, err = profile_diff(&pp->side[0], &pp->side[1], 1, alpha, &m, &nr);

	if (err)
		return err;
	fprintf(f, "  BASE %" PRIu64 " samples (%d repetition%s), NEW %" PRIu64 " samples "
		"(%d repetition%s)\n", pp->side[0].total, pp->reps[0], pp->reps[0] == 1 ? "" : "s",
		pp->side[1].total, pp->reps[1], pp->reps[1] == 1 ? "" : "s");
	fprintf(f, "  %7s %7s %11s %10s %7s %7s  %s\n", "BASE", "NEW", "moved", "relative",
		"n BASE", "n NEW", "symbol");
	for (int i = 0; i < nr && i < PROFILE_MOVES; i++)
		print_move(f, &m[i], cautioned);
	sym_moves_free(m, nr);
	return 0;
}

static int print_point(FILE *f, const struct comparison *c, const struct point_cmp *p,
		       double alpha, bool *cautioned)
{
	struct point_profiles pp = { 0 };
	char name[600];
	int err = 0;

	read_side(c->base_dir, c->base->points[p->base_row - 1].id, &pp, 0);
	read_side(c->new_dir, c->new->points[p->new_row - 1].id, &pp, 1);
	compare_point_name(p, name, sizeof(name));
	fprintf(f, "\n%s\n", name);
	if (pp.err[0] || pp.err[1])
		fprintf(f, "  no profile in %s%s%s\n", pp.err[0] ? "BASE" : "",
			pp.err[0] && pp.err[1] ? " nor " : "", pp.err[1] ? "NEW" : "");
	else
		err = print_moves(f, &pp, alpha, cautioned);
	folded_free(&pp.side[0]);
	folded_free(&pp.side[1]);
	return err;
}

static int print_one(FILE *f, const struct comparison *c, double alpha, bool *cautioned)
{
	int err = 0;

	fprintf(f, "\nProfiles: %s -> %s, the symbols whose self share moved most\n",
		c->base_dir, c->new_dir);
	for (int i = 0; !err && i < c->nr_pts; i++)
		if (c->pts[i].base_row > 0 && c->pts[i].new_row > 0)
			err = print_point(f, c, &c->pts[i], alpha, cautioned);
	return err;
}

int compare_profiles_print(FILE *f, const struct comparison *cs, int nr, double alpha)
{
	bool cautioned = false;
	int err = 0;

	for (int i = 0; !err && i < nr; i++)
		err = print_one(f, &cs[i], alpha, &cautioned);
	if (!err && cautioned)
		fprintf(f, "\n(?) too few samples to tell the move from chance: a "
			"two-proportion\n    z-test's p >= %g, or fewer than %d samples expected "
			"on a side\n", alpha, PROFILE_DIFF_MIN_EXPECTED);
	return err ?: ferror(f) ? -EIO : 0;
}
