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
	{ .name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 64,
	  .help = "producers" },
	{ .name = "mode", .type = PT_ENUM, .def = "add", .choices = fake_modes,
	  .help = "a choice" },
};

static const struct metric_def fake_metrics[] = {
	[FAKE_OPS] = { .name = "ops", .kind = MK_COUNTER, .unit = "k/s", .per_thread = true },
	[FAKE_MEM] = { .name = "mem", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_USAGE },
	[FAKE_MEMLOCK] = { .name = "memlock", .kind = MK_GAUGE, .unit = "MiB" },
	[FAKE_DROPS] = { .name = "drops", .kind = MK_COUNTER, .unit = "/s" },
};

static const struct workload fake_wl = {
	.name = "fake",
	.params = fake_params,
	.nr_params = 2,
	.metrics = fake_metrics,
	.nr_metrics = FAKE_NR_METRICS,
};

#endif
