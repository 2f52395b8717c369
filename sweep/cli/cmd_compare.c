// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep compare BASE NEW [NEW...]: its options, then each NEW result
 * set against BASE (report/comparerun.h: built by compare_build.c, printed
 * by compare_print.c or htmlcompare.c, gated by compare_gate.c).
 * Exit 1 when --fail-above finds a regression, 3 when it cannot pass every
 * point, 2 for usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliopt.h"
#include "cmd_compare.h"
#include "compare_build.h"
#include "comparerun.h"
#include "diag.h"
#include "opterr.h"

struct compare_opts {
	struct compare_rule rule;	/* alpha, the "same" bound, --ignore, --allow-tcg */
	enum out_format fmt;
	const char *fmt_arg;	/* as given: what an error names */
	double fail_above;	/* percent; < 0: not given */
	const char *ignore[CLI_MAX_ARGS];	/* --ignore PARAM: not part of the match */
	const char *pick[CLI_MAX_ARGS];		/* -e METRIC,...: the metrics printed */
	bool paired;		/* --paired: BASE NEW of each round, NEW / BASE over them */
	bool profile;		/* --profile: per point, the symbols whose share moved */
	bool html;		/* --html: one HTML page (htmlcompare.h) instead of -f */
};

/* --help: the usage, then the options' items from cliopt.c's table. */
static void compare_usage(FILE *f)
{
	fputs("usage: bpfsweep compare BASE NEW [NEW...] [OPTIONS]\n"
	      "       bpfsweep compare --paired BASE NEW [BASE NEW...] [OPTIONS]\n"
	      "       bpfsweep compare OUT [OPTIONS]   (kernels run with decide: their rounds'\n"
	      "                                        decisions, docs/kernel.md)\n"
	      "compare result directories point by point: per metric Δ%, its interval, and\n"
	      "a decision: faster/slower, same (no change beyond ±bound) or undecided\n\n", f);
	cliopt_help(f, CMD_COMPARE);
	fputs("\nexit status: 0 done, 1 a regression beyond --fail-above, 2 usage error,\n"
	      "3 --fail-above could not pass every point (untested, flagged or undecided)\n"
	      "details: docs/compare.md\n", f);
}

/* A number in (0, 1) for --alpha, [0, inf) for --fail-above, or -EINVAL. */
static int parse_number(const char *arg, const char *opt, bool level, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !(level ? *v > 0 && *v < 1 : *v >= 0 && *v < INFINITY)) {
		diag_err("%s expects %s, not '%s'", opt, level ? "a level between 0 and 1 (0.05)" :
			 "a percentage (5 for 5%)", arg);
		return -EINVAL;
	}
	return 0;
}

static int add_ignore(struct compare_opts *o, const char *param)
{
	if (o->rule.nr_ignore == CLI_MAX_ARGS) {
		diag_err("too many --ignore options (at most %d)", CLI_MAX_ARGS);
		return -E2BIG;
	}
	o->ignore[o->rule.nr_ignore++] = param;
	return 0;
}

/* -e's list, checked against the sets' metrics once they are read (compare_pick_metrics()). */
static int add_pick(struct compare_opts *o, const char *list)
{
	if (o->rule.nr_pick == CLI_MAX_ARGS) {
		diag_err("too many -e options (at most %d)", CLI_MAX_ARGS);
		return -E2BIG;
	}
	o->pick[o->rule.nr_pick++] = list;
	return 0;
}

/* --paired: no --fail-above (its gate is for two sets), text or csv, pairs of sets. */
static int check_paired(const struct compare_opts *o, int nr_dirs)
{
	if (!o->paired)
		return 0;
	if (nr_dirs % 2) {
		diag_err("--paired takes BASE NEW of each round: an even number of directories");
		return -EINVAL;
	}
	if (o->fail_above >= 0) {
		diag_err("--fail-above gates two sets, not --paired rounds");
		return -EINVAL;
	}
	if ((o->fmt != OF_TEXT && o->fmt != OF_CSV) || o->html) {
		diag_err("--paired takes text or csv, not %s", o->html ? "--html" : o->fmt_arg);
		return -EINVAL;
	}
	return 0;
}

