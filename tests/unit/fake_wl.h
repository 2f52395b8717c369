/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload descriptor for the engine's storage tests, not in the
 * registry: a per-thread counter, an engine-filled gauge, a workload gauge
 * and a plain counter, the shape of htab_mem's metrics.  It has no
 * callbacks: the tests build its point_results by hand.
 */
#ifndef TESTS_FAKE_WL_H
#define TESTS_FAKE_WL_H

#include "workload.h"

enum { FAKE_OPS, FAKE_MEM, FAKE_MEMLOCK, FAKE_DROPS, FAKE_NR_METRICS };

static const char *const fake_modes[] = { "add", "del", NULL };

static const struct param_def fake_params[] = {
	{ "producers", PT_INT, "1", 1, 64, NULL, "producers" },
	{ "mode", PT_ENUM, "add", 0, 0, fake_modes, "a choice" },
};

static const struct metric_def fake_metrics[] = {
	[FAKE_OPS] = { "ops", MK_COUNTER, "k/s", .per_thread = true },
	[FAKE_MEM] = { "mem", MK_GAUGE, "MiB", .source = MS_MEMCG_USAGE },
	[FAKE_MEMLOCK] = { "memlock", MK_GAUGE, "MiB" },
	[FAKE_DROPS] = { "drops", MK_COUNTER, "/s" },
};

static const struct workload fake_wl = {
	.name = "fake",
	.params = fake_params,
	.nr_params = 2,
	.metrics = fake_metrics,
	.nr_metrics = FAKE_NR_METRICS,
};

#endif
