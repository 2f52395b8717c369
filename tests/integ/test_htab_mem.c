// SPDX-License-Identifier: GPL-2.0
/*
 * The htab_mem workload against the running kernel: real BPF, needs root
 * (validate's tests need none).  Points run through the workload's own
 * setup, produce, sample, stop and teardown with our own threads, as
 * sweep/run/runner.c drives them, with per-producer counts as the runner asks
 * for them.  Rates seen are printed as "# ..." lines, for the record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "integ_util.h"
#include "memcg.h"
#include "wl_run.h"
#include "param.h"
#include "result.h"
#include "runner.h"
#include "workload.h"

extern const struct workload htab_mem_workload;

#define RUN_MS		200
#define NR_PROD		2	/* one per CPU of a 2-CPU machine, one add/delete pair */

static const struct workload *wl = &htab_mem_workload;

static const char *const use_cases[] = {
	"overwrite", "batch_add_batch_del", "add_del_on_diff_cpu",
};

enum { M_OPS, M_MEM, M_MEM_PEAK, M_MEMLOCK, M_KMEM, M_KMEM_OTHER };

struct run {
	uint64_t counts[WL_MAX_METRICS];
	uint64_t thread_counts[WL_RUN_MAX_THREADS];
	int nr_producers;
	int err;		/* sample's or a thread's */
};

/*
 * wl_run_point() with the per-producer counts the runner asks for: setup,
 * threads, a sleep, one sample, stop, join, teardown.  0 or setup's error.
 */
static int run_point(const struct wl_point *pt, struct run *r, char *why, size_t len)
{
	struct wl_worker w[WL_RUN_MAX_THREADS];
	struct wl_threads thr = { 0 };
	atomic_bool stop = false;
	void *state;
	int err, n;

	memset(r, 0, sizeof(*r));
	err = wl->setup(pt, &state, &thr, why, len);
	if (err)
		return err;
	r->nr_producers = thr.nr_producers;
	n = wl_start_workers(wl, state, &thr, w, &stop);
	sleep_ms(RUN_MS);
	r->err = wl->sample(state, r->counts, r->thread_counts);
	atomic_store(&stop, true);
	wl->stop(state);
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err && !r->err)
			r->err = w[i].err;
	}
	if (n != thr.nr_producers && !r->err)
		r->err = -EAGAIN;
	wl->teardown(state);
	return 0;
}

/*
 * Ops from every producer, adding up to the total, in each use case's
 * units: batch_add_batch_del counts 2 per step, and the two sides of an
 * add_del_on_diff_cpu pair take turns, so their counts differ by one at
 * most (the adder may be a step ahead).
 */
static void check_use_case(const char *uc, const char *prealloc)
{
	char set_uc[64], set_pre[32], why[384] = "";
	struct wl_point pt;
	struct run r;
	uint64_t sum = 0;
	int err;

	snprintf(set_uc, sizeof(set_uc), "use_case=%s", uc);
	snprintf(set_pre, sizeof(set_pre), "prealloc=%s", prealloc);
	CHECK(point_set(wl, &pt, set_uc, set_pre, "producers=2", NULL));
	err = run_point(&pt, &r, why, sizeof(why));
	if (err)
		CHECK_FAIL_("%s prealloc=%s: setup: %d (%s)", uc, prealloc, err, why);
	CHECK_INT(r.err, 0);
	CHECK_INT(r.nr_producers, NR_PROD);
	printf("# %-20s prealloc %-3s %8.2f k ops/s per producer, memlock %.2f MiB\n", uc,
	       prealloc, r.counts[M_OPS] / (double)NR_PROD / RUN_MS,
	       r.counts[M_MEMLOCK] / 1048576.0);
	for (int i = 0; i < NR_PROD; i++) {
		if (!r.thread_counts[i])
			CHECK_FAIL_("%s prealloc=%s: producer %d made no ops", uc, prealloc, i);
		sum += r.thread_counts[i];
	}
	CHECK_INT(sum, r.counts[M_OPS]);
	if (!strcmp(uc, "batch_add_batch_del"))
		for (int i = 0; i < NR_PROD; i++)
			CHECK_INT(r.thread_counts[i] % 2, 0);
	if (!strcmp(uc, "add_del_on_diff_cpu"))
		CHECK(r.thread_counts[0] - r.thread_counts[1] <= 1);
	CHECK(r.counts[M_MEMLOCK] != METRIC_UNKNOWN && r.counts[M_MEMLOCK] > 0);
}

