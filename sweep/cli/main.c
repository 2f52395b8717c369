// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep: sweep BPF benchmarks over the parameters a spec file lists.
 * The command table and option parsing, and the wiring of check, expand
 * and list (what they print: run/planshow.h, workloads/wl_list.h).  The
 * run command's wiring is in cmd_run.c.
 */
#define _GNU_SOURCE	/* close_range */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "bind.h"
#include "cli.h"
#include "cliopt.h"
#include "cliparse.h"
#include "cmd_compare.h"
#include "cmd_vm.h"
#include "diag.h"
#include "opterr.h"
#include "plan.h"
#include "planshow.h"
#include "pointsel.h"
#include "procguard.h"
#include "shquote.h"
#include "spec.h"
#include "specfind.h"
#include "termsafe.h"
#include "version.h"
#include "vminit.h"
#include "wl_list.h"

/* The options of every command that main.c parses, one at a time. */
union cmd_opts {
	struct cli_common com;		/* first in each: list's and system's alone */
	struct check_opts check;
	struct run_opts run;
	struct draw_cmd_opts draw;
	struct import_opts import;
	struct fleet_opts fleet;
	struct bisect_opts bisect;
};

struct cmd {
	const char *name;
	enum cli_cmd id;	/* its options (cliopt.c); unused with own_args */
	int (*fn)(union cmd_opts *o);
	/* its own options (cliparse.h), or NULL */
	int (*opt)(int opt, const char *arg, void *o);
	/* where in its options its struct cli_spec and struct cli_draw are; 0: none */
	size_t spec_at, draw_at;
	bool needs_spec;
	const char *usage;
	const char *help;
	bool many_args;		/* FILE... or DIR...: positional arguments into o->com.args */
	const char *operand;	/* what they are: "FILE", "DIR" */
	int (*own_args)(int argc, char **argv);	/* parses its own arguments instead */
	bool spec_arg;		/* SPEC: a file, a workload (ad hoc) or an installed spec */
	/* the status of a usage error of these arguments; NULL: EXIT_USAGE */
	int (*usage_status)(int argc, char *const *argv);
};

/*
 * The plan of o's spec: points validated (spec errors exit 2), what those
 * of experiment only (NULL: all) need of this machine's files there (a
 * missing program exits 2 as run would), and probed where the privileges
 * allow.  Returns an exit status, or -1 to go on.
 */
static int load_plan(const struct cli_spec *o, const char *only, struct spec **spec,
		     struct sweep_cfg **cfg, struct plan *pl)
{
	int err;

	if (cli_load(o, spec, cfg))
		return EXIT_USAGE;
	err = plan_build(*cfg, pl);
	if (!err && !only_check(*cfg, only))
		err = plan_preflight(*cfg, pl, only);
	if (!err)
		err = plan_probe(*cfg, pl);
	if (!err)
		return -1;
	plan_free(pl);
	sweep_cfg_free(*cfg);
	spec_free(*spec);
	return EXIT_USAGE;
}

static void free_plan(struct plan *pl, struct sweep_cfg *cfg, struct spec *spec,
		      struct point *pts)
{
	free(pts);
	plan_free(pl);
	sweep_cfg_free(cfg);
	spec_free(spec);
}

static int cmd_check(union cmd_opts *u)
{
	const struct cli_spec *o = &u->check.spec;
	struct sweep_cfg *cfg;
	struct spec *spec;
	struct point *pts;
	struct plan pl;
	int status = load_plan(o, u->check.only, &spec, &cfg, &pl), nr;

	if (status >= 0)
		return status;
	nr = only_points(cfg, &pl, u->check.only, &pts);
	if (nr < 0) {
		free_plan(&pl, cfg, spec, pts);
		return EXIT_USAGE;
	}
	term_put(stdout, o->spec_path, strlen(o->spec_path));
	printf(": ok: workload %s, %d experiment%s, %d point%s", cfg->wl->name, cfg->nr_exps,
	       cfg->nr_exps == 1 ? "" : "s", pl.nr_pts, pl.nr_pts == 1 ? "" : "s");
	if (u->check.only)
		printf(", %d of them in '%s'", nr, u->check.only);
	printf("\n");
	plan_show_kernels(stdout, &cfg->kernels, nr);
	plan_report(stdout, &pl, pts, nr);
	free_plan(&pl, cfg, spec, pts);
	return EXIT_OK;
}

