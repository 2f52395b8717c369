/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers of a result set read back, checked before any reader uses
 * them (docs/results.md "Reading back"): counts, lengths and indexes are
 * whole numbers from 0 to INT64_MAX, warmup 0 or 1, statistics finite
 * numbers, the metrics of the two files the same, and a summary row's n
 * the measured rows its point has in samples.csv.  A cell that is not is
 * refused with where it is, "DIR/samples.csv:12:7: ...": its line and its
 * column (the field, 1-based).  report, compare, merge and --resume all
 * read through results_read(), so all refuse a file alike.
 */
#ifndef SWEEP_RESULTS_CHECK_H
#define SWEEP_RESULTS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "results_read.h"

/* Every cell of both CSVs, and their headers' metrics: 0 or -EINVAL with why. */
int results_check_cells(const struct result_set *rs, const char *dir, char *why, size_t whylen);

/* Each summary row's n against its point's measured sample rows: 0 or -EINVAL. */
int results_check_points(const struct result_set *rs, const char *dir, char *why,
			 size_t whylen);

/* Is s a whole number from 0 to INT64_MAX, digits only?  Its value in *v. */
bool results_count(const char *s, long long *v);

#endif