TEST(every_use_case)
{
	NEED_ROOT();
	for (size_t i = 0; i < sizeof(use_cases) / sizeof(use_cases[0]); i++) {
		check_use_case(use_cases[i], "on");
		if (check_cur.failed)
			return;
		check_use_case(use_cases[i], "off");
		if (check_cur.failed)
			return;
	}
}

/* The largest value the bench allows, in a preallocated map of the default size. */
TEST(largest_value)
{
	struct wl_run_result res;
	struct wl_point pt;
	char why[384] = "";

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "value_size=4096", "prealloc=on", NULL));
	CHECK_INT(wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why)), 0);
	CHECK_INT(res.thread_err, 0);
	CHECK(res.counts[M_OPS] > 0);
}

/* The map's memlock, read by sample() while nothing runs. */
static uint64_t idle_memlock(const char *prealloc_set)
{
	uint64_t counts[WL_MAX_METRICS] = { 0 };
	struct wl_threads thr;
	struct wl_point pt;
	char why[384];
	void *state;

	if (!point_set(wl, &pt, prealloc_set, NULL) || wl->setup(&pt, &state, &thr, why, sizeof(why)))
		return 0;
	wl->sample(state, counts, NULL);
	wl->teardown(state);
	return counts[M_MEMLOCK];
}

/*
 * A preallocated map is charged for all of max_entries (8192 at least) up
 * front; one without preallocation for what it holds, nothing yet.
 */
TEST(prealloc_memlock)
{
	uint64_t on, off;

	NEED_ROOT();
	on = idle_memlock("prealloc=on");
	off = idle_memlock("prealloc=off");
	printf("# memlock of an empty map: prealloc on %llu, off %llu bytes\n",
	       (unsigned long long)on, (unsigned long long)off);
	CHECK(on != METRIC_UNKNOWN && off != METRIC_UNKNOWN);
	CHECK(off > 0);
	/* 8192 elements of 8-byte values are well over 8192 * 32 bytes */
	CHECK(on > off + 8192 * 32);
}

/*
 * What the map's setup charges to a memory cgroup of its own, as the
 * runner reads it; 0, -ENOENT without a memory controller, else -errno.
 */
static int setup_charge(const char *prealloc_set, uint64_t *charged, char *why, size_t len)
{
	struct wl_threads thr;
	struct wl_point pt;
	struct memcg *mc;
	uint64_t before, after, peak;
	void *state;
	int err;

	if (!point_set(wl, &pt, prealloc_set, "value_size=4096", NULL))
		return -EINVAL;
	err = memcg_create(&mc, why, len);
	if (err)
		return err;
	err = memcg_read(mc, &before, &peak);
	if (!err)
		err = wl->setup(&pt, &state, &thr, why, len);
	if (!err) {
		err = memcg_read(mc, &after, &peak);
		wl->teardown(state);
	}
	memcg_destroy(mc);
	*charged = err ? 0 : after - before;
	return err;
}

/*
 * The memory cgroup tells the allocators apart as the memlock does: the
 * preallocated map's elements are charged at setup, the BPF memory
 * allocator's are not (its per-CPU caches are a few pages).  Elements of
 * 4096 bytes: a memory cgroup's usage moves in batches of up to 64 pages a
 * CPU (its per-CPU charge stock), so 8192 elements of 8 bytes (on 581632
 * bytes, off from 8192 to 323584 here and in CI) are too few to tell apart
 * every time; 8192 of 4096 bytes charge 34 MB.
 */
