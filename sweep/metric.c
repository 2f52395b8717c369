// SPDX-License-Identifier: GPL-2.0
/*
 * Display units of metrics, the one table of scales, and the one
 * formatter of their numbers (metric.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "param.h"
#include "metric.h"
#include "suggest.h"

static const struct metric_unit units[] = {
	{ .name = "M/s", .kind = MK_COUNTER, .div = 1e6, .decimals = 3 },
	{ .name = "k/s", .kind = MK_COUNTER, .div = 1e3, .decimals = 2 },
	{ .name = "/s", .kind = MK_COUNTER, .div = 1, .decimals = 0 },
	/* prog_ns counts nanoseconds: its rate is ms of program time per second */
	{ .name = "ms/s", .kind = MK_COUNTER, .div = 1e6, .decimals = 3, .time = true },
	{ .name = "GiB", .kind = MK_GAUGE, .div = 1024.0 * 1024 * 1024, .decimals = 3 },
	{ .name = "MiB", .kind = MK_GAUGE, .div = 1024.0 * 1024, .decimals = 2 },
	{ .name = "KiB", .kind = MK_GAUGE, .div = 1024.0, .decimals = 2 },
	{ .name = "B", .kind = MK_GAUGE, .div = 1, .decimals = 0 },
};

#define NR_UNITS (sizeof(units) / sizeof(units[0]))

/* ns per program run: not a rate nor bytes, so no other field may ask for it */
static const struct metric_unit ns_unit = {
	.name = "ns", .kind = MK_COUNTER, .div = 1, .decimals = 1,
};

/* By enum field_stat. */
static const char *const stat_names[] = {
	"", "mean", "median", "min", "max", "stddev", "ci95", "per_worker",
	"worker_min", "worker_median", "worker_max", "worker_mean", "ns_per", "over_base_ns",
	"vs_base", "per_run", "per_prod", NULL,
};

static const char *const kind_units[] = {
	[MK_COUNTER] = "M/s, k/s or /s",
	[MK_GAUGE] = "GiB, MiB, KiB or B",
};

const struct metric_unit *metric_unit_find(const char *name, enum metric_kind kind)
{
	for (size_t i = 0; name && i < NR_UNITS; i++)
		if (units[i].kind == kind && !strcmp(units[i].name, name))
			return &units[i];
	return NULL;
}

const struct metric_unit *metric_default_unit(const struct metric_def *d)
{
	const struct metric_unit *u = metric_unit_find(d->unit, d->kind);

	if (u)
		return u;
	return metric_unit_find(d->kind == MK_GAUGE ? "MiB" : "M/s", d->kind);
}

void metric_format(double v, const struct metric_unit *u, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f%s", u->decimals, v / u->div, u->name);
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

static int word_index(const char *const *list, const char *w, size_t len)
{
	for (int i = 0; list[i]; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], w, len))
			return i;
	return -1;
}

static int parse_metric(const struct workload *wl, const char *w, size_t len, char *why,
			size_t whylen)
{
	char word[64], hint[640];
	struct suggest sg;

	if (!len) {
		snprintf(why, whylen, "missing metric: a field is {metric[.stat][:unit]}");
		return -1;
	}
	snprintf(word, sizeof(word), "%.*s", (int)len, w);
	suggest_init(&sg, word);
	for (int m = 0; m < wl->nr_metrics; m++) {
		if (strlen(wl->metrics[m].name) == len && !strncmp(wl->metrics[m].name, w, len))
			return m;
		suggest_add(&sg, wl->metrics[m].name);
	}
	snprintf(why, whylen, "unknown metric '%s' for workload '%s'%s", word, wl->name,
		 suggest_hint_or_list(&sg, hint, sizeof(hint)));
	return -1;
}

/* per_run is prog_ns's: its time divided by prog_runs' runs. */
static int parse_per_run(const struct workload *wl, int m, char *why, size_t whylen)
{
	if (wl->metrics[m].source == MS_PROG_NS)
		return FS_PER_RUN;
	snprintf(why, whylen, "statistic 'per_run' is of the kernel's program time (prog_ns), "
		 "and '%s' of workload '%s' is not it", wl->metrics[m].name, wl->name);
	return -1;
}

/* per_run's unit: ns, the only one it has. */
static const struct metric_unit *per_run_unit(const char *w, size_t len, char *why,
					      size_t whylen)
{
	if (!w || (len == 2 && !strncmp(w, "ns", 2)))
		return &ns_unit;
	snprintf(why, whylen, "unknown unit '%.*s' for per_run (use ns)", (int)len, w);
	return NULL;
}

static int parse_stat(const struct workload *wl, int m, const char *w, size_t len,
		      char *why, size_t whylen)
{
	char word[64], hint[160];
	int s = len ? word_index(stat_names, w, len) : -1;
	const char *best;

	snprintf(word, sizeof(word), "%.*s", (int)len, w);
	if (s < 0) {
		best = suggest_list(word, stat_names + 1);
		if (best)
			snprintf(why, whylen, "unknown statistic '%s'%s", word,
				 suggest_hint(hint, sizeof(hint), best));
		else
			snprintf(why, whylen, "unknown statistic '%s' (use mean, median, min, max, "
				 "stddev, ci95, per_worker, worker_min, worker_median, worker_max, "
				 "worker_mean, ns_per, over_base_ns, vs_base, per_run or per_prod)",
				 word);
		return -1;
	}
	if ((s == FS_NS_PER || s == FS_OVER_BASE_NS || s == FS_PER_PROD) &&
	    wl->metrics[m].kind != MK_COUNTER) {
		snprintf(why, whylen, "statistic '%s' is %s and needs a counter, "
			 "and '%s' of workload '%s' is a gauge", word,
			 s == FS_PER_PROD ? "a rate per producer" : "time per event",
			 wl->metrics[m].name, wl->name);
		return -1;
	}
	if (s == FS_PER_RUN)
		return parse_per_run(wl, m, why, whylen);
	if (s >= FS_PER_WORKER && s <= FS_WORKER_MEAN && !wl->metrics[m].per_thread) {
		snprintf(why, whylen, "statistic '%s' needs a per-thread metric, and '%s' of "
			 "workload '%s' is not one", word, wl->metrics[m].name, wl->name);
		return -1;
	}
	return s;
}

