/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --profile: under each row of the printed table, the top kernel
 * symbols of the row's point, summed over its repetitions' profiles
 * (profiles.h): the share of all samples each had as the leaf.
 *
 *   size 4096 batch 64    3.451 ± 0.021M/s
 *                         profile: 297 samples of 3 repetitions, self share
 *                          44.4%  csum_partial
 *                          12.1%  bpf_csum_diff
 *
 * Printed only where the table is echoed (stdout): table.txt stays the
 * cover-letter table, and a report of the directory without --profile
 * writes the same table.txt as with it.
 */
#ifndef SWEEP_PROFILEROWS_H
#define SWEEP_PROFILEROWS_H

#include <stdio.h>

#include "viewtypes.h"

/* The symbols shown under a row, and how wide their names may be. */
#define PROFILE_ROW_SYMBOLS	4
#define PROFILE_ROW_NAME_WIDTH	48

struct profile_rows;

/*
 * Make each of views[0..nr) (of the runs in dirs[0..nr)) print its rows'
 * profiles when its table goes to echo; a warning for each directory
 * without profiles/.  NULL (nothing attached) when out of memory.
 * Free with profile_rows_free() after the last table is printed.
 */
struct profile_rows *profile_rows_attach(struct result_view *const *views,
					 const char *const *dirs, int nr, FILE *echo);

void profile_rows_free(struct profile_rows *pr);

#endif