TEST(prealloc_memcg)
{
	uint64_t on = 0, off = 0;
	char why[384] = "";
	int err;

	NEED_ROOT();
	err = setup_charge("prealloc=on", &on, why, sizeof(why));
	if (err == -ENOENT)
		SKIP(why);
	if (!err)
		err = setup_charge("prealloc=off", &off, why, sizeof(why));
	if (err)
		CHECK_FAIL_("%d (%s)", err, why);
	printf("# charged by setup: prealloc on %llu, off %llu bytes\n",
	       (unsigned long long)on, (unsigned long long)off);
	CHECK(off > 0);
	/* half the elements' values: far above the batches' noise, far below the whole */
	CHECK(on > off + 8192 * 2048);
}

/*
 * One point through the runner, as a run measures it (its memory cgroup,
 * its gauges): 3 intervals of 20 ms.  The last interval's gauges in v.
 */
static int runner_gauges(const char *value_size, const char *prealloc, uint64_t *v, char *why,
			 size_t len)
{
	struct experiment exp = { .group = -1 };
	struct sweep_cfg cfg = {
		.name = "split", .wl = wl, .duration_ns = 60000000, .interval_ns = 20000000,
		.repeat = 1, .exps = &exp, .nr_exps = 1,
	};
	struct point pt = { 0 };
	struct point_result *res = NULL;
	struct plan pl = { 0 };
	int nr_run, err;

	if (!point_set(wl, &pt.wp, value_size, prealloc, NULL))
		return -EINVAL;
	err = runner_run(&cfg, &pl, &pt, 1, NULL, NULL, &res, &nr_run);
	if (!err && (res->status != PS_OK || !res->nr_iv))
		err = -EIO;
	if (!err)
		memcpy(v, res->iv[res->nr_iv - 1].value, sizeof(res->iv[0].value));
	if (res)
		snprintf(why, len, "%s", res->reason);
	point_results_free(res, 1);
	return err;
}

static bool within(uint64_t a, uint64_t b, uint64_t slack)
{
	return a <= b + slack && b <= a + slack;
}

/*
 * The split of the cgroup's kernel memory: kmem_other is kmem less the
 * map's memlock, sample by sample; a preallocated map 8192 x 4 KiB larger
 * grows memlock by that and the cgroup's kmem by as much, while the other
 * charges (program, BTF, small maps, stacks) stay where they were.
 */
TEST(memory_split)
{
	uint64_t small[WL_MAX_METRICS], big[WL_MAX_METRICS], grown, charged;
	char why[384] = "";
	int err;

	NEED_ROOT();
	err = runner_gauges("value_size=8", "prealloc=on", small, why, sizeof(why));
	if (!err)
		err = runner_gauges("value_size=4096", "prealloc=on", big, why, sizeof(why));
	if (err)
		CHECK_FAIL_("%d (%s)", err, why);
	if (small[M_KMEM] == METRIC_UNKNOWN)
		SKIP(why[0] ? why : "no kernel memory figure from the memory cgroup");
	printf("# value 8: kmem %llu = memlock %llu + other %llu; value 4096: %llu = %llu + %llu\n",
	       (unsigned long long)small[M_KMEM], (unsigned long long)small[M_MEMLOCK],
	       (unsigned long long)small[M_KMEM_OTHER], (unsigned long long)big[M_KMEM],
	       (unsigned long long)big[M_MEMLOCK], (unsigned long long)big[M_KMEM_OTHER]);
	CHECK(small[M_KMEM] >= small[M_MEMLOCK] && big[M_KMEM] >= big[M_MEMLOCK]);
	CHECK_INT(small[M_KMEM_OTHER], small[M_KMEM] - small[M_MEMLOCK]);
	CHECK_INT(big[M_KMEM_OTHER], big[M_KMEM] - big[M_MEMLOCK]);
	grown = big[M_MEMLOCK] - small[M_MEMLOCK];
	charged = big[M_KMEM] - small[M_KMEM];
	/* 8192 elements, each 4088 bytes larger */
	CHECK(within(grown, 8192ULL * 4088, 8192ULL * 4088 / 10));
	CHECK(within(charged, grown, grown / 20));
	CHECK(within(big[M_KMEM_OTHER], small[M_KMEM_OTHER], 256 * 1024));
	/* memory.current holds the map too, and the per-CPU stock besides */
	CHECK(big[M_MEM] + 256 * 1024 >= big[M_KMEM]);
}

