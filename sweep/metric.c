// SPDX-License-Identifier: GPL-2.0
/* Display units of metrics: the one table of scales (metric.h). */
#include <string.h>

#include "metric.h"

static const struct metric_unit units[] = {
	{ .name = "M/s", .kind = MK_COUNTER, .div = 1e6 },
	{ .name = "k/s", .kind = MK_COUNTER, .div = 1e3 },
	{ .name = "/s", .kind = MK_COUNTER, .div = 1 },
	{ .name = "GiB", .kind = MK_GAUGE, .div = 1024.0 * 1024 * 1024 },
	{ .name = "MiB", .kind = MK_GAUGE, .div = 1024.0 * 1024 },
	{ .name = "KiB", .kind = MK_GAUGE, .div = 1024.0 },
	{ .name = "B", .kind = MK_GAUGE, .div = 1 },
};

#define NR_UNITS (sizeof(units) / sizeof(units[0]))

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
