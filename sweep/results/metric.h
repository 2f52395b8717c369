/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one formatter of a metric's numbers, in the display units of
 * metricdef.h.  Tables, progress lines, charts and compare show numbers
 * through these, so a unit is chosen in one place.
 */
#ifndef SWEEP_METRIC_H
#define SWEEP_METRIC_H

#include <stddef.h>

#include "metricdef.h"
#include "result.h"
#include "viewtypes.h"

/* "191.92k/s": v (a rate or bytes) in unit u; "n/a" when v is NaN. */
void metric_format(double v, const struct metric_unit *u, char *buf, size_t len);

/*
 * "191.92": v in unit u without the unit's name, for a number the unit
 * follows once ("14.970 → 10.319M/s"); "n/a" when v is NaN.
 */
void metric_format_bare(double v, const struct metric_unit *u, char *buf, size_t len);

/*
 * "191.92 ± 0.07k/s": mean ± stddev in unit u; "n/a" when the mean is NaN,
 * the mean alone when only the stddev is.
 */
void metric_format_sd(double mean, double sd, const struct metric_unit *u, char *buf,
		      size_t len);

/*
 * metric_format_sd() of a summary over n samples: "191.92k/s ± n/a" when
 * n is 1 (one sample has no spread; stats.c's stddev of it is 0); n 0 is
 * a published number, whose stddev may be unknown.
 */
void metric_format_sd_n(double mean, double sd, int n, const struct metric_unit *u, char *buf,
			size_t len);


/*
 * Field f of the ok point r, as the table shows it; "n/a" when unknown.
 * base is r's baseline row (baseline_find_row()), or NULL: the baseline
 * fields are then n/a.
 */
void metric_field_format(const struct metric_field *f, const struct view_row *r,
			 const struct view_row *base, char *buf, size_t len);

/*
 * "3.742M/prod": a counter's mean rate divided among the point's producers
 * in unit u, as the kernel bench's Summary line shows it; "n/a" without
 * producers.
 */
void metric_format_per_prod(double mean, int nr_producers, const struct metric_unit *u,
			    char *buf, size_t len);

#endif
