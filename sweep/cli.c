// SPDX-License-Identifier: GPL-2.0
/* Loading what the command line names: spec file, --set overrides, --quick. */
#include "cli.h"
#include "diag.h"

/* --quick: enough to see that every point runs, not to publish */
#define QUICK_WARMUP_NS		250000000ULL
#define QUICK_DURATION_NS	1000000000ULL
#define QUICK_INTERVAL_NS	250000000ULL

static void apply_quick(struct sweep_cfg *cfg)
{
	cfg->interval_ns = QUICK_INTERVAL_NS;
	cfg->warmup_ns = QUICK_WARMUP_NS;
	cfg->duration_ns = QUICK_DURATION_NS;
	cfg->repeat = 1;
}

int cli_load(const struct cli_opts *o, struct spec **spec, struct sweep_cfg **cfg)
{
	int err;

	*cfg = NULL;
	err = spec_parse_file(o->spec_path, spec);
	if (err)
		return err;
	for (int i = 0; i < o->nr_sets && !err; i++)
		err = spec_set(*spec, o->sets[i]);
	if (!err)
		err = bind_spec(*spec, cfg);
	if (err) {
		diag_finish();
		spec_free(*spec);
		*spec = NULL;
		return err;
	}
	if (o->quick)
		apply_quick(*cfg);
	return 0;
}
