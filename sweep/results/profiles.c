// SPDX-License-Identifier: GPL-2.0
/* A point's profiles as files: see profiles.h and docs/profile.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "folded.h"
#include "foldtop.h"
#include "heldir.h"
#include "matrix.h"
#include "profiles.h"
#include "resultdir.h"

struct top_ctx {
	const struct sweep_cfg *cfg;
	const struct point_result *pr;
	const struct rep_profile *rp;
};

static int fill_folded(FILE *f, const void *ctx)
{
	const struct top_ctx *t = ctx;

	return folded_write(f, &t->rp->folded);
}

/* A header that ties the table to its point, then the table. */
static int fill_top(FILE *f, const void *ctx)
{
	const struct top_ctx *t = ctx;
	const struct rep_profile *rp = t->rp;
	char name[256];

	point_name(t->cfg, t->pr->pt, name, sizeof(name));
	fprintf(f, "# point %d (%s), repetition %d: %" PRIu64 " samples at %d Hz "
		"(cpu-clock, the measured intervals only), %" PRIu64 " lost\n",
		t->pr->pt->id, name, rp->rep, rp->samples, t->cfg->profile_hz, rp->lost);
	if (rp->why[0])
		fprintf(f, "# %s\n", rp->why);
	fprintf(f, "# self: samples with the symbol as the leaf; total: with it anywhere in "
		"the stack\n");
	return folded_write_top(f, &rp->folded, 1, PROFILES_TOP_N);
}

static int write_rep(const char *pdir, const struct top_ctx *t)
{
	char name[64];
	int err;

	snprintf(name, sizeof(name), "%d-r%d.folded", t->pr->pt->id, t->rp->rep);
	err = resultdir_write_file(pdir, name, true, fill_folded, t);
	if (err)
		return err;
	snprintf(name, sizeof(name), "%d-r%d.top", t->pr->pt->id, t->rp->rep);
	return resultdir_write_file(pdir, name, true, fill_top, t);
}

static bool any_profile(const struct point_result *pr)
{
	for (int i = 0; i < pr->nr_prof; i++)
		if (!pr->prof[i].err)
			return true;
	return false;
}

int profiles_write(const char *dir, const struct sweep_cfg *cfg, const struct point_result *pr)
{
	char pdir[4200];
	int err = 0;

	if (!cfg->profile || !any_profile(pr))
		return 0;
	snprintf(pdir, sizeof(pdir), "%s/" PROFILES_DIR, dir);
	err = heldir_mkdir(pdir, 0755);	/* beneath the run's held directory */
	if (err && err != -EEXIST)
		return err;
	err = 0;
	for (int i = 0; !err && i < pr->nr_prof; i++) {
		const struct top_ctx t = { .cfg = cfg, .pr = pr, .rp = &pr->prof[i] };

		if (!pr->prof[i].err)
			err = write_rep(pdir, &t);
	}
	return err ?: resultdir_sync(dir);
}

bool profiles_sum(const struct point_result *pr, uint64_t *samples, uint64_t *lost,
		  char *status, size_t len)
{
	bool said = false;

	*samples = *lost = 0;
	snprintf(status, len, "ok");
	for (int i = 0; i < pr->nr_prof; i++) {
		const struct rep_profile *rp = &pr->prof[i];

		*samples += rp->samples;
		*lost += rp->lost;
		if (rp->why[0] && !said)
			snprintf(status, len, "%s%s", rp->err ? "unsupported: " : "", rp->why);
		said |= rp->why[0] != '\0';
	}
	return pr->nr_prof > 0;
}