static int cmd_expand(union cmd_opts *u)
{
	struct sweep_cfg *cfg;
	struct spec *spec;
	struct plan pl;
	struct point *pts;
	int status = load_plan(&u->check.spec, u->check.only, &spec, &cfg, &pl), nr;

	if (status >= 0)
		return status;
	nr = only_points(cfg, &pl, u->check.only, &pts);
	if (nr < 0) {
		free_plan(&pl, cfg, spec, pts);
		return EXIT_USAGE;
	}
	plan_show_points(stdout, cfg, &pl, pts, nr);
	plan_show_kernels(stdout, &cfg->kernels, nr);
	plan_report(stdout, &pl, pts, nr);
	plan_show_time(stdout, cfg, &pl, pts, nr);
	free_plan(&pl, cfg, spec, pts);
	return EXIT_OK;
}

static int cmd_list(union cmd_opts *u)
{
	return wl_list(u->com.nr_args ? u->com.args[0] : NULL) ? EXIT_USAGE : EXIT_OK;
}

/* The commands of other files, each with its own options. */
static int run_main(union cmd_opts *u)
{
	return cmd_run(&u->run);
}

static int report_main(union cmd_opts *u)
{
	return cmd_report(&u->draw);
}

static int merge_main(union cmd_opts *u)
{
	return cmd_merge(&u->draw);
}

static int import_main(union cmd_opts *u)
{
	return cmd_import(&u->import);
}

static int fleet_main(union cmd_opts *u)
{
	return cmd_fleet(&u->fleet);
}

static int bisect_main(union cmd_opts *u)
{
	return cmd_bisect(&u->bisect);
}

static int system_main(union cmd_opts *u)
{
	return cmd_system(u->com.nr_args ? u->com.args[0] : NULL);
}

#define AT(type, group)	offsetof(struct type, group)

static const struct cmd cmds[] = {
	{ .name = "run", .id = CMD_RUN, .fn = run_main, .opt = cli_run_opt,
	  .spec_at = AT(run_opts, spec), .draw_at = AT(run_opts, draw), .needs_spec = true,
	  .spec_arg = true, .usage = "run SPEC|WORKLOAD [OPTIONS]",
	  .help = "run the sweep: samples.csv, summary.csv, table.txt, plots/ and meta" },
	{ .name = "check", .id = CMD_CHECK, .fn = cmd_check, .opt = cli_check_opt,
	  .spec_at = AT(check_opts, spec),
	  .needs_spec = true, .spec_arg = true, .usage = "check SPEC|WORKLOAD [OPTIONS]",
	  .help = "validate a spec, run nothing" },
	{ .name = "expand", .id = CMD_EXPAND, .fn = cmd_expand, .opt = cli_check_opt,
	  .spec_at = AT(check_opts, spec),
	  .needs_spec = true, .spec_arg = true, .usage = "expand SPEC|WORKLOAD [OPTIONS]",
	  .help = "list the points and the estimated time, run nothing" },
	{ .name = "list", .id = CMD_LIST, .fn = cmd_list, .usage = "list [WORKLOAD]",
	  .help = "workloads and their parameters" },
	{ .name = "report", .id = CMD_REPORT, .fn = report_main, .opt = cli_report_opt,
	  .draw_at = AT(draw_cmd_opts, draw), .needs_spec = true, .many_args = true,
	  .operand = "DIR", .usage = "report DIR... [OPTIONS]",
	  .help = "table and charts of result directories again, from their files" },
	{ .name = "compare", .own_args = cmd_compare, .usage = "compare BASE NEW...",
	  .help = "Δ% and significance per point of result directories" },
	{ .name = "merge", .id = CMD_MERGE, .fn = merge_main, .opt = cli_report_opt,
	  .draw_at = AT(draw_cmd_opts, draw), .needs_spec = true, .many_args = true,
	  .operand = "DIR", .usage = "merge DIR... -o OUT",
	  .help = "one result set of several runs" },
	{ .name = "import", .id = CMD_IMPORT, .fn = import_main, .opt = cli_import_opt,
	  .many_args = true, .operand = "FILE", .usage = "import FILE... -o OUT",
	  .help = "bench text output into a result directory (docs/import.md)" },
	{ .name = "fleet", .id = CMD_FLEET, .fn = fleet_main, .opt = cli_fleet_opt,
	  .spec_at = AT(fleet_opts, spec), .draw_at = AT(fleet_opts, draw), .needs_spec = true,
	  .usage = "fleet SPEC --hosts FILE",
	  .help = "the spec on every host of FILE over ssh or Slurm, merged (docs/fleet.md)" },
	{ .name = "bisect", .id = CMD_BISECT, .fn = bisect_main, .opt = cli_bisect_opt,
	  .spec_at = AT(bisect_opts, spec), .needs_spec = true, .spec_arg = true,
	  .usage_status = cmd_bisect_usage_status, .usage = "bisect SPEC --good K1 --bad K2",
	  .help = "the first kernel where a point's status or number changed (docs/kernel.md)" },
	{ .name = "system", .id = CMD_SYSTEM, .fn = system_main, .usage = "system [show]",
	  .help = "what on this machine will distort the numbers, and what to do "
		  "(docs/system.md)" },
	{ .name = "vm", .own_args = cmd_vm, .usage = "vm KERNEL -- CMD...",
	  .help = "run one command on another kernel, in a VM (docs/kernel.md)" },
};

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void usage(FILE *f, const struct cmd *c)
{
	if (c) {
		fprintf(f, "usage: bpfsweep %s\n%s\n\n", c->usage, c->help);
		cliopt_help(f, c->id);
		return;
	}
	fprintf(f, "usage: bpfsweep SPEC [OPTIONS]       (same as: bpfsweep run SPEC)\n"
		   "       bpfsweep WORKLOAD [OPTIONS]   "
		   "(an ad hoc run: bpfsweep ringbuf -p 4 -d 5)\n"
		   "       bpfsweep COMMAND [ARGS]\n\n"
		   "SPEC is a spec file, or the name of an installed one: "
		   "bpfsweep ringbuf_overwrite\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-30s %s\n", cmds[i].usage, cmds[i].help);
	fprintf(f, "\noptions:\n");
	cliopt_help(f, CMD_RUN);
	fprintf(f, "\nexit status: 0 every point ok or unsupported, 1 some point failed,\n"
		   "2 usage or spec error, 130 interrupted (Ctrl-C), 128 + N stopped by signal N\n"
		   "spec syntax: docs/spec.md\n");
}

