// SPDX-License-Identifier: GPL-2.0
/*
 * The htab_mem workload: op rate and memory of a BPF hash map per use
 * case and allocator flavour, after the kernel's htab-mem bench
 * (selftests/bpf/benchs/bench_htab_mem.c, "bench htab-mem --use-case X").
 *
 * Each producer calls getpgid() in a loop; each call is one step of the
 * BPF program (bpf/htab_mem.bpf.c): 64 updates, deletes or both on the
 * producer's own keys.  add_del_on_diff_cpu pairs the producers: the even
 * one adds its pair's keys, the odd one deletes them, taking turns as the
 * bench's barriers make them.  Ops are counted per producer on the BPF
 * side; memory is the point's memory cgroup (the engine reads it: all of
 * it, and its kernel memory), the map's memlock from its fdinfo, and the
 * cgroup's kernel memory less that memlock (docs/hashmaps.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "htab_mem.h"
#include "htab_mem.skel.h"
#include "libbpf_log.h"
#include "progload.h"
#include "workload.h"

static const char *const hm_use_cases[] = {
	[HM_OVERWRITE]		 = "overwrite",
	[HM_BATCH_ADD_BATCH_DEL] = "batch_add_batch_del",
	[HM_ADD_DEL_ON_DIFF_CPU] = "add_del_on_diff_cpu",
	NULL,
};

enum { P_USE_CASE, P_PRODUCERS, P_VALUE_SIZE, P_PREALLOC, P_MAX_ENTRIES };

/* The bench's max_entries: MAX(8192, 64 * CPUs), so that every CPU has its own keys. */
#define HM_MIN_ENTRIES	8192

static const struct param_def hm_params[] = {
	[P_USE_CASE]	= { .name = "use_case", .type = PT_ENUM, .def = "overwrite",
			    .choices = hm_use_cases,
			    .help = "overwrite: each step updates the producer's 64 keys; "
				    "batch_add_batch_del: adds then deletes them (2 ops); "
				    "add_del_on_diff_cpu: pairs of producers, one adds, one "
				    "deletes", .rodata = true },
	/* 2, not the bench's 1: a default every use case accepts */
	[P_PRODUCERS]	= { .name = "producers", .type = PT_INT, .def = "2", .min = 1,
			    .max = HTAB_MEM_MAX_PRODUCERS,
			    .help = "threads calling getpgid() in a loop, each a step of 64 map "
				    "operations (the bench's -p); even for add_del_on_diff_cpu",
			    .rodata = true },
	[P_VALUE_SIZE]	= { .name = "value_size", .type = PT_SIZE, .def = "8", .min = 8,
			    .max = HTAB_MEM_MAX_VALUE,
			    .help = "the map's value size (the bench's --value-size)" },
	[P_PREALLOC]	= { .name = "prealloc", .type = PT_BOOL, .def = "off",
			    .help = "preallocated map (the bench's --preallocated); off: "
				    "BPF_F_NO_PREALLOC, the BPF memory allocator" },
	[P_MAX_ENTRIES]	= { .name = "max_entries", .type = PT_INT, .def = "0", .min = 0,
			    .max = 1 << 24,
			    .help = "the map's max_entries; 0: the bench's max(8192, 64 x online "
				    "CPUs), or more if the producers' keys (64 each) need more" },
};

enum { M_OPS, M_MEM, M_MEM_PEAK, M_MEMLOCK, M_KMEM, M_KMEM_OTHER, M_PROG_RUNS, M_PROG_NS };

static const struct metric_def hm_metrics[] = {
	[M_OPS]		= { "ops", MK_COUNTER, "k/s", .per_thread = true, .better = MB_HIGHER },
	[M_MEM]		= { "mem", MK_GAUGE, "MiB", .source = MS_MEMCG_USAGE,
			    .better = MB_LOWER },
	[M_MEM_PEAK]	= { "mem_peak", MK_GAUGE, "MiB", .source = MS_MEMCG_PEAK,
			    .better = MB_LOWER },
	/* the map's own memory, by the kernel's count (htab_map_mem_usage()) */
	[M_MEMLOCK]	= { "memlock", MK_GAUGE, "MiB", .better = MB_LOWER },
	/* the cgroup's kernel memory: the map, the program, its BTF and other maps */
	[M_KMEM]	= { "kmem", MK_GAUGE, "MiB", .source = MS_MEMCG_KMEM,
			    .better = MB_LOWER },
	/* all of it but the map's memlock: the cgroup's other charges */
	[M_KMEM_OTHER]	= { "kmem_other", MK_GAUGE, "MiB", .source = MS_MEMCG_KMEM,
			    .less = "memlock", .better = MB_LOWER },
	[M_PROG_RUNS]	= { "prog_runs", MK_COUNTER, "M/s", .source = MS_PROG_RUNS,
			    .better = MB_NEITHER },
	[M_PROG_NS]	= { "prog_ns", MK_COUNTER, "ms/s", .source = MS_PROG_NS,
			    .better = MB_NEITHER },
	WL_LOAD_METRICS,
};

