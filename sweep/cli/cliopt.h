/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of the commands main.c parses, and of vm and compare,
 * which parse their own operands: one table, a row per option and
 * meaning, naming the commands that take it.  Each command's getopt
 * table, its --help items and the error
 * for an option that belongs to other commands all come from those rows,
 * so that what a command accepts and what its help lists cannot differ;
 * tests/cli/options.sh holds completions/bpfsweep.bash to the help.
 */
#ifndef SWEEP_CLIOPT_H
#define SWEEP_CLIOPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

enum cli_cmd {
	CMD_RUN,	/* also "bpfsweep SPEC" */
	CMD_CHECK,
	CMD_EXPAND,
	CMD_LIST,
	CMD_REPORT,
	CMD_MERGE,
	CMD_IMPORT,
	CMD_FLEET,
	CMD_SYSTEM,
	CMD_VM,		/* its options stop at KERNEL: COMMAND's are COMMAND's */
	CMD_BISECT,
	CMD_COMPARE,	/* cmd_compare.c parses, with this table */
	NR_CLI_CMDS
};

/* getopt's values of the options without a letter */
enum {
	OPT_NO_PLOTS = 256, OPT_PLOT_TIMEOUT, OPT_RESUME, OPT_ONLY, OPT_LABEL, OPT_SPEC, OPT_BY,
	OPT_NORMALIZE, OPT_PER, OPT_KERNEL,
	OPT_SAVE_SPEC, OPT_HOSTS, OPT_SSH_CONFIG,
	OPT_SHARD,		/* run --shard I/N */
	OPT_SHARD_HOSTS,	/* fleet --shard: no value, host k of n runs k/n */
	OPT_SHARD_MIXED,
	OPT_SUBRUN,		/* run --subrun FILE: a sub-run's settings (subrun.h) */
	OPT_PROFILE,		/* --profile: --set profile=on */
	OPT_HTML,		/* report --html: the page of DIR (htmlpage.h) */
	OPT_NO_HTML,		/* run --no-html: no report.html at its end */
	OPT_QUIET_WARNING,	/* run, fleet --quiet-warning NAME: a system check's */
	OPT_PROBE_ACCEL,	/* vm --probe-accel */
	OPT_ENGINE,		/* fleet --engine ssh|slurm */
	OPT_PARTITION, OPT_CONSTRAINT, OPT_NODELIST, OPT_TIME_LIMIT,	/* fleet's Slurm machine */
	OPT_GOOD, OPT_BAD,	/* bisect --good, --bad (and --old, --new: OPT_OLD, OPT_NEW) */
	OPT_OLD, OPT_NEW,
	OPT_STEP,		/* bisect --step IMAGE: git bisect run's predicate */
	OPT_ALLOW_TCG,		/* bisect --allow-tcg */
	OPT_DECIDE, OPT_FAIL_ABOVE, OPT_PAIRED,	/* compare's (its --allow-tcg: OPT_ALLOW_TCG) */
	OPT_ALL_PROGRAMS,	/* compare --all-programs */
};

struct cli_option {
	const char *name;	/* the long name, without "--" */
	int val;		/* its letter, or an OPT_* above */
	int has_arg;		/* no_argument or required_argument */
	unsigned int cmds;	/* bit 1 << CMD_* of each command that takes it */
	const char *help;	/* its --help item, "  -o, --output DIR  ...\n"; NULL: hidden */
};

extern const struct cli_option cli_options[];
extern const int nr_cli_options;
extern const char *const cli_cmd_names[NR_CLI_CMDS];

#define CLI_MAX_OPTIONS 96

/* One command's getopt_long() arguments. */
struct cli_getopt {
	struct option longopts[CLI_MAX_OPTIONS + 1];
	char shortopts[2 * CLI_MAX_OPTIONS + 3];	/* '+' (vm), ':': errors are ours */
};

void cliopt_getopt(enum cli_cmd c, struct cli_getopt *g);

/* The --help items of command c's options, in table order. */
void cliopt_help(FILE *f, enum cli_cmd c);

/*
 * After getopt_long() returned opt for command c: when it rejected a word
 * that is another command's option, say so ("--hosts applies to fleet,
 * not to report") and return true; false for anything else, which is
 * opt_error()'s to explain.  Uses optind and optopt as getopt left them.
 */
bool cliopt_misplaced(enum cli_cmd c, int opt, char *const *argv);

#endif
