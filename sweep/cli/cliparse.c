// SPDX-License-Identifier: GPL-2.0
/* An option's value into its command's options: see cliparse.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "adhoc.h"
#include "cliopt.h"
#include "cliparse.h"
#include "diag.h"
#include "kernels.h"
#include "subrun.h"
#include "syscheck.h"

static int add_arg(const char **list, int *nr, int max, const char *arg, const char *opt)
{
	if (*nr >= max) {
		diag_err("too many %s options (at most %d)", opt, max);
		return -E2BIG;
	}
	list[(*nr)++] = arg;
	return 0;
}

/* --tag KEY=VALUE */
static int add_tag(struct cli_common *o, const char *arg)
{
	if (!strchr(arg, '=') || arg[0] == '=') {
		diag_err("--tag expects KEY=VALUE, not '%s'", arg);
		return EXIT_USAGE;
	}
	return add_arg(o->tags, &o->nr_tags, CLI_MAX_ARGS, arg, "--tag") ? EXIT_USAGE : 0;
}

/* --quiet-warning NAME: one of the system check's names (syscheck.h), or a usage error. */
static int add_quiet(const char **quiet, int *nr, const char *arg)
{
	char near[64], names[512];

	if (syscheck_name_known(arg, near, sizeof(near)))
		return add_arg(quiet, nr, CLI_MAX_ARGS, arg, "--quiet-warning") ? EXIT_USAGE : 0;
	if (near[0]) {
		diag_err("--quiet-warning: unknown warning '%s' (did you mean '%s'?)", arg, near);
		return EXIT_USAGE;
	}
	names[0] = '\0';
	for (int i = 0, n = 0; syscheck_names[i] && n < (int)sizeof(names); i++)
		n += snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
			      syscheck_names[i]);
	diag_err("--quiet-warning: unknown warning '%s' (one of: %s)", arg, names);
	return EXIT_USAGE;
}

int cli_common_opt(int opt, const char *arg, struct cli_common *o)
{
	switch (opt) {
	case 'o':
		o->outdir = arg;
		return 0;
	case 't':
		return add_tag(o, arg);
	}
	return CLI_OPT_NOT_MINE;
}

int cli_spec_opt(int opt, const char *arg, struct cli_spec *o)
{
	switch (opt) {
	case 's':
		return add_arg(o->sets, &o->nr_sets, CLI_MAX_ARGS, arg, "--set") ? EXIT_USAGE : 0;
	case 'q':
		o->quick = true;
		return 0;
	case OPT_KERNEL:
		return add_arg(o->kernels, &o->nr_kernels, MAX_KERNELS, arg, "--kernel") ?
		       EXIT_USAGE : 0;
	case 'w':
	case 'd':
	case 'p':
	case 'c':
	case 'a':
	case OPT_PROFILE:
		return adhoc_shorthand(o, opt, arg) ? EXIT_USAGE : 0;
	case OPT_SAVE_SPEC:
		o->save_spec = arg;
		return 0;
	}
	return CLI_OPT_NOT_MINE;
}

/* --plot-timeout: whole seconds, 1 to a day. */
static int parse_plot_timeout(const char *arg, struct cli_draw *o)
{
	char *end;
	unsigned long s;

	errno = 0;
	s = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || s < 1 || s > 86400) {
		diag_err("--plot-timeout expects whole seconds from 1 to 86400, not '%s'", arg);
		return EXIT_USAGE;
	}
	o->plot_timeout_s = s;
	return 0;
}

int cli_draw_opt(int opt, const char *arg, struct cli_draw *o)
{
	switch (opt) {
	case 'f':
		return out_format_parse(arg, &o->format) ? EXIT_USAGE : 0;
	case OPT_NO_PLOTS:
		o->no_plots = true;
		return 0;
	case OPT_HTML:
		o->html = true;
		return 0;
	case OPT_NO_HTML:
		o->no_html = true;
		return 0;
	case OPT_PLOT_TIMEOUT:
		return parse_plot_timeout(arg, o);
	case OPT_BY:
		o->by = arg;
		return 0;
	}
	return CLI_OPT_NOT_MINE;
}