/* Whose turn it is in a pair of add_del_on_diff_cpu; STOP ends both. */
enum { TURN_ADD, TURN_DEL, TURN_STOP };

/* One pair's turn word, a futex; pairs on cache lines of their own. */
struct hm_pair {
	_Atomic int turn;
} __attribute__((aligned(64)));

struct hm_state {
	struct htab_mem_bpf *skel;
	struct wl_load_stats load;	/* what loading its programs cost */
	struct bpf_link *link;
	int use_case;
	int nr_producers;
	struct hm_pair *pairs;		/* add_del_on_diff_cpu only */
};

/* Keys the steps use: 64 per producer, per pair in add_del_on_diff_cpu. */
static long long keys_needed(const struct wl_point *pt)
{
	long long owners = pt->v[P_PRODUCERS];

	if (pt->v[P_USE_CASE] == HM_ADD_DEL_ON_DIFF_CPU)
		owners /= 2;
	return owners * HTAB_MEM_OP_BATCH;
}

/*
 * Combinations no kernel can run.  A map too small for the keys would make
 * updates fail and still count them as ops: refused rather than measured.
 */
static int htab_mem_validate(const struct wl_point *pt, int *param, char *why, size_t len)
{
	if (pt->v[P_USE_CASE] == HM_ADD_DEL_ON_DIFF_CPU && pt->v[P_PRODUCERS] % 2) {
		*param = P_PRODUCERS;
		snprintf(why, len, "add_del_on_diff_cpu needs an even number of producers");
		return -EINVAL;
	}
	if (pt->v[P_MAX_ENTRIES] && pt->v[P_MAX_ENTRIES] < keys_needed(pt)) {
		*param = P_MAX_ENTRIES;
		snprintf(why, len, "max_entries must hold 64 keys per producer "
			 "(per pair in add_del_on_diff_cpu)");
		return -EINVAL;
	}
	return 0;
}

/* The point's max_entries: the bench's default where the parameter is 0. */
static __u32 max_entries(const struct wl_point *pt)
{
	long long n = pt->v[P_MAX_ENTRIES], cpus;

	if (n)
		return n;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	n = HM_MIN_ENTRIES;
	if (cpus > 0 && cpus * HTAB_MEM_OP_BATCH > n)
		n = cpus * HTAB_MEM_OP_BATCH;
	return keys_needed(pt) > n ? keys_needed(pt) : n;
}

static __u32 map_flags(const struct wl_point *pt)
{
	return pt->v[P_PREALLOC] ? 0 : BPF_F_NO_PREALLOC;
}

static const char *map_what(const struct wl_point *pt)
{
	return pt->v[P_PREALLOC] ? "BPF_MAP_TYPE_HASH" : "BPF_MAP_TYPE_HASH with BPF_F_NO_PREALLOC";
}

static int unsupported(char *why, size_t len, const char *what, int err)
{
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(why, len, "%s: %s: not supported by kernel %s", what, strerror(-err), u.release);
	return -EOPNOTSUPP;
}

/* bpf_loop() (5.17) for a raw tracepoint program: one program load, once per process. */
static int probe_bpf_loop(char *why, size_t len)
{
	static int known, err;

	if (!known) {
		err = libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_loop, NULL);
		known = 1;
	}
	if (err == 1)
		return 0;
	if (err == 0)
		return unsupported(why, len, "bpf_loop", -EINVAL);
	return wl_fail(why, len, "bpf_loop probe", err);
}

/*
 * Can this kernel create the point's kind of map, and run bpf_loop()?
 * EINVAL is how a kernel refuses a flag or size it does not know; ENOMEM
 * and the like are failures, not the kernel's limits.  One entry: a
 * preallocated map of the point's size (34 MiB at 4 KiB values) would cost
 * tens of ms per point, and setup finds out whether memory suffices.
 */