/*
 * No pair can wedge when its sides cannot run at once: 4 add/delete pairs
 * all on one CPU (the threads inherit this thread's affinity) each take
 * turns, every producer makes steps, each pair's counts a step apart.
 */
TEST(pairs_on_one_cpu)
{
	cpu_set_t one, saved;
	char why[384] = "";
	struct wl_point pt;
	struct run r;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "use_case=add_del_on_diff_cpu", "producers=8", NULL));
	CHECK_INT(sched_getaffinity(0, sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	CHECK_INT(sched_setaffinity(0, sizeof(one), &one), 0);
	err = run_point(&pt, &r, why, sizeof(why));
	sched_setaffinity(0, sizeof(saved), &saved);
	if (err)
		CHECK_FAIL_("setup: %d (%s)", err, why);
	CHECK_INT(r.err, 0);
	printf("# 4 pairs on one CPU: %.2f k ops/s per producer\n",
	       r.counts[M_OPS] / 8.0 / RUN_MS);
	for (int i = 0; i < 8; i += 2) {
		if (!r.thread_counts[i] || !r.thread_counts[i + 1])
			CHECK_FAIL_("pair %d: %llu and %llu ops", i / 2,
				    (unsigned long long)r.thread_counts[i],
				    (unsigned long long)r.thread_counts[i + 1]);
		CHECK(r.thread_counts[i] - r.thread_counts[i + 1] <= 1);
	}
}

/* validate, then setup: the same refusal, at the parameter at fault, in the bench's words. */
TEST(odd_producers)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[384] = "";
	void *state = NULL;
	int param = -1;

	CHECK(point_set(wl, &pt, "use_case=add_del_on_diff_cpu", "producers=3", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), -EINVAL);
	CHECK_INT(param, param_index(wl->params, wl->nr_params, "producers"));
	CHECK_STR(why, "add_del_on_diff_cpu needs an even number of producers");
	why[0] = '\0';
	CHECK_INT(wl->setup(&pt, &state, &thr, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "add_del_on_diff_cpu needs an even number of producers");
	/* the other use cases take any count */
	CHECK(point_set(wl, &pt, "use_case=overwrite", "producers=3", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), 0);
	CHECK(point_set(wl, &pt, "use_case=add_del_on_diff_cpu", "producers=4", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), 0);
}

/* An explicit max_entries must hold 64 keys per producer (per pair when paired). */
TEST(small_max_entries)
{
	struct wl_point pt;
	char why[384] = "";
	int param = -1;

	CHECK(point_set(wl, &pt, "producers=4", "max_entries=255", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), -EINVAL);
	CHECK_INT(param, param_index(wl->params, wl->nr_params, "max_entries"));
	CHECK(point_set(wl, &pt, "producers=4", "max_entries=256", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), 0);
	CHECK(point_set(wl, &pt, "use_case=add_del_on_diff_cpu", "producers=4", "max_entries=128",
			 NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), 0);
}

/* Exactly as many entries as keys: every step still runs, none left over. */
TEST(exact_max_entries)
{
	struct wl_point pt;
	struct run r;
	char why[384] = "";

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "prealloc=on", "max_entries=128", NULL));
	CHECK_INT(run_point(&pt, &r, why, sizeof(why)), 0);
	CHECK_INT(r.err, 0);
	CHECK(r.thread_counts[0] > 0 && r.thread_counts[1] > 0);
}

/*
 * Only threads that produce() count: another process's getpgid(), and
 * this process's own from a thread that is no producer, run no step.
 */