/* --help, --version and what getopt rejected: an exit status. */
static int final_opt(int opt, char **argv, const struct cmd *c, const struct cli_getopt *g)
{
	char cmd[64];

	if (opt == 'h') {
		usage(stdout, c);
		return EXIT_OK;
	}
	if (opt == 'V') {
		printf("bpfsweep %s (%s)\n", BPFSWEEP_VERSION, BPFSWEEP_GIT);
		return EXIT_OK;
	}
	snprintf(cmd, sizeof(cmd), "bpfsweep%s%s", c ? " " : "", c ? c->name : "");
	/* another command's option: its name, not "unknown" and a guess */
	if (cliopt_misplaced(c ? c->id : CMD_RUN, opt, argv))
		opt_hint(cmd);
	else
		opt_error(opt, argv, g->longopts, cmd);
	return EXIT_USAGE;
}

/* Option opt of command c into its options o: 0, EXIT_USAGE, or CLI_OPT_NOT_MINE. */
static int take_opt(const struct cmd *c, int opt, union cmd_opts *o)
{
	int status = c->opt ? c->opt(opt, optarg, o) : CLI_OPT_NOT_MINE;

	if (status == CLI_OPT_NOT_MINE)
		status = cli_common_opt(opt, optarg, &o->com);
	if (status == CLI_OPT_NOT_MINE && c->spec_at)
		status = cli_spec_opt(opt, optarg, (struct cli_spec *)((char *)o + c->spec_at));
	if (status == CLI_OPT_NOT_MINE && c->draw_at)
		status = cli_draw_opt(opt, optarg, (struct cli_draw *)((char *)o + c->draw_at));
	return status;
}

/*
 * Returns -1 to go on, or an exit status.  getopt_long() has already
 * refused an option that is not command c's (cliopt.c's table); what it
 * let through goes to c's own handler or one of the groups c has.  With
 * no command (bare), c is run, taking SPEC or WORKLOAD.
 */
static int parse_opts(int argc, char **argv, const struct cmd *c, bool bare, union cmd_opts *o)
{
	struct cli_getopt g;
	int opt, status;

	cliopt_getopt(c->id, &g);
	/* ':' first: errors are ours (opt_error), one line, not getopt's and the usage */
	while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		status = take_opt(c, opt, o);
		if (status == CLI_OPT_NOT_MINE)
			return final_opt(opt, argv, bare ? NULL : c, &g);
		if (status)
			return status;
	}
	return -1;
}

#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

/* Every command's name into names[NR_CMDS + 1], for a mistyped one given without a command. */
static const char *const *cmd_names(const char **names)
{
	for (size_t i = 0; i < NR_CMDS; i++)
		names[i] = cmds[i].name;
	names[NR_CMDS] = NULL;
	return names;
}

