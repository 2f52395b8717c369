// SPDX-License-Identifier: GPL-2.0
/*
 * The map_perf workload: BPF map operation rate per map kind, after the
 * kernel's samples/bpf/map_perf_test (e.g. "map_perf_test 4 8 16384": test
 * bit 2, "hash_map_perf kmalloc", on 8 CPUs with max_entries 16384).
 *
 * Worker threads (the engine's producers; by default one per allowed CPU,
 * pinned by the runner, as map_perf_test runs one per CPU) call getpgid()
 * in a loop; a BPF program on raw_tp/sys_enter, filtered to getpgid, to
 * our tgid and to the workers' tagged calls, does `ops` rounds of update,
 * lookup and delete of the calling thread's key (its thread id; for an
 * array, that modulo max_entries), as map_perf_test does 10 of them per
 * syscall.  events counts the program runs that did so, per worker (the
 * seed's story is the spread between CPUs), errors the updates and
 * deletes the map refused; both are counted on the BPF side, so a syscall
 * that never reached the program does not count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libbpf_log.h"
#include "progload.h"
#include "map_perf.h"
#include "map_perf.skel.h"
#include "workload.h"

enum map_kind { M_HASH, M_HASH_KMALLOC, M_PERCPU_HASH, M_PERCPU_HASH_KMALLOC, M_LRU_HASH,
		M_ARRAY };

static const char *const mp_maps[] = {
	"hash", "hash_kmalloc", "percpu_hash", "percpu_hash_kmalloc", "lru_hash", "array", NULL,
};

/* How each kind is created: map_perf_test's names for its maps in the comments. */
static const struct {
	enum bpf_map_type type;
	__u32 flags;
	const char *what;		/* for reasons */
} mp_kinds[] = {
	[M_HASH]		= { .type = BPF_MAP_TYPE_HASH,			/* hash_map */
				    .what = "BPF_MAP_TYPE_HASH" },
	[M_HASH_KMALLOC]	= { .type = BPF_MAP_TYPE_HASH,			/* hash_map_alloc */
				    .flags = BPF_F_NO_PREALLOC,
				    .what = "BPF_MAP_TYPE_HASH with BPF_F_NO_PREALLOC" },
	[M_PERCPU_HASH]		= { .type = BPF_MAP_TYPE_PERCPU_HASH,
				    .what = "BPF_MAP_TYPE_PERCPU_HASH" },
	[M_PERCPU_HASH_KMALLOC]	= { .type = BPF_MAP_TYPE_PERCPU_HASH,
				    .flags = BPF_F_NO_PREALLOC,
				    .what = "BPF_MAP_TYPE_PERCPU_HASH with BPF_F_NO_PREALLOC" },
	[M_LRU_HASH]		= { .type = BPF_MAP_TYPE_LRU_HASH,
				    .what = "BPF_MAP_TYPE_LRU_HASH" },
	[M_ARRAY]		= { .type = BPF_MAP_TYPE_ARRAY, .what = "BPF_MAP_TYPE_ARRAY" },
};

enum { P_MAP, P_MAX_ENTRIES, P_WORKERS, P_OPS };

static const struct param_def mp_params[] = {
	[P_MAP]		= { .name = "map", .type = PT_ENUM, .def = "hash", .choices = mp_maps,
			    .help = "map kind: hash (preallocated), hash_kmalloc "
				    "(BPF_F_NO_PREALLOC), percpu_hash, percpu_hash_kmalloc, "
				    "lru_hash, array", .rodata = true },
	[P_MAX_ENTRIES]	= { .name = "max_entries", .type = PT_INT, .def = "1000", .min = 1,
			    .max = 1 << 20,
			    .help = "the map's max_entries (map_perf_test's default: 1000); below "
				    "the worker count updates fail (errors), array keys collide",
			    .rodata = true },
	[P_WORKERS]	= { .name = "workers", .type = PT_INT, .def = "all", .min = 1,
			    .max = MAP_PERF_WORKERS, .zero_word = "all", .rodata = true,
			    .help = "worker threads calling getpgid() in a loop; all: one per "
				    "CPU the process may run on, at most 1024 (pinned with "
				    "affinity = on)" },
	/* The verifier walks every round: keep it well inside its limits. */
	[P_OPS]		= { .name = "ops", .type = PT_INT, .def = "10", .min = 1, .max = 256,
			    .help = "rounds of update+lookup+delete (array: update+lookup) of the "
				    "thread's key per syscall (map_perf_test: 10)",
			    .rodata = true },
};

static const struct metric_def mp_metrics[] = {
	{ .name = "events", .kind = MK_COUNTER, .unit = "M/s", .per_thread = true,
	  .better = MB_HIGHER },
	{ .name = "errors", .kind = MK_COUNTER, .unit = "M/s", .better = MB_LOWER },
	{ .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS,
	  .better = MB_NEITHER },
	{ .name = "prog_ns", .kind = MK_COUNTER, .unit = "ms/s", .source = MS_PROG_NS,
	  .better = MB_NEITHER },
	WL_LOAD_METRICS,
};

struct mp_state {
	struct map_perf_bpf *skel;
	struct wl_load_stats load;	/* what loading its programs cost */
	struct bpf_link *link;
	int nr_workers;
};

/*
 * Can this kernel create the point's map?  Create it and close it: one
 * syscall.  EINVAL is how a kernel refuses a type or flag it does not
 * know; ENOMEM and the like are failures, not the kernel's limits.
 */
