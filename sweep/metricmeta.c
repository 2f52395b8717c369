// SPDX-License-Identifier: GPL-2.0
/*
 * The metric lines of meta: each metric's kind, unit and direction,
 * written with the set and read back by name (metricmeta.h).
 */
#include <string.h>

#include "metric.h"
#include "metricmeta.h"
#include "progrun.h"

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
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return known[i].better;
	return MB_UNSET;
}

void metricmeta_print_one(FILE *f, const char *name, const char *kind, const char *unit,
			  enum metric_better b)
{
	fprintf(f, "metric: %s %s %s %s\n", name, kind, unit, metric_better_name(b));
}

void metricmeta_print(FILE *f, const struct workload *wl)
{
	int runs, ns;

	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct metric_def *d = &wl->metrics[m];

		metricmeta_print_one(f, d->name, d->kind == MK_GAUGE ? "gauge" : "counter",
				     metric_default_unit(d)->name, d->better);
	}
	if (prog_metrics(wl, &runs, &ns))
		metricmeta_print_one(f, METRIC_NS_PER_RUN, "ratio", metric_per_run_unit()->name,
				     MB_LOWER);
}

/* "hits counter M/s higher" of name into mi; false when the line is of another metric. */
static bool parse_line(const char *v, const char *name, struct metric_info *mi)
{
	const char *w[4];
	size_t len[4];
	int nr = 0;

	for (const char *s = v; *s && nr < 4; nr++) {
		w[nr] = s;
		len[nr] = strcspn(s, " ");
		s += len[nr];
		s += *s == ' ';
	}
	if (nr < 4 || strlen(name) != len[0] || strncmp(name, w[0], len[0]) ||
	    len[2] >= sizeof(mi->unit) || !metric_better_parse(w[3], len[3], &mi->better))
		return false;
	snprintf(mi->unit, sizeof(mi->unit), "%.*s", (int)len[2], w[2]);
	mi->recorded = true;
	return true;
}

void metricmeta_of(const struct result_set *rs, const char *name, bool gauge,
		   struct metric_info *mi)
{
	*mi = (struct metric_info){ .better = MB_UNSET };
	for (int i = 0; i < rs->nr_meta; i++)
		if (!strcmp(rs->meta[i].key, "metric") && parse_line(rs->meta[i].value, name, mi))
			return;
	mi->better = metric_better_known(name);
	if (mi->better == MB_UNSET)
		mi->better = gauge ? MB_LOWER : MB_HIGHER;
}

bool metricmeta_recorded(const struct result_set *rs)
{
	for (int i = 0; i < rs->nr_meta; i++)
		if (!strcmp(rs->meta[i].key, "metric"))
			return true;
	return false;
}