static int htab_mem_probe(const struct wl_point *pt, char *why, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = map_flags(pt));
	int fd, err;

	err = probe_bpf_loop(why, len);
	if (err)
		return err;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "hm_probe", sizeof(__u32), pt->v[P_VALUE_SIZE], 1,
			    &opts);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd != -EINVAL && fd != -EOPNOTSUPP)
		return wl_fail(why, len, map_what(pt), fd);
	return unsupported(why, len, map_what(pt), fd);
}

static int load_skel(struct hm_state *st, const struct wl_point *pt, char *why, size_t len)
{
	struct bpf_map *map;
	int err;

	st->skel = htab_mem_bpf__open();
	if (!st->skel)
		return wl_fail(why, len, "open", -errno);
	st->skel->rodata->bench_tgid = getpid();
	st->skel->rodata->getpgid_nr = SYS_getpgid;
	st->skel->rodata->nr_producers = st->nr_producers;
	st->skel->rodata->use_case = st->use_case;

	map = st->skel->maps.htab;
	err = bpf_map__set_value_size(map, pt->v[P_VALUE_SIZE]);
	if (!err)
		err = bpf_map__set_max_entries(map, max_entries(pt));
	if (!err)
		err = bpf_map__set_map_flags(map, map_flags(pt));
	if (!err)
		err = bpf_map__set_max_entries(st->skel->maps.producer_of, st->nr_producers);
	if (err)
		return wl_fail(why, len, map_what(pt), err);

	err = wl_load_skeleton(st->skel->skeleton, &st->load);
	if (err)
		return wl_fail(why, len, "load", err);
	st->link = bpf_program__attach(st->skel->progs.htab_mem_step);
	if (!st->link)
		return wl_fail(why, len, "attach", -errno);
	return 0;
}

static void htab_mem_teardown(void *state)
{
	struct hm_state *st = state;

	bpf_link__destroy(st->link);
	htab_mem_bpf__destroy(st->skel);
	free(st->pairs);
	free(st);
}

/*
 * No probe map before the load: the runner has probed the point already,
 * and a map made inside the point's memory cgroup (and freed later, after
 * an RCU grace period) would add to what it measures.  Only a failed load
 * asks the probe whether the kernel cannot make such a map at all, so
 * that callers without the engine see "unsupported" as the runner would.
 */
