// SPDX-License-Identifier: GPL-2.0
/*
 * The metric lines of meta: each metric's kind, unit and direction,
 * written with the set and read back by name (metricmeta.h).
 */
#include <string.h>

#include "metric.h"
#include "metricmeta.h"
#include "progrun.h"

#define DETERMINISTIC	"deterministic"

void metricmeta_print_one(FILE *f, const char *name, const char *kind, const char *unit,
			  enum metric_better b, bool deterministic)
{
	fprintf(f, "metric: %s %s %s %s%s\n", name, kind, unit, metric_better_name(b),
		deterministic ? " " DETERMINISTIC : "");
}

void metricmeta_print(FILE *f, const struct workload *wl)
{
	int runs, ns;

	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct metric_def *d = &wl->metrics[m];

		metricmeta_print_one(f, d->name, d->kind == MK_GAUGE ? "gauge" : "counter",
				     metric_default_unit(d)->name, d->better, d->deterministic);
	}
	if (prog_metrics(wl, &runs, &ns))
		metricmeta_print_one(f, METRIC_NS_PER_RUN, "ratio", metric_per_run_unit()->name,
				     MB_LOWER, false);
}

/*
 * "hits counter M/s higher [deterministic]" of name into mi; false when
 * the line is of another metric.
 */
static bool parse_line(const char *v, const char *name, struct metric_info *mi)
{
	const char *w[5];
	size_t len[5];
	int nr = 0;

	for (const char *s = v; *s && nr < 5; nr++) {
		w[nr] = s;
		len[nr] = strcspn(s, " ");
		s += len[nr];
		s += *s == ' ';
	}
	if (nr < 4 || strlen(name) != len[0] || strncmp(name, w[0], len[0]) ||
	    len[2] >= sizeof(mi->unit) || !metric_better_parse(w[3], len[3], &mi->better))
		return false;
	snprintf(mi->unit, sizeof(mi->unit), "%.*s", (int)len[2], w[2]);
	mi->deterministic = nr == 5 && len[4] == strlen(DETERMINISTIC) &&
			    !strncmp(w[4], DETERMINISTIC, len[4]);
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
