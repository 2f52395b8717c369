// SPDX-License-Identifier: GPL-2.0
/*
 * Metric definitions beyond the descriptor (metricdef.h): the one table of
 * display units and scales, the values template's fields and their
 * parsing, and which metrics of a workload are which.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "metricdef.h"
#include "param.h"
#include "suggest.h"

static const struct metric_unit units[] = {
	{ .name = "M/s", .kind = MK_COUNTER, .div = 1e6, .decimals = 3 },
	{ .name = "k/s", .kind = MK_COUNTER, .div = 1e3, .decimals = 2 },
	{ .name = "/s", .kind = MK_COUNTER, .div = 1, .decimals = 0 },
	/* prog_ns counts nanoseconds: its rate is ms of program time per second */
	{ .name = "ms/s", .kind = MK_COUNTER, .div = 1e6, .decimals = 3, .time = true },
	{ .name = "GiB", .kind = MK_GAUGE, .div = 1024.0 * 1024 * 1024, .decimals = 3,
	  .base = "bytes" },
	{ .name = "MiB", .kind = MK_GAUGE, .div = 1024.0 * 1024, .decimals = 2, .base = "bytes" },
	{ .name = "KiB", .kind = MK_GAUGE, .div = 1024.0, .decimals = 2, .base = "bytes" },
	{ .name = "B", .kind = MK_GAUGE, .div = 1, .decimals = 0, .base = "bytes" },
	/* a level that is a time per operation: only imported sets hold one (latency ns/op) */
	{ .name = "ns", .kind = MK_GAUGE, .div = 1, .decimals = 3, .time = true, .base = "ns" },
	/* a load's figures (WL_LOAD_METRICS): counts of the verifier's, its time */
	{ .name = "insns", .kind = MK_GAUGE, .div = 1, .decimals = 0, .base = "insns" },
	{ .name = "states", .kind = MK_GAUGE, .div = 1, .decimals = 0, .base = "states" },
	{ .name = "us", .kind = MK_GAUGE, .div = 1, .decimals = 0, .base = "us" },
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
	if (u && u->time && (d->source != MS_PROG_NS || d->kind == MK_GAUGE)) {
		snprintf(why, whylen, "unit '%s' is of %s, and '%s' counts no time (use %s)",
			 word, d->kind == MK_GAUGE ? "an imported time per operation" :
			 "time per second", d->name, kind_units[d->kind]);
		return NULL;
	}
	if (u && d->kind == MK_GAUGE && strcmp(u->base, metric_default_unit(d)->base)) {
		snprintf(why, whylen, "unit '%s' is of %s, and '%s' counts %s (use %s)", word,
			 u->base, d->name, metric_default_unit(d)->base,
			 metric_default_unit(d)->name);
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
	f->deterministic = wl->metrics[f->metric].deterministic;
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

bool metric_field_needs_baseline(const struct metric_field *f)
{
	return f->stat == FS_OVER_BASE_NS || f->stat == FS_VS_BASE;
}

bool wl_has_producers(const struct workload *wl)
{
	return param_index(wl->params, wl->nr_params, "producers") >= 0;
}

const struct metric_unit *metric_per_run_unit(void)
{
	return &ns_unit;
}

void metric_base_unit(const char *name, enum metric_kind kind, const char *unit, char *buf,
		      size_t len)
{
	const struct metric_unit *u = metric_unit_find(unit, kind);

	if (kind == MK_GAUGE)
		snprintf(buf, len, "%s", u ? u->base : "bytes");
	else
		snprintf(buf, len, "%s/s", name);
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

bool prog_metrics(const struct workload *wl, int *runs, int *ns)
{
	*runs = *ns = -1;
	for (int m = 0; m < wl->nr_metrics; m++) {
		if (wl->metrics[m].source == MS_PROG_RUNS)
			*runs = m;
		else if (wl->metrics[m].source == MS_PROG_NS)
			*ns = m;
	}
	return *runs >= 0 && *ns >= 0;
}

/* The load's metrics every BPF family declares (workload.h), known by name when read back. */
static const struct metric_def load_metrics[] = { WL_LOAD_METRICS };

enum metric_source prog_source_of_name(const char *name)
{
	if (!strcmp(name, "prog_runs"))
		return MS_PROG_RUNS;
	if (!strcmp(name, "prog_ns"))
		return MS_PROG_NS;
	for (size_t i = 0; i < sizeof(load_metrics) / sizeof(load_metrics[0]); i++)
		if (!strcmp(name, load_metrics[i].name))
			return MS_LOAD;
	return MS_WORKLOAD;
}

static const char *const better_names[] = {
	[MB_UNSET] = "unknown", [MB_HIGHER] = "higher", [MB_LOWER] = "lower",
	[MB_NEITHER] = "neither",
};

#define NR_BETTER (sizeof(better_names) / sizeof(better_names[0]))

const char *metric_better_name(enum metric_better b)
{
	return (size_t)b < NR_BETTER ? better_names[b] : "unknown";
}

bool metric_better_parse(const char *word, size_t len, enum metric_better *b)
{
	for (size_t i = 0; i < NR_BETTER; i++) {
		if (strlen(better_names[i]) == len && !strncmp(word, better_names[i], len)) {
			*b = i;
			return true;
		}
	}
	return false;
}

/*
 * Names the workloads and the kernel's benches give their numbers, as
 * summary.csv spells them (import's "per-prod-op" is per_prod_op).  Work
 * done per second is better higher; what is lost or held better lower.
 * The program counters grow with the work done, so neither way is better
 * of them: their cost is ns_per_run.
 */
static const struct {
	const char *name;
	enum metric_better better;
} known[] = {
	{ "hits", MB_HIGHER }, { "events", MB_HIGHER }, { "ops", MB_HIGHER },
	{ "calls", MB_HIGHER }, { "runs", MB_HIGHER }, { "triggers", MB_HIGHER },
	{ "throughput", MB_HIGHER }, { "per_prod_op", MB_HIGHER },
	{ "drops", MB_LOWER }, { "errors", MB_LOWER }, { "missed", MB_LOWER },
	{ "lost", MB_LOWER }, { "latency", MB_LOWER }, { METRIC_NS_PER_RUN, MB_LOWER },
	{ "mem", MB_LOWER }, { "mem_peak", MB_LOWER }, { "memlock", MB_LOWER },
	{ "kmem", MB_LOWER }, { "kmem_other", MB_LOWER },
	{ "avg_mem", MB_LOWER }, { "peak_mem", MB_LOWER }, { "bytes", MB_LOWER },
	{ "prog_runs", MB_NEITHER }, { "prog_ns", MB_NEITHER },
};

enum metric_better metric_better_known(const char *name)
{
	if (prog_source_of_name(name) == MS_LOAD)
		return MB_LOWER;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return known[i].better;
	return MB_UNSET;
}
