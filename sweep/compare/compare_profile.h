/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare --profile BASE NEW: per point both sets ran, the symbols whose
 * self share of the point's profile moved most, read from each set's
 * profiles/ (profiles.h) and tested by profilediff.h.  docs/profile.md.
 */
#ifndef SWEEP_COMPARE_PROFILE_H
#define SWEEP_COMPARE_PROFILE_H

#include <stdio.h>

#include "compare_print.h"

/* The symbols shown per point. */
#define PROFILE_MOVES	6

/*
 * After the comparisons' table, as text: for each of cs[0..nr) and each
 * point matched in both sets, the PROFILE_MOVES largest moves, "(?)"
 * where the samples are too few to tell (alpha: the test's level), or
 * which side has no profile.  0 or -errno (a profile that does not parse
 * is warned about and its point left out).
 */
int compare_profiles_print(FILE *f, const struct comparison *cs, int nr, double alpha);

#endif
