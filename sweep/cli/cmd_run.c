// SPDX-License-Identifier: GPL-2.0
/*
 * The run command's wiring: the spec loaded as the options change it
 * (cli_load()), then a sweep over kernels (executors/kernelsweep.h: each
 * kernel boots and runs this command again) or a sweep here
 * (executors/hostrun.h), each handed a request made of the options.
 */
#include <stdio.h>
#include <string.h>

#include "bind.h"
#include "cli.h"
#include "diag.h"
#include "hostrun.h"
#include "kernels.h"
#include "kernelsweep.h"

/* every --tag reaches the sub-runs of a sweep over kernels, resumed too */
_Static_assert(CLI_MAX_ARGS <= KSWEEP_MAX_TAGS, "KSWEEP_MAX_TAGS too small");

/* What a sweep over kernels cannot do: said before anything is written. */
static int check_kernel_sweep(const struct run_opts *o, const struct sweep_cfg *cfg)
{
	/* its sub-runs are built from the options (subrun.c), which do not carry it yet */
	if (o->shard.count) {
		diag_err("--shard is not for a sweep over kernels (yet): each kernel runs every "
			 "point");
		return -1;
	}
	if (o->guest_of || o->fail_all) {
		diag_err("a sub-run's guest-of and fail-all settings: not for a sweep over "
			 "kernels (its sub-runs have --kernel host)");
		return -1;
	}
	return only_check(cfg, o->only);
}

/* The sweep over kernels (kernelsweep.h) as the options ask it; it frees spec and cfg. */
static int run_kernel_sweep(const struct run_opts *o, struct spec *spec, struct sweep_cfg *cfg)
{
	const struct orch_request rq = cli_orch_request(&(struct cli_orch_args){
		.com = &o->com, .spec = &o->spec, .draw = &o->draw, .resume = o->resume,
		.only = o->only, .quiet = o->quiet, .nr_quiet = o->nr_quiet });

	return kernel_sweep(&rq, spec, cfg);
}

/* The sweep here (hostrun.h) as the options ask it; it frees spec and cfg. */
static int run_here(const struct run_opts *o, struct spec *spec, struct sweep_cfg *cfg)
{
	const struct run_request rq = {
		.out = o->com.outdir, .resume = o->resume, .argv_line = o->com.argv_line,
		.tags = o->com.tags, .nr_tags = o->com.nr_tags, .quick = o->spec.quick,
		.only = o->only, .quiet = o->quiet, .nr_quiet = o->nr_quiet, .shard = o->shard,
		.draw = { .no_plots = o->draw.no_plots, .no_html = o->draw.no_html,
			  .plot_timeout_s = o->draw.plot_timeout_s, .format = o->draw.format },
		.guest_of = o->guest_of, .guest_accel = o->guest_accel,
		.guest_accel_reason = o->guest_accel_reason, .fail_all = o->fail_all,
		.place = &o->place, .gate = o->gate,
	};

	return host_run(&rq, spec, cfg);
}

int cmd_run(const struct run_opts *o)
{
	struct sweep_cfg *cfg;
	struct spec *spec;

	if (cli_load(&o->spec, &spec, &cfg))
		return EXIT_USAGE;
	/* its kernel axis is "host" (the guest's): only the option says how the guest runs */
	cfg->icount_guest = o->guest_accel && !strcmp(o->guest_accel, "tcg-icount");
	/* several kernels, or one in a VM: each boots and runs this command again */
	if (cfg->kernels.list.nr <= 1 && !kernel_axis_has_vm(&cfg->kernels))
		return run_here(o, spec, cfg);
	if (!check_kernel_sweep(o, cfg))
		return run_kernel_sweep(o, spec, cfg);
	sweep_cfg_free(cfg);
	spec_free(spec);
	return EXIT_USAGE;
}