/* --shard I/N of run. */
static int parse_shard(const char *arg, struct shard *sh)
{
	char why[160];

	if (!shard_parse(arg, sh, why, sizeof(why)))
		return 0;
	diag_err("--shard %s", why);
	return EXIT_USAGE;
}

/* A sub-run's guest-accel setting: kvm, tcg or tcg-icount. */
static int guest_accel(const char *path, const char *arg, struct run_opts *o)
{
	if (strcmp(arg, "kvm") && strcmp(arg, "tcg") && strcmp(arg, "tcg-icount")) {
		diag_err("%s: guest-accel expects kvm, tcg or tcg-icount, not '%s'", path, arg);
		return EXIT_USAGE;
	}
	o->guest_accel = arg;
	return 0;
}

/*
 * A sub-run's settings of tags and quieted warnings, as their options; a
 * kernel's sub-run (guest-of) runs its points here, as --kernel host.
 */
static int settings_lists(const struct subrun_settings *set, struct run_opts *o)
{
	for (int i = 0; i < set->nr_tags; i++)
		if (add_tag(&o->com, set->tags[i]))
			return EXIT_USAGE;
	for (int i = 0; i < set->nr_quiet; i++)
		if (add_quiet(o->quiet, &o->nr_quiet, set->quiet[i]))
			return EXIT_USAGE;
	if (set->guest_of && add_arg(o->spec.kernels, &o->spec.nr_kernels, MAX_KERNELS,
				     KERNEL_HOST, "--kernel"))
		return EXIT_USAGE;
	return 0;
}

/*
 * run --subrun FILE: the settings a sub-run is started with (subrun.h),
 * taken as the options of the same names would be; guest-of, guest-accel,
 * guest-accel-reason and fail-all, a sub-run's own, come only from here.
 */
static int subrun_opt(const char *path, struct run_opts *o)
{
	struct subrun_settings set;
	char why[256];

	if (o->settings_text) {
		diag_err("--subrun given twice");
		return EXIT_USAGE;
	}
	if (subrun_settings_read(path, &set, &o->settings_text, why, sizeof(why))) {
		diag_err("%s: %s", path, why);
		return EXIT_USAGE;
	}
	o->spec.quick |= set.quick;
	o->spec.quick_keeps = set.quick_keeps ?: o->spec.quick_keeps;
	o->draw.no_plots |= set.no_plots;
	o->only = set.only ?: o->only;
	o->guest_of = set.guest_of ?: o->guest_of;
	o->guest_accel_reason = set.guest_accel_reason ?: o->guest_accel_reason;
	o->fail_all = set.fail_all ?: o->fail_all;
	o->gate = set.gate ?: o->gate;
	o->spec.gated = o->gate;
	if (set.place.name)
		o->place = set.place;
	if (set.shard.count)
		o->shard = set.shard;
	if (set.guest_accel && guest_accel(path, set.guest_accel, o))
		return EXIT_USAGE;
	return settings_lists(&set, o);
}

/* Which points run, of run and fleet: --resume, --only; and --quiet-warning. */
static int points_opt(int opt, const char *arg, const char **resume, const char **only,
		      const char **quiet, int *nr_quiet)
{
	if (opt == OPT_RESUME)
		*resume = arg;
	else if (opt == OPT_ONLY)
		*only = arg;
	else if (opt == OPT_QUIET_WARNING)
		return add_quiet(quiet, nr_quiet, arg);
	else
		return CLI_OPT_NOT_MINE;
	return 0;
}

/* Which points run, and a sub-run's settings: --subrun. */
int cli_run_opt(int opt, const char *arg, void *run_opts)
{
	struct run_opts *o = run_opts;

	switch (opt) {
	case OPT_SHARD:
		return parse_shard(arg, &o->shard);
	case OPT_SUBRUN:
		return subrun_opt(arg, o);
	}
	return points_opt(opt, arg, &o->resume, &o->only, o->quiet, &o->nr_quiet);
}