static int map_perf_probe(const struct wl_point *pt, char *why, size_t len)
{
	enum map_kind k = pt->v[P_MAP];
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = mp_kinds[k].flags);
	struct utsname u;
	int fd;

	fd = bpf_map_create(mp_kinds[k].type, "mp_probe", sizeof(__u32), sizeof(long),
			    pt->v[P_MAX_ENTRIES], &opts);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd != -EINVAL && fd != -EOPNOTSUPP)
		return wl_fail(why, len, mp_kinds[k].what, fd);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(why, len, "%s: %s: not supported by kernel %s", mp_kinds[k].what,
		 strerror(-fd), u.release);
	return -EOPNOTSUPP;
}

static int load_skel(struct mp_state *st, const struct wl_point *pt, char *why, size_t len)
{
	enum map_kind k = pt->v[P_MAP];
	struct bpf_map *map;
	int err;

	st->skel = map_perf_bpf__open();
	if (!st->skel)
		return wl_fail(why, len, "open", -errno);
	st->skel->rodata->bench_tgid = getpid();
	st->skel->rodata->getpgid_nr = SYS_getpgid;
	st->skel->rodata->max_entries = pt->v[P_MAX_ENTRIES];
	st->skel->rodata->ops = pt->v[P_OPS];
	st->skel->rodata->nr_workers = st->nr_workers;
	st->skel->rodata->is_array = k == M_ARRAY;

	map = st->skel->maps.map;
	err = bpf_map__set_type(map, mp_kinds[k].type);
	if (!err)
		err = bpf_map__set_map_flags(map, mp_kinds[k].flags);
	if (!err)
		err = bpf_map__set_max_entries(map, pt->v[P_MAX_ENTRIES]);
	if (err)
		return wl_fail(why, len, mp_kinds[k].what, err);

	err = wl_load_skeleton(st->skel->skeleton, &st->load);
	if (err)
		return wl_fail(why, len, "load", err);
	st->link = bpf_program__attach(st->skel->progs.map_raw_tp);
	if (!st->link)
		return wl_fail(why, len, "attach", -errno);
	return 0;
}

static void map_perf_teardown(void *state)
{
	struct mp_state *st = state;

	bpf_link__destroy(st->link);
	map_perf_bpf__destroy(st->skel);
	free(st);
}

/*
 * How many workers the point runs: its number, or for "all" (0) one per
 * CPU this process may run on now, which are the CPUs the runner pins
 * workers to; capped at the slots the program has.
 */
static int nr_workers(const struct wl_point *pt)
{
	cpu_set_t set;
	int n;

	if (pt->v[P_WORKERS])
		return pt->v[P_WORKERS];
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	n = CPU_COUNT(&set);
	return n < MAP_PERF_WORKERS ? n : MAP_PERF_WORKERS;
}

static int map_perf_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			  char *why, size_t len)
{
	struct mp_state *st;
	int err;

	/* setup stands alone (the tests call it without the engine): one map create */
	err = map_perf_probe(pt, why, len);
	if (err)
		return err;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->nr_workers = nr_workers(pt);
	if (st->nr_workers < 0) {
		err = wl_fail(why, len, "sched_getaffinity", st->nr_workers);
		free(st);
		return err;
	}

	/* The engine prints diagnostics, not libbpf: keep its words for the reason. */
	libbpf_log_begin();
	err = load_skel(st, pt, why, len);
	libbpf_log_end();
	if (err) {
		libbpf_log_explain(why, len);
		map_perf_teardown(st);
		return err;
	}
	thr->nr_producers = st->nr_workers;
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

/* getpgid(0) of our own process; the second argument names the worker. */
static int map_perf_produce(void *state, int idx, const atomic_bool *stop)
{
	unsigned long tag = MAP_PERF_TAG | (unsigned int)idx;

	while (!atomic_load_explicit(stop, memory_order_relaxed))
		syscall(SYS_getpgid, (pid_t)0, tag);
	return 0;
}

/*
 * Every worker's slot, and their sums: the program counts only in the
 * slots of workers 0..nr_workers-1, so the totals are the sums of the
 * per-worker counts.  Each slot is only ever added to.
 */
static int map_perf_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct mp_state *st = state;
	struct map_perf_bpf__bss *bss = st->skel->bss;
	uint64_t events = 0, errors = 0;

	for (int i = 0; i < st->nr_workers; i++) {
		uint64_t ev = __atomic_load_n(&bss->slots[i].events, __ATOMIC_RELAXED);

		if (thread_counts)
			thread_counts[i] = ev;
		events += ev;
		errors += __atomic_load_n(&bss->slots[i].errors, __ATOMIC_RELAXED);
	}
	counts[0] = events;
	counts[1] = errors;
	return 0;
}

/*
 * The raw_tp program's runs and time: it runs on every task's syscall
 * entry, the filter included, so the mean is over all of them.
 */
static int map_perf_prog_stats(void *state, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	struct mp_state *st = state;
	int fd = bpf_program__fd(st->skel->progs.map_raw_tp);

	return wl_prog_stats_sum(&fd, 1, run_cnt, run_time_ns);
}

const struct workload map_perf_workload = {
	.name = "map_perf",
	.help = "BPF map update/lookup/delete rate per map kind (the kernel's map_perf_test)",
	.params = mp_params,
	.nr_params = sizeof(mp_params) / sizeof(mp_params[0]),
	.metrics = mp_metrics,
	.nr_metrics = sizeof(mp_metrics) / sizeof(mp_metrics[0]),
	.needs_bpf = true,
	.probe = map_perf_probe,
	.setup = map_perf_setup,
	.produce = map_perf_produce,
	.sample = map_perf_sample,
	.teardown = map_perf_teardown,
	.prog_stats = map_perf_prog_stats,
	.load_stats = WL_LOAD_STATS_IN(struct mp_state, load),
	.prog_runs_scope = "its program runs on every syscall of every process (raw_tp/sys_enter) "
			   "and returns at its filter on those not its workers' getpgid(): the "
			   "mean is over all those runs",
};
