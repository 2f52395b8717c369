// SPDX-License-Identifier: GPL-2.0
/* Which points --only selects: an experiment by title (with --shard: shard_selects()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "pointsel.h"
#include "suggest.h"

int only_check(const struct sweep_cfg *cfg, const char *only)
{
	struct suggest sg;
	char hint[300];

	if (!only)
		return 0;
	suggest_init(&sg, only);
	for (int e = 0; e < cfg->nr_exps; e++) {
		const char *title = experiment_title(cfg, &cfg->exps[e]);

		if (!strcmp(title, only))
			return 0;
		suggest_add(&sg, title);
	}
	diag_err("--only: no experiment titled '%s'%s", only,
		 suggest_hint(hint, sizeof(hint), suggest_best(&sg)));
	/* nothing close: the titles there are, to copy one */
	if (!suggest_best(&sg)) {
		fprintf(stderr, "the experiments of this spec:\n");
		for (int e = 0; e < cfg->nr_exps; e++)
			fprintf(stderr, "  %s\n", experiment_title(cfg, &cfg->exps[e]));
	}
	return -EINVAL;
}

int only_points(const struct sweep_cfg *cfg, const struct plan *pl, const char *only,
		struct point **pts)
{
	int n = 0;

	*pts = calloc(pl->nr_pts ? pl->nr_pts : 1, sizeof(**pts));
	if (!*pts || only_check(cfg, only))
		return -1;
	for (int i = 0; i < pl->nr_pts; i++)
		if (point_in_only(cfg, &pl->pts[i], only))
			(*pts)[n++] = pl->pts[i];
	return n;
}
