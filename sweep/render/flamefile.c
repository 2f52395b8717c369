// SPDX-License-Identifier: GPL-2.0
/* A point's flame graph from its result directory: see flamefile.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "flame.h"
#include "flamefile.h"
#include "profiles.h"
#include "resultdir.h"

int flame_of_point(FILE *f, const char *dir, long long point, char *why, size_t why_len)
{
	struct flame_opts o = { .width = FLAME_WIDTH };
	struct folded sum;
	char title[160];
	int reps, err;

	err = profiles_sum_point(dir, point, &sum, &reps, why, why_len);
	if (err)
		return err;
	snprintf(title, sizeof(title), "point %lld: %" PRIu64 " samples of %d repetition%s", point,
		 sum.total, reps, reps == 1 ? "" : "s");
	o.title = title;
	err = flame_svg(f, &sum, &o);
	if (err == -ENODATA)
		snprintf(why, why_len, "no samples");
	folded_free(&sum);
	return err;
}

struct flame_file {
	const char *dir;
	long long point;
	char *why;
	size_t why_len;
};

static int fill_flame(FILE *f, const void *ctx)
{
	const struct flame_file *ff = ctx;

	return flame_of_point(f, ff->dir, ff->point, ff->why, ff->why_len);
}

int flame_write_dir(const char *dir)
{
	char pdir[4200], name[40], why[256];
	long long *points;
	int nr = profiles_points(dir, &points), err = nr < 0 ? nr : 0;

	snprintf(pdir, sizeof(pdir), "%s/" PROFILES_DIR, dir);
	for (int i = 0; !err && i < nr; i++) {
		const struct flame_file ff = { .dir = dir, .point = points[i], .why = why,
					       .why_len = sizeof(why) };

		why[0] = '\0';
		snprintf(name, sizeof(name), PROFILES_FLAME_NAME, points[i]);
		err = resultdir_write_file(pdir, name, true, fill_flame, &ff);
		if (err == -ENODATA)	/* no graph to draw: summary.csv's profile says why */
			err = 0;
		else if (err)
			diag_err("cannot write %s/%s: %s", pdir, name, why[0] ? why : strerror(-err));
	}
	if (nr < 0)
		diag_err("cannot read %s: %s", pdir, strerror(-err));
	free(points);
	return err ?: nr > 0 ? resultdir_sync(pdir) : 0;
}