/* SPEC: a file, a workload (an ad hoc run) or an installed spec (specfind.h). */
static int resolve_spec(struct cli_spec *o, bool bare)
{
	const char *names[NR_CMDS + 1];
	int kind = specfind_resolve(o->spec_path, bare ? cmd_names(names) : NULL, o->found_spec,
				    sizeof(o->found_spec));

	if (kind < 0)
		return EXIT_USAGE;
	o->adhoc = kind == SPEC_ARG_WORKLOAD;
	if (kind == SPEC_ARG_INSTALLED)
		o->spec_path = o->found_spec;
	return -1;
}

/*
 * Positional arguments: exactly one SPEC into c's struct cli_spec, or
 * into o->com.args FILE..., DIR... or list's and system's one word.
 */
static int parse_positional(int argc, char **argv, const struct cmd *c, union cmd_opts *o,
			    bool bare)
{
	struct cli_spec *sp = c->spec_at ? (struct cli_spec *)((char *)o + c->spec_at) : NULL;
	int nr = argc - optind;

	if (nr > 1 && !c->many_args) {
		/* "bpfsweep chek SPEC": a first word that is nothing known says what it could be */
		if (bare && c->spec_arg) {
			sp->spec_path = argv[optind];
			if (resolve_spec(sp, bare) >= 0)
				return EXIT_USAGE;
		}
		diag_err("too many arguments: '%s' after '%s'", argv[optind + 1], argv[optind]);
		fprintf(stderr, "try 'bpfsweep %s --help' for the usage\n", c->name);
		return EXIT_USAGE;
	}
	if (c->needs_spec && nr == 0) {
		diag_err("missing %s argument", c->operand ?: "SPEC");
		usage(stderr, c);
		return EXIT_USAGE;
	}
	if (!sp) {
		o->com.args = (const char *const *)argv + optind;
		o->com.nr_args = nr;
		return -1;
	}
	sp->spec_path = argv[optind];
	return c->spec_arg ? resolve_spec(sp, bare) : -1;
}

static bool ran_run;		/* for finish_stdout() */

/*
 * The command argv names, its options parsed into the zeroed *o: an exit
 * status; *usage: what a usage error exits with (bisect --step's 128).
 */
static int parse_and_run(int argc, char **argv, union cmd_opts *o, int *usage)
{
	const struct cmd *c = NULL;
	bool bare;
	int status;

	shquote_line((const char *const *)argv, argc, o->com.argv_line, sizeof(o->com.argv_line));
	if (argc > 1 && argv[1][0] != '-')
		c = find_cmd(argv[1]);
	if (c) {
		argv++;
		argc--;
		if (c->own_args)
			return c->own_args(argc, argv);
	}
	/* not a command: run's SPEC or WORKLOAD, resolved with the others (specfind.h) */
	bare = !c;
	if (!c)
		c = find_cmd("run");
	if (c->usage_status)
		*usage = c->usage_status(argc, argv);
	status = parse_opts(argc, argv, c, bare, o);
	if (status < 0) {
		ran_run = c->fn == run_main;
		status = parse_positional(argc, argv, c, o, bare);
	}
	if (status >= 0)
		return status == EXIT_USAGE ? *usage : status;
	return c->fn(o);
}

/* The command's options on the heap: the command's own, freed when it ends. */
static int run_command(int argc, char **argv, int *usage)
{
	union cmd_opts *o = calloc(1, sizeof(*o));
	int status;

	if (!o) {
		diag_err("out of memory");
		return *usage;
	}
	status = parse_and_run(argc, argv, o, usage);
	free(o);
	return status;
}

/*
 * A full disk must not pass for success: what the command printed is
 * checked once, here, as coreutils' close_stdout() does (a closed stdout
 * that was never written to is no error).  The status becomes at least 2,
 * or 1 for run, whose results are in files.
 */
static int finish_stdout(int status, int at_least)
{
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout);

	errno = 0;
	if (fclose(stdout) && (pending || errno != EBADF))
		failed = true;
	if (!failed)
		return status;
	/* said once, with its cause: a second line here would only say EIO, errno gone */
	if (!cli_stdout_failure_was_said())
		diag_err("cannot write to standard output: %s", strerror(errno ? errno : EIO));
	return status > at_least ? status : at_least;
}

int main(int argc, char **argv)
{
	int status, usage = EXIT_USAGE;

	/* booted as init of a kernel under test: the host's job is waiting */
	if (getpid() == 1)
		vminit_main();
	/*
	 * A descriptor inherited past stdio is for this process alone (a
	 * sub-run's OUT, subproc.h): none goes on to its own children.
	 */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	/* before any child: cgroups of dead runs go, and a guardian watches this one's */
	procguard_start();
	status = run_command(argc, argv, &usage);

	diag_finish();
	return finish_stdout(status, ran_run ? EXIT_POINTS_FAILED : usage);
}