/* check's and expand's: --only. */
int cli_check_opt(int opt, const char *arg, void *check_opts)
{
	struct check_opts *o = check_opts;

	if (opt != OPT_ONLY)
		return CLI_OPT_NOT_MINE;
	o->only = arg;
	return 0;
}

/* report's and merge's: --set, --spec, --normalize, --per; report's --profile. */
int cli_report_opt(int opt, const char *arg, void *draw_cmd_opts)
{
	struct draw_cmd_opts *o = draw_cmd_opts;

	switch (opt) {
	case 's':
		return add_arg(o->sets, &o->nr_sets, CLI_MAX_ARGS, arg, "--set") ? EXIT_USAGE : 0;
	case OPT_SPEC:
		o->spec_file = arg;
		return 0;
	case OPT_NORMALIZE:
		if (strcmp(arg, "first")) {
			diag_err("--normalize expects 'first', not '%s'", arg);
			return EXIT_USAGE;
		}
		o->normalize = arg;
		return 0;
	case OPT_PER:
		o->per = arg;
		return 0;
	case OPT_PROFILE:
		o->profile = true;
		return 0;
	}
	return CLI_OPT_NOT_MINE;
}

int cli_import_opt(int opt, const char *arg, void *import_opts)
{
	struct import_opts *o = import_opts;

	if (opt != OPT_LABEL)
		return CLI_OPT_NOT_MINE;
	o->label = arg;
	return 0;
}

/*
 * The fleet's: --hosts, --ssh-config, --shard (no value), --shard-mixed, --resume, --only;
 * --engine and the Slurm machine's --partition, --constraint, --nodelist, --time-limit.
 */
int cli_fleet_opt(int opt, const char *arg, void *fleet_opts)
{
	struct fleet_opts *o = fleet_opts;

	switch (opt) {
	case OPT_HOSTS:
		o->hosts = arg;
		return 0;
	case OPT_SSH_CONFIG:
		o->ssh_config = arg;
		return 0;
	case OPT_SHARD_HOSTS:
		o->shard_hosts = true;
		return 0;
	case OPT_SHARD_MIXED:
		o->shard_mixed = true;
		return 0;
	case OPT_ENGINE:
		o->engine = arg;
		return 0;
	case OPT_PARTITION:
		o->partition = arg;
		return 0;
	case OPT_CONSTRAINT:
		o->constraint = arg;
		return 0;
	case OPT_NODELIST:
		o->nodelist = arg;
		return 0;
	case OPT_TIME_LIMIT:
		o->time_limit = arg;
		return 0;
	}
	return points_opt(opt, arg, &o->resume, &o->only, o->quiet, &o->nr_quiet);
}

/* bisect's: the ends and their terms, --kernel's images, --step, --allow-tcg, --resume, --only. */
int cli_bisect_opt(int opt, const char *arg, void *bisect_opts)
{
	struct bisect_opts *o = bisect_opts;

	switch (opt) {
	case OPT_OLD:
	case OPT_NEW:
		o->old_new = true;
		/* fall through */
	case OPT_GOOD:
	case OPT_BAD:
		*(opt == OPT_GOOD || opt == OPT_OLD ? &o->good : &o->bad) = arg;
		return 0;
	case OPT_STEP:
		o->step = arg;
		return 0;
	case OPT_ALLOW_TCG:
		o->allow_tcg = true;
		return 0;
	case OPT_KERNEL:
		return add_arg(o->kernels, &o->nr_kernels, CLI_MAX_BISECT_KERNELS, arg, "--kernel") ?
		       EXIT_USAGE : 0;
	case OPT_RESUME:
		o->resume = arg;
		return 0;
	case OPT_ONLY:
		o->only = arg;
		return 0;
	}
	return CLI_OPT_NOT_MINE;
}
