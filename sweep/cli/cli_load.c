// SPDX-License-Identifier: GPL-2.0
/*
 * Loading what the command line names: spec file or an ad hoc run's spec
 * (adhoc.h), --set overrides and their shorthands, --kernel, --quick.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "adhoc.h"
#include "adhocspec.h"
#include "bind.h"
#include "cli.h"
#include "columns.h"
#include "diag.h"
#include "kernels.h"
#include "quick.h"

const char *cli_quick_keeps(const struct cli_spec *o)
{
	return o->quick ? quick_keeps(o->quick_keeps, o->sets, o->nr_sets) : NULL;
}

/*
 * --kernel A --kernel B: the list, checked once here (an error is
 * --kernel's), is the spec's kernel key, after the other --set; its
 * printed form is what OUT/spec keeps (kernellist.h).
 */
static int set_kernels(const struct cli_spec *o, struct spec *spec)
{
	struct kernel_list kl = { 0 };
	int err;

	if (!o->nr_kernels)
		return 0;
	err = kernel_list_from_words(&kl, o->kernels, o->nr_kernels, "--kernel");
	if (!err) {
		err = kernel_list_set_spec(&kl, spec);
		if (err == -E2BIG)
			diag_err("--kernel: the kernel paths are too long");
	}
	kernel_list_free(&kl);
	return err;
}

/*
 * --set and its shorthands, in order.  A user's --set is called by its
 * own number among them ("--set #2"), a shorthand by its name ("-p").
 */
static int apply_sets(const struct cli_spec *o, struct spec *spec)
{
	char label[32];
	int err = 0, nr_user = 0;

	diag_label_sets_clear();
	for (int i = 0; i < o->nr_sets && !err; i++) {
		if (o->set_opt[i])
			snprintf(label, sizeof(label), "%s", o->set_opt[i]);
		else
			snprintf(label, sizeof(label), "--set #%d", ++nr_user);
		diag_label_set(spec->nr_sets + 1, label);
		err = spec_set(spec, o->sets[i]);
	}
	diag_label_set(spec->nr_sets + 1, "--kernel");
	return err;
}

/*
 * An ad hoc run's title and chart (adhoc.h), unless --set asked for its
 * own: set as a --set would be, so the saved spec has them, and bound
 * again.
 */
static int adhoc_name(struct spec *spec, struct sweep_cfg **cfg)
{
	bool chart = !(*cfg)->exps[0].nr_plots;
	char plot[256];
	int err;

	diag_label_set(spec->nr_sets + 1, "the ad hoc title");
	err = adhoc_title(spec);
	if (!err && chart && adhoc_plot(*cfg, plot, sizeof(plot))) {
		diag_label_set(spec->nr_sets + 1, "the ad hoc chart");
		err = spec_set(spec, plot);
	}
	sweep_cfg_free(*cfg);
	*cfg = NULL;
	return err ?: bind_spec(spec, &workloads_catalog, cfg);
}

int cli_load(const struct cli_spec *o, struct spec **spec, struct sweep_cfg **cfg)
{
	int err;

	*cfg = NULL;
	err = o->adhoc ? adhoc_spec(o->spec_path, spec) : spec_parse_file(o->spec_path, spec);
	if (err)
		return err;
	err = apply_sets(o, *spec);
	if (!err)
		err = set_kernels(o, *spec);
	/* of the workload the spec names now: a --set may have changed it */
	if (!err)
		err = adhoc_check_shorthands(o, *spec);
	if (!err)
		err = bind_spec(*spec, &workloads_catalog, cfg);
	if (!err && o->adhoc)
		err = adhoc_name(*spec, cfg);
	if (!err)
		err = bind_check_decide(*cfg, o->gated);
	/* after every --set: what the run's summary.csv will hold is known now */
	if (!err)
		err = columns_check_params(*cfg, *spec);
	/* only a spec that binds is worth keeping: it runs as it is */
	if (!err && o->save_spec)
		err = adhoc_save_spec(*spec, o->save_spec);
	if (err) {
		diag_finish();
		sweep_cfg_free(*cfg);
		*cfg = NULL;
		spec_free(*spec);
		*spec = NULL;
		return err;
	}
	err = o->quick ? quick_apply(*cfg, *spec, o->quick_keeps, o->sets, o->nr_sets) : 0;
	if (err) {
		sweep_cfg_free(*cfg);
		*cfg = NULL;
		spec_free(*spec);
		*spec = NULL;
	}
	return err;
}
