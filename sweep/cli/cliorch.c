// SPDX-License-Identifier: GPL-2.0
/*
 * What a command that drives sub-runs was asked (orchestrator.h), from the
 * options that run over kernels and the fleet share.
 */
#include "cli.h"

struct orch_request cli_orch_request(const struct cli_orch_args *a)
{
	struct orch_request rq = {
		.out = a->com->outdir, .resume = a->resume, .argv_line = a->com->argv_line,
		.sub = { .quick = a->spec->quick, .quick_keeps = cli_quick_keeps(a->spec),
			 .only = a->only, .tags = a->com->tags, .nr_tags = a->com->nr_tags,
			 .quiet = a->quiet, .nr_quiet = a->nr_quiet },
		.draw = cli_draw_opts(a->draw, a->spec->sets, a->spec->nr_sets),
	};

	/* the page of every run, as a run writes its own */
	cli_draw_page(a->draw, &rq.draw);
	return rq;
}