static const struct metric_unit *parse_unit(const struct metric_def *d, const char *w,
					    size_t len, char *why, size_t whylen)
{
	char word[64];
	const struct metric_unit *u;

	snprintf(word, sizeof(word), "%.*s", (int)len, w);
	u = metric_unit_find(word, d->kind);
	if (u && u->time && d->source != MS_PROG_NS) {
		snprintf(why, whylen, "unit '%s' is of time per second, and '%s' counts no time "
			 "(use %s)", word, d->name, kind_units[d->kind]);
		return NULL;
	}
	if (u)
		return u;
	if (metric_unit_find(word, d->kind == MK_GAUGE ? MK_COUNTER : MK_GAUGE))
		snprintf(why, whylen, "unit '%s' is for %s, and '%s' is a %s (use %s)", word,
			 d->kind == MK_GAUGE ? "rates" : "bytes", d->name,
			 d->kind == MK_GAUGE ? "gauge" : "counter", kind_units[d->kind]);
	else
		snprintf(why, whylen, "unknown unit '%s' for '%s' (use %s)", word, d->name,
			 kind_units[d->kind]);
	return NULL;
}

int metric_field_parse(const struct workload *wl, const char *text, size_t len,
		       struct metric_field *f, size_t *at, char *why, size_t whylen)
{
	const char *colon = memchr(text, ':', len);
	size_t name_len = colon ? (size_t)(colon - text) : len;
	const char *dot = memchr(text, '.', name_len);
	size_t m_len = dot ? (size_t)(dot - text) : name_len;

	*at = 0;
	f->metric = parse_metric(wl, text, m_len, why, whylen);
	if (f->metric < 0)
		return -EINVAL;
	f->stat = FS_MEAN_SD;
	if (dot) {
		int s;

		*at = dot + 1 - text;
		s = parse_stat(wl, f->metric, dot + 1, name_len - *at, why, whylen);
		if (s < 0)
			return -EINVAL;
		f->stat = s;
	}
	if (f->stat == FS_PER_RUN) {
		*at = colon ? (size_t)(colon + 1 - text) : 0;
		f->unit = per_run_unit(colon ? colon + 1 : NULL, len - *at, why, whylen);
		return f->unit ? 0 : -EINVAL;
	}
	f->unit = metric_default_unit(&wl->metrics[f->metric]);
	if (!colon)
		return 0;
	*at = colon + 1 - text;
	if (f->stat == FS_NS_PER || metric_field_needs_baseline(f)) {
		/* ns and a ratio have one scale each: a unit would say something false */
		snprintf(why, whylen, "statistic '%s' takes no unit", stat_names[f->stat]);
		return -EINVAL;
	}
	f->unit = parse_unit(&wl->metrics[f->metric], colon + 1, len - *at, why, whylen);
	return f->unit ? 0 : -EINVAL;
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

bool metric_field_needs_baseline(const struct metric_field *f)
{
	return f->stat == FS_OVER_BASE_NS || f->stat == FS_VS_BASE;
}

/* "+1000.0 ± 3.2ns", "0.500 ± 0.001x"; n/a without a baseline; the mean alone without an sd. */
static void format_vs_base(const struct metric_field *f, const struct point_result *r,
			   const struct point_result *base, char *buf, size_t len)
{
	struct baseline_delta d;
	bool ns = f->stat == FS_OVER_BASE_NS;
	double v, sd;

	baseline_of_metric(r, base, f->metric, &d);
	v = ns ? d.over_ns : d.ratio;
	sd = ns ? d.over_ns_sd : d.ratio_sd;
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (isnan(sd))
		snprintf(buf, len, ns ? "%+.1fns" : "%.3fx", v);
	else
		snprintf(buf, len, ns ? "%+.1f ± %.1fns" : "%.3f ± %.3fx", v, sd);
}

void metric_field_format(const struct metric_field *f, const struct point_result *r,
			 const struct point_result *base, char *buf, size_t len)
{
	const struct summary *s = &r->stat[f->metric];
	double np = r->nr_producers;

	switch (f->stat) {
	case FS_OVER_BASE_NS:
	case FS_VS_BASE:
		format_vs_base(f, r, base, buf, len);
		break;
	case FS_MEAN_SD:
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

bool wl_has_producers(const struct workload *wl)
{
	return param_index(wl->params, wl->nr_params, "producers") >= 0;
}

const struct metric_unit *metric_per_run_unit(void)
{
	return &ns_unit;
}

int wl_thread_metric(const struct workload *wl)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].per_thread)
			return m;
	return -1;
}

int wl_metric_index(const struct workload *wl, const char *name)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (!strcmp(wl->metrics[m].name, name))
			return m;
	return -1;
}