static int htab_mem_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			  char *why, size_t len)
{
	struct hm_state *st;
	char why2[256];
	int param, err;

	err = htab_mem_validate(pt, &param, why, len);
	if (!err)
		err = probe_bpf_loop(why, len);
	if (err)
		return err;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->use_case = pt->v[P_USE_CASE];
	st->nr_producers = pt->v[P_PRODUCERS];
	if (st->use_case == HM_ADD_DEL_ON_DIFF_CPU) {
		size_t sz = st->nr_producers / 2 * sizeof(*st->pairs);

		/* calloc() would not keep the pairs on lines of their own */
		st->pairs = aligned_alloc(__alignof__(*st->pairs), sz);
		if (!st->pairs) {
			free(st);
			return -ENOMEM;
		}
		memset(st->pairs, 0, sz);	/* TURN_ADD: adders go first */
	}

	/* The engine prints diagnostics, not libbpf: keep its words for the reason. */
	libbpf_log_begin();
	err = load_skel(st, pt, why, len);
	libbpf_log_end();
	if (err) {
		libbpf_log_explain(why, len);
		htab_mem_teardown(st);
		if (wl_err_is_unsupported(htab_mem_probe(pt, why2, sizeof(why2)))) {
			snprintf(why, len, "%s", why2);
			return -EOPNOTSUPP;
		}
		return err;
	}
	thr->nr_producers = st->nr_producers;
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

static void futex_wake_all(_Atomic int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Sleep until it is `mine` turn in the pair: 0, or -1 once the pair is stopped. */
static int wait_turn(struct hm_pair *p, int mine)
{
	for (;;) {
		int t = atomic_load(&p->turn);

		if (t == mine)
			return 0;
		if (t == TURN_STOP)
			return -1;
		/* returns at once if the turn moved on since the load */
		syscall(SYS_futex, &p->turn, FUTEX_WAIT_PRIVATE, t, NULL, NULL, 0);
	}
}

/* Hand the pair to the other side, unless it has been stopped meanwhile. */
static void pass_turn(struct hm_pair *p, int mine, int next)
{
	if (atomic_compare_exchange_strong(&p->turn, &mine, next))
		futex_wake_all(&p->turn);
}

/*
 * One producer of a pair: its step, then the partner's, in turn, as the
 * bench's two barrier waits per step order them.
 */
static void produce_paired(struct hm_state *st, int idx, const atomic_bool *stop)
{
	struct hm_pair *p = &st->pairs[idx / 2];
	int mine = idx & 1 ? TURN_DEL : TURN_ADD;
	int next = idx & 1 ? TURN_ADD : TURN_DEL;

	while (!atomic_load_explicit(stop, memory_order_relaxed) && !wait_turn(p, mine)) {
		syscall(SYS_getpgid, 0);
		pass_turn(p, mine, next);
	}
}

/* Tell the program which producer this thread is, then step until stopped. */
static int htab_mem_produce(void *state, int idx, const atomic_bool *stop)
{
	struct hm_state *st = state;
	__u32 tid = syscall(SYS_gettid), slot = idx;

	if (bpf_map_update_elem(bpf_map__fd(st->skel->maps.producer_of), &tid, &slot, BPF_ANY))
		return -errno;
	if (st->pairs) {
		produce_paired(st, idx, stop);
		return 0;
	}
	while (!atomic_load_explicit(stop, memory_order_relaxed))
		syscall(SYS_getpgid, 0);
	return 0;
}

/* Wake both sides of every pair, for good: they return once *stop is set. */
static void htab_mem_stop(void *state)
{
	struct hm_state *st = state;

	for (int i = 0; st->pairs && i < st->nr_producers / 2; i++) {
		atomic_store(&st->pairs[i].turn, TURN_STOP);
		futex_wake_all(&st->pairs[i].turn);
	}
}

/* The map's "memlock:" from /proc/self/fdinfo: what the kernel charges it, in bytes. */
static uint64_t map_memlock(int fd)
{
	char path[64], buf[1024], *line;
	unsigned long long v;
	uint64_t memlock = METRIC_UNKNOWN;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return METRIC_UNKNOWN;
	while ((line = fgets(buf, sizeof(buf), f)))
		if (sscanf(line, "memlock: %llu", &v) == 1) {
			memlock = v;
			break;
		}
	fclose(f);
	return memlock;
}

/* Each producer's ops, their sum, and the map's memlock; the memory cgroup is the engine's. */
static int htab_mem_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct hm_state *st = state;
	const __u64 *op_cnt = st->skel->bss->op_cnt;
	uint64_t ops = 0;

	for (int i = 0; i < st->nr_producers; i++) {
		uint64_t n = __atomic_load_n(&op_cnt[i], __ATOMIC_RELAXED);

		if (thread_counts)
			thread_counts[i] = n;
		ops += n;
	}
	counts[M_OPS] = ops;
	counts[M_MEMLOCK] = map_memlock(bpf_map__fd(st->skel->maps.htab));
	return 0;
}

/* The stepping program's runs and time: 64 map operations per run. */
static int htab_mem_prog_stats(void *state, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	struct hm_state *st = state;
	int fd = bpf_program__fd(st->skel->progs.htab_mem_step);

	return wl_prog_stats_sum(&fd, 1, run_cnt, run_time_ns);
}

const struct workload htab_mem_workload = {
	.name = "htab_mem",
	.help = "BPF hash map op rate and memory per use case and allocator (the kernel's "
		"htab-mem bench)",
	.params = hm_params,
	.nr_params = sizeof(hm_params) / sizeof(hm_params[0]),
	.metrics = hm_metrics,
	.nr_metrics = sizeof(hm_metrics) / sizeof(hm_metrics[0]),
	.values = "per-prod-op: {ops.per_worker:k/s}, avg mem: {mem:MiB}, "
		  "peak mem: {mem_peak.max:MiB}",
	.needs_bpf = true,
	.validate = htab_mem_validate,
	.probe = htab_mem_probe,
	.setup = htab_mem_setup,
	.produce = htab_mem_produce,
	.sample = htab_mem_sample,
	.stop = htab_mem_stop,
	.teardown = htab_mem_teardown,
	.prog_stats = htab_mem_prog_stats,
	.load_stats = WL_LOAD_STATS_IN(struct hm_state, load),
	.prog_runs_scope = "its program runs on every syscall of every process (raw_tp/sys_enter) "
			   "and returns at its filter on those not its workers' getpgid(): the "
			   "mean is over all those runs",
};