TEST(other_threads_do_not_count)
{
	uint64_t idle[WL_MAX_METRICS] = { 0 }, own[WL_MAX_METRICS] = { 0 };
	struct wl_threads thr;
	struct wl_point pt;
	char why[384] = "";
	void *state;
	pid_t child;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, NULL));
	child = spawn_getpgid_loop(0);
	CHECK(child > 0);
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (!err) {
		sleep_ms(RUN_MS);
		wl->sample(state, idle, NULL);
		syscall(SYS_getpgid, 0);
		wl->sample(state, own, NULL);
		wl->teardown(state);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (err)
		CHECK_FAIL_("setup: %d (%s)", err, why);
	CHECK_INT(idle[M_OPS], 0);
	CHECK_INT(own[M_OPS], 0);
}

struct lone {
	void *state;
	atomic_bool stop;
	atomic_bool done;
	int err;
};

static void *lone_adder(void *arg)
{
	struct lone *l = arg;

	l->err = wl->produce(l->state, 0, &l->stop);
	atomic_store(&l->done, true);
	return NULL;
}

/*
 * An adder whose deleter never started (the runner could not start it)
 * makes its one step, waits its turn, and returns once stop() is called.
 */
TEST(stop_wakes_lone_adder)
{
	uint64_t counts[WL_MAX_METRICS] = { 0 };
	struct lone l = { 0 };
	struct wl_threads thr;
	struct wl_point pt;
	char why[384] = "";
	pthread_t t;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "use_case=add_del_on_diff_cpu", NULL));
	CHECK_INT(wl->setup(&pt, &l.state, &thr, why, sizeof(why)), 0);
	CHECK_INT(pthread_create(&t, NULL, lone_adder, &l), 0);
	sleep_ms(RUN_MS);
	wl->sample(l.state, counts, NULL);
	atomic_store(&l.stop, true);
	wl->stop(l.state);
	for (int i = 0; i < 100 && !atomic_load(&l.done); i++)
		sleep_ms(10);
	/* a thread still blocked cannot be joined: fail without tearing down under it */
	if (!atomic_load(&l.done))
		CHECK_FAIL_("the adder did not return after stop()");
	pthread_join(t, NULL);
	wl->teardown(l.state);
	CHECK_INT(l.err, 0);
	CHECK_INT(counts[M_OPS], 1);
}

/* Every point of the spec's kind is one this kernel can make; setup and teardown leak no fd. */
TEST(probe_and_no_fd_leak)
{
	char why[384] = "";
	int before, after;

	NEED_ROOT();
	before = count_fds();
	for (size_t i = 0; i < sizeof(use_cases) / sizeof(use_cases[0]); i++) {
		for (int pre = 0; pre < 2; pre++) {
			char set_uc[64];
			struct wl_threads thr;
			struct wl_point pt;
			void *state;

			snprintf(set_uc, sizeof(set_uc), "use_case=%s", use_cases[i]);
			CHECK(point_set(wl, &pt, set_uc, pre ? "prealloc=on" : "prealloc=off",
					 "value_size=4096", NULL));
			if (wl->probe(&pt, why, sizeof(why)))
				CHECK_FAIL_("probe %s: %s", set_uc, why);
			CHECK_INT(wl->setup(&pt, &state, &thr, why, sizeof(why)), 0);
			wl->teardown(state);
		}
	}
	after = count_fds();
	CHECK_INT(after, before);
}

/*
 * A map past the machine's memory: the probe (one entry) passes, setup
 * fails in libbpf's words, a failure and not "unsupported", leaking no fd.
 */
TEST(too_big_map_fails)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[384] = "";
	void *state = NULL;
	int before, err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "prealloc=on", "value_size=4096", "max_entries=16777216", NULL));
	CHECK_INT(wl->probe(&pt, why, sizeof(why)), 0);
	before = count_fds();
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	printf("# 16M x 4 KiB preallocated: %d (%s)\n", err, why);
	CHECK(err < 0);
	CHECK(!wl_err_is_unsupported(err));
	CHECK(strstr(why, "map 'htab'"));
	CHECK_INT(count_fds(), before);
}

RUN_TESTS(every_use_case, largest_value, prealloc_memlock, prealloc_memcg, memory_split,
	  pairs_on_one_cpu, odd_producers, small_max_entries, exact_max_entries, other_threads_do_not_count, stop_wakes_lone_adder,
	  probe_and_no_fd_leak, too_big_map_fails)
