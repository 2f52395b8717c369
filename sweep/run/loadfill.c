// SPDX-License-Identifier: GPL-2.0
/* A repetition's load figures as gauges (loadfill.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadfill.h"

static bool has_load_metrics(const struct workload *wl)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].source == MS_LOAD)
			return true;
	return false;
}

/* The repetition's load kept in r for programs.csv (result.h's loads). */
static int keep_load(const struct wl_load_stats *ls, int rep, struct point_result *r)
{
	struct rep_load *grown = realloc(r->loads, (r->nr_loads + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	r->loads = grown;
	r->loads[r->nr_loads++] = (struct rep_load){ .rep = rep, .ls = *ls };
	return 0;
}

int load_read(const struct workload *wl, void *state, int rep, struct wl_load_stats *ls,
	      struct point_result *r)
{
	const struct wl_load_stats *got = has_load_metrics(wl) ? wl_load_stats_of(wl, state) : NULL;

	memset(ls, 0, sizeof(*ls));
	for (int f = 0; f < NR_LOAD_FIELDS; f++)
		ls->total[f] = METRIC_UNKNOWN;
	if (!got)
		return 0;
	*ls = *got;
	if (ls->note[0] && !r->reason[0])
		snprintf(r->reason, sizeof(r->reason), LOAD_NOTE "%s", ls->note);
	return keep_load(ls, rep, r);
}

void load_fill(const struct workload *wl, const struct wl_load_stats *ls, uint64_t *counts)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].source == MS_LOAD)
			counts[m] = ls->total[wl->metrics[m].load_field];
}
