// SPDX-License-Identifier: GPL-2.0
/*
 * The count workload: producers bump their own counter in a tight loop,
 * like the kernel bench's "count-local".  No BPF, no root: the ceiling of
 * what the harness itself can measure, and a check that it stays off the
 * measured path.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

enum { P_PRODUCERS };

static const struct param_def count_params[] = {
	[P_PRODUCERS] = { .name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 1024,
			  .help = "producer threads, each with its own counter" },
};

static const struct metric_def count_metrics[] = {
	{ .name = "hits", .kind = MK_COUNTER, .unit = "M/s", .better = MB_HIGHER },
};

/* One cache line per producer, so they do not share counters' lines. */
struct count_slot {
	_Atomic uint64_t hits;
	char pad[64 - sizeof(uint64_t)];
};

struct count_state {
	int nr;
	struct count_slot *slots;
};

static int count_probe(const struct wl_point *pt, char *why, size_t len)
{
	return 0;
}

static int count_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
		       char *why, size_t len)
{
	struct count_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->nr = pt->v[P_PRODUCERS];
	if (posix_memalign((void **)&st->slots, 64, st->nr * sizeof(*st->slots))) {
		free(st);
		return -ENOMEM;
	}
	for (int i = 0; i < st->nr; i++)
		atomic_init(&st->slots[i].hits, 0);
	thr->nr_producers = st->nr;
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

static int count_produce(void *state, int idx, const atomic_bool *stop)
{
	struct count_state *st = state;
	_Atomic uint64_t *hits = &st->slots[idx].hits;

	while (!atomic_load_explicit(stop, memory_order_relaxed))
		atomic_fetch_add_explicit(hits, 1, memory_order_relaxed);
	return 0;
}

static int count_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct count_state *st = state;

	counts[0] = 0;
	for (int i = 0; i < st->nr; i++)
		counts[0] += atomic_load_explicit(&st->slots[i].hits, memory_order_relaxed);
	return 0;
}

static void count_teardown(void *state)
{
	struct count_state *st = state;

	free(st->slots);
	free(st);
}

const struct workload count_workload = {
	.name = "count",
	.help = "no BPF: producers bump per-thread counters (the harness's own ceiling)",
	.params = count_params,
	.nr_params = 1,
	.metrics = count_metrics,
	.nr_metrics = 1,
	.probe = count_probe,
	.setup = count_setup,
	.produce = count_produce,
	.sample = count_sample,
	.teardown = count_teardown,
};
