/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What getopt_long() rejected, said in one line and a pointer to --help
 * instead of the whole usage: the nearest long option to a misspelt one,
 * the option that lacks its value, the one that takes none.
 *
 * Callers pass an optstring starting with ':' (after a '+', if any), so
 * that getopt prints nothing itself and returns ':' for a missing value.
 */
#ifndef SWEEP_OPTERR_H
#define SWEEP_OPTERR_H

#include <getopt.h>

/*
 * Report the error getopt_long() just returned (opt is '?' or ':'),
 * using optind and optopt as it left them.  cmd is the command line to
 * ask for help, e.g. "bpfsweep check".
 */
void opt_error(int opt, char *const *argv, const struct option *longopts, const char *cmd);

/* The line after an option's error: "try 'bpfsweep check --help' for the options". */
void opt_hint(const char *cmd);

/* The nearest long option to name (without its dashes), or NULL. */
const char *opt_suggest(const char *name, const struct option *longopts);

#endif
