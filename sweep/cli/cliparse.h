/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An option's value into the options of the command that took it
 * (cli.h): a handler per group of options that several commands share
 * (common, spec, draw) and one per command for its own.  getopt_long()
 * has already refused what is not the command's (cliopt.c's table), so a
 * handler takes its options whichever command it is.  Each returns 0,
 * EXIT_USAGE (said on stderr), or CLI_OPT_NOT_MINE for an option that is
 * not its group's.
 */
#ifndef SWEEP_CLIPARSE_H
#define SWEEP_CLIPARSE_H

#include "cli.h"

#define CLI_OPT_NOT_MINE	(-1)

/* -o, --tag */
int cli_common_opt(int opt, const char *arg, struct cli_common *o);
/* --set, --quick, --kernel, the bench's shorthands, --save-spec */
int cli_spec_opt(int opt, const char *arg, struct cli_spec *o);
/* -f, --no-plots, --plot-timeout, --by */
int cli_draw_opt(int opt, const char *arg, struct cli_draw *o);

/* Each command's own; o is its struct (cli.h). */
int cli_run_opt(int opt, const char *arg, void *run_opts);
int cli_report_opt(int opt, const char *arg, void *draw_cmd_opts);
int cli_check_opt(int opt, const char *arg, void *check_opts);
int cli_import_opt(int opt, const char *arg, void *import_opts);
int cli_fleet_opt(int opt, const char *arg, void *fleet_opts);
int cli_bisect_opt(int opt, const char *arg, void *bisect_opts);

#endif