/* --profile prints text, after the table of sets compared point by point. */
static int check_profile(const struct compare_opts *o)
{
	if (o->profile && (o->paired || o->html || o->fmt != OF_TEXT)) {
		diag_err("--profile prints text: not with --paired or --html");
		return -EINVAL;
	}
	return 0;
}

/* -e picks the rows of the four formats; --paired's rounds and the HTML page show all. */
static int check_pick(const struct compare_opts *o)
{
	if (o->rule.nr_pick && (o->paired || o->html)) {
		diag_err("-e picks what text, markdown, csv and json print: not with %s",
			 o->paired ? "--paired" : "--html");
		return -EINVAL;
	}
	return 0;
}

/* Option opt of o, its value arg: 0, or -EINVAL said. */
static int take_opt(struct compare_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'a':
		return parse_number(arg, "--alpha", true, &o->rule.alpha);
	case OPT_DECIDE:
		return parse_number(arg, "--decide", false, &o->rule.bound_pct);
	case 'f':
		o->fmt_arg = arg;
		return out_format_parse(arg, &o->fmt);
	case OPT_FAIL_ABOVE:
		return parse_number(arg, "--fail-above", false, &o->fail_above);
	case 'i':
		return add_ignore(o, arg);
	case 'e':
		return add_pick(o, arg);
	case OPT_ALLOW_TCG:
		o->rule.allow_tcg = true;
		return 0;
	case OPT_PAIRED:
		o->paired = true;
		return 0;
	case OPT_PROFILE:
		o->profile = true;
		return 0;
	case OPT_ALL_PROGRAMS:
		o->rule.all_programs = true;
		return 0;
	default:	/* OPT_HTML: getopt passes only the table's options */
		o->html = true;
		return 0;
	}
}

/* What getopt did not take: --help (exit 0), or one line and a pointer to --help. */
static int final_opt(int opt, char **argv, const struct cli_getopt *g)
{
	if (opt == 'h') {
		compare_usage(stdout);
		return EXIT_OK;
	}
	/* another command's option: its name, not "unknown" and a guess */
	if (cliopt_misplaced(CMD_COMPARE, opt, argv))
		opt_hint("bpfsweep compare");
	else
		opt_error(opt, argv, g->longopts, "bpfsweep compare");
	return EXIT_USAGE;
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct compare_opts *o)
{
	struct cli_getopt g;
	int opt, err = 0;

	*o = (struct compare_opts){ .rule = { .alpha = 0.05, .bound_pct = 2, .ignore = o->ignore,
					      .pick = o->pick },
				    .fmt = OF_TEXT, .fail_above = -1 };
	cliopt_getopt(CMD_COMPARE, &g);
	while (!err && (opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (opt == 'h' || opt == '?' || opt == ':')
			return final_opt(opt, argv, &g);
		err = take_opt(o, opt, optarg);
	}
	/* a bad value or pair of options is said in its one line, as run says it */
	if (err)
		return EXIT_USAGE;
	/* one directory: a sweep over kernels that ran in rounds (compare_rounds.h) */
	if (argc - optind < 2 && (argc - optind < 1 || o->paired)) {
		diag_err("compare needs BASE and at least one NEW result directory");
		compare_usage(stderr);
		return EXIT_USAGE;
	}
	if (check_paired(o, argc - optind) || check_profile(o) || check_pick(o))
		return EXIT_USAGE;
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct compare_request rq;
	int status = parse_args(argc, argv, &o);
	bool stdout_failed;

	if (status >= 0)
		return status;
	rq = (struct compare_request){ .rule = o.rule, .fmt = o.fmt, .fail_above = o.fail_above,
				       .paired = o.paired, .profile = o.profile, .html = o.html };
	status = compare_run(&rq, (const char *const *)argv + optind, argc - optind,
			     &stdout_failed);
	if (stdout_failed)
		cli_stdout_failure_said();
	return status;
}