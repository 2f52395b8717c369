// SPDX-License-Identifier: GPL-2.0
/* --only: an experiment by title (which points a run selects: shard_selects()). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "suggest.h"

int cli_check_only(const struct sweep_cfg *cfg, const char *only)
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
