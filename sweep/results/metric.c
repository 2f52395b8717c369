// SPDX-License-Identifier: GPL-2.0
/*
 * The one formatter of metrics' numbers (metric.h), in the units of
 * metricdef.c's table.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "metric.h"

void metric_format(double v, const struct metric_unit *u, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f%s", u->decimals, v / u->div, u->name);
}

void metric_format_bare(double v, const struct metric_unit *u, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", u->decimals, v / u->div);
}

void metric_format_sd_n(double mean, double sd, int n, const struct metric_unit *u, char *buf,
			size_t len)
{
	size_t used;

	if (n != 1 || isnan(mean)) {
		metric_format_sd(mean, sd, u, buf, len);
		return;
	}
	/* stats.c's stddev of one sample is 0: no spread measured, not none */
	metric_format(mean, u, buf, len);
	used = strlen(buf);
	snprintf(buf + used, len - used, " ± n/a");
}

void metric_format_sd(double mean, double sd, const struct metric_unit *u, char *buf,
		      size_t len)
{
	/* a published number may come without its stddev: the mean alone, then */
	if (isnan(mean) || isnan(sd))
		metric_format(mean, u, buf, len);
	else
		snprintf(buf, len, "%.*f ± %.*f%s", u->decimals, mean / u->div, u->decimals,
			 sd / u->div, u->name);
}

/* The single number of stat st of s, or NaN when s summarizes nothing. */
static double stat_value(const struct summary *s, enum field_stat st)
{
	switch (st) {
	case FS_MEDIAN:
	case FS_WORKER_MEDIAN:
		return s->median;
	case FS_MIN:
	case FS_WORKER_MIN:
		return s->min;
	case FS_MAX:
	case FS_WORKER_MAX:
		return s->max;
	case FS_STDDEV:
		return s->stddev;
	case FS_CI95:
		return s->ci95;
	default:
		return s->mean;
	}
}

/* "+1000.0 ± 3.2ns", "0.500 ± 0.001x"; n/a without a baseline; the mean alone without an sd. */
static void format_vs_base(const struct metric_field *f, const struct view_row *r,
			   const struct view_row *base, char *buf, size_t len)
{
	struct baseline_delta d;
	bool ns = f->stat == FS_OVER_BASE_NS;
	double v, sd;

	baseline_of_row(r, base, f->metric, &d);
	v = ns ? d.over_ns : d.ratio;
	sd = ns ? d.over_ns_sd : d.ratio_sd;
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (isnan(sd))
		snprintf(buf, len, ns ? "%+.1fns" : "%.3fx", v);
	else
		snprintf(buf, len, ns ? "%+.1f ± %.1fns" : "%.3f ± %.3fx", v, sd);
}

void metric_field_format(const struct metric_field *f, const struct view_row *r,
			 const struct view_row *base, char *buf, size_t len)
{
	const struct summary *s = &r->stat[f->metric];
	double np = r->nr_producers;

	switch (f->stat) {
	case FS_OVER_BASE_NS:
	case FS_VS_BASE:
		format_vs_base(f, r, base, buf, len);
		break;
	case FS_MEAN_SD:
		/* one value by construction: "± 0" says nothing; a spread (varied) is shown */
		if (f->deterministic && s->stddev == 0)
			metric_format(s->mean, f->unit, buf, len);
		else
			metric_format_sd_n(s->mean, s->stddev, s->n, f->unit, buf, len);
		break;
	case FS_PER_WORKER:
		if (np > 0)
			metric_format_sd_n(s->mean / np, s->stddev / np, s->n, f->unit, buf, len);
		else
			metric_format(NAN, f->unit, buf, len);
		break;
	case FS_WORKER_MIN:
	case FS_WORKER_MEDIAN:
	case FS_WORKER_MAX:
	case FS_WORKER_MEAN:
		/* results without per-producer rates (imported ones) have none to show */
		metric_format(r->worker_rate.n > 0 ? stat_value(&r->worker_rate, f->stat) : NAN,
			      f->unit, buf, len);
		break;
	case FS_NS_PER:
		/* time per event of one producer: 1e9 / (mean rate / producers) */
		if (np > 0 && s->mean > 0)
			snprintf(buf, len, "%.2fns", 1e9 * np / s->mean);
		else
			snprintf(buf, len, "n/a");
		break;
	case FS_PER_PROD:
		metric_format_per_prod(s->mean, r->nr_producers, f->unit, buf, len);
		break;
	case FS_PER_RUN:
		metric_format_sd_n(r->per_run.n > 0 ? r->per_run.mean : NAN, r->per_run.stddev,
				   r->per_run.n, f->unit, buf, len);
		break;
	default:
		metric_format(stat_value(s, f->stat), f->unit, buf, len);
		break;
	}
}

void metric_format_per_prod(double mean, int nr_producers, const struct metric_unit *u,
			    char *buf, size_t len)
{
	/* "M/s" → "M": the rate's scale, then "/prod" in place of "/s" */
	int scale = strcspn(u->name, "/");

	if (nr_producers <= 0 || isnan(mean))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f%.*s/prod", u->decimals, mean / u->div / nr_producers,
			 scale, u->name);
}
