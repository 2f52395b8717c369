// SPDX-License-Identifier: GPL-2.0
/*
 * The map_perf workload against the running kernel: real BPF, needs root.
 * Points run through the workload's own setup, produce, sample and
 * teardown with our own threads, as sweep/run/runner.c drives them.  Rates
 * seen are printed as "# ..." lines, for the record.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "integ_util.h"
#include "map_perf.h"
#include "wl_run.h"
#include "param.h"
#include "workload.h"

extern const struct workload map_perf_workload;

#define RUN_MS		200

static const struct workload *wl = &map_perf_workload;

static const char *const kinds[] = {
	"hash", "hash_kmalloc", "percpu_hash", "percpu_hash_kmalloc", "lru_hash", "array",
};

/* The CPUs this process may run on: what workers = all means. */
static int allowed_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? -1 : CPU_COUNT(&set);
}

/* Each worker's events, printed; false unless every worker has some. */
static bool every_worker_counted(const char *label, const struct wl_run_result *res)
{
	bool ok = true;

	for (int i = 0; i < res->nr_producers; i++) {
		printf("#   %d:%s %.0f events per sec\n", i, label,
		       res->thread_counts[i] / (RUN_MS / 1e3));
		ok = ok && res->thread_counts[i] > 0;
	}
	return ok;
}

static uint64_t sum(const uint64_t *v, int n)
{
	uint64_t s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

/*
 * Run the point: events from every run of the program, from every worker,
 * the total the sum of the workers' counts, no map call refused, and as
 * many workers as asked for.
 */
#define EXPECT_EVENTS(label, workers, ...) do {					\
	struct wl_point pt_;							\
	struct wl_run_result res_;					\
	char why_[256] = "";							\
	int err_;								\
	CHECK(point_set(wl, &pt_, __VA_ARGS__, NULL));				\
	err_ = wl_run_point(wl, &pt_, RUN_MS, &res_, why_, sizeof(why_)); \
	if (err_)								\
		CHECK_FAIL_("%s: setup: %d (%s)", label, err_, why_);		\
	CHECK_INT(res_.thread_err, 0);						\
	CHECK_INT(res_.nr_producers, workers);					\
	printf("# %-36s %8.3f M events/s\n", label, res_.counts[0] / (RUN_MS * 1e3)); \
	if (res_.counts[0] == 0)						\
		CHECK_FAIL_("%s: no events", label);				\
	if (!every_worker_counted(label, &res_))				\
		CHECK_FAIL_("%s: a worker without events", label);		\
	CHECK(sum(res_.thread_counts, res_.nr_producers) == res_.counts[0]);	\
	CHECK_INT(res_.counts[1], 0);						\
} while (0)

/* map_perf_test N 1 and N 2 16384 of every kind: its default size and the seed's. */
TEST(every_kind)
{
	char set[64], label[64];

	NEED_ROOT();
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		snprintf(set, sizeof(set), "map=%s", kinds[i]);
		snprintf(label, sizeof(label), "%s", kinds[i]);
		EXPECT_EVENTS(label, 1, set, "workers=1");
		snprintf(label, sizeof(label), "%s max_entries 16384 x2", kinds[i]);
		EXPECT_EVENTS(label, 2, set, "max_entries=16384", "workers=2");
	}
}

/* The default is a worker per allowed CPU, each counted on its own. */
TEST(all_cpus)
{
	int n = allowed_cpus();

	NEED_ROOT();
	CHECK(n > 0);
	if (n > WL_RUN_MAX_THREADS)
		SKIP("more allowed CPUs than the harness runs threads");
	EXPECT_EVENTS("hash_kmalloc 1000 all", n, "map=hash_kmalloc");
	EXPECT_EVENTS("hash_kmalloc 16384 all", n, "map=hash_kmalloc", "max_entries=16384",
		      "workers=all");
}

/*
 * The smallest maps: one worker's key fits a hash map of one entry, and
 * an array's keys fold onto its one entry (no delete, so nothing fails).
 */
TEST(one_entry)
{
	NEED_ROOT();
	EXPECT_EVENTS("hash max_entries 1", 1, "map=hash", "max_entries=1", "workers=1");
	EXPECT_EVENTS("array max_entries 1 x2", 2, "map=array", "max_entries=1", "workers=2");
}

/*
 * Two workers' keys do not fit one entry: the updates the map refuses are
 * errors.  Only while both run at once, which a loaded machine may not
 * grant in one short run: a few runs, until one has errors.
 */
TEST(full_map_errors)
{
	struct wl_point pt;
	struct wl_run_result res;
	char why[256] = "";

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "map=hash", "max_entries=1", "workers=2", NULL));
	for (int run = 0; run < 10; run++) {
		CHECK_INT(wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why)), 0);
		CHECK_INT(res.thread_err, 0);
		printf("# hash max_entries 1 x2: %llu events, %llu errors\n",
		       (unsigned long long)res.counts[0], (unsigned long long)res.counts[1]);
		CHECK(res.counts[0] > 0);
		if (res.counts[1] > 0)
			break;
	}
	CHECK(res.counts[1] > 0);
}

/* The largest ops the parameter allows passes the verifier. */
TEST(most_ops)
{
	char set[32];
	int i = 0;

	NEED_ROOT();
	while (i < wl->nr_params && strcmp(wl->params[i].name, "ops"))
		i++;
	CHECK(i < wl->nr_params);
	snprintf(set, sizeof(set), "ops=%lld", wl->params[i].max);
	EXPECT_EVENTS("hash_kmalloc most ops", 1, "map=hash_kmalloc", set, "workers=1");
}

/*
 * Another process's getpgid() must not count, even with a worker's tag,
 * nor our other syscalls, nor our getpgid() without a tag or with the tag
 * of a worker the point does not have; each of worker 1's getpgid() calls
 * (made here) is one event, and worker 1's.
 */
TEST(other_process)
{
	uint64_t idle[2] = { 0 }, once[2] = { 0 }, other[2] = { 0 };
	uint64_t per_idle[2] = { 0 }, per_once[2] = { 0 }, per_other[2] = { 0 };
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state;
	pid_t child;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "map=hash", "workers=2", NULL));
	child = spawn_getpgid_loop(MAP_PERF_TAG | 0);
	CHECK(child > 0);
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (!err) {
		sleep_ms(RUN_MS);
		wl->sample(state, idle, per_idle);
		syscall(SYS_getpgid, 0, MAP_PERF_TAG | 1);
		syscall(SYS_getpgid, 0, MAP_PERF_TAG | 1);
		wl->sample(state, once, per_once);
		syscall(SYS_getppid);
		syscall(SYS_getpgid, 0, 1);
		syscall(SYS_getpgid, 0, MAP_PERF_TAG | 2);
		wl->sample(state, other, per_other);
		wl->teardown(state);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (err)
		CHECK_FAIL_("setup: %d (%s)", err, why);
	CHECK_INT(idle[0], 0);
	CHECK_INT(per_idle[0] + per_idle[1], 0);
	CHECK_INT(once[0], 2);
	CHECK_INT(per_once[0], 0);
	CHECK_INT(per_once[1], 2);
	CHECK_INT(other[0], 2);
	CHECK_INT(per_other[1], 2);
}

/* The probe asks the kernel for the point's own map: what it cannot make fails. */
TEST(probe)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state = NULL;

	NEED_ROOT();
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		char set[64];

		snprintf(set, sizeof(set), "map=%s", kinds[i]);
		CHECK(point_set(wl, &pt, set, NULL));
		CHECK_INT(wl->probe(&pt, why, sizeof(why)), 0);
	}
	/* past what any kernel preallocates per CPU: a failure, not "unsupported" */
	CHECK(point_set(wl, &pt, "map=percpu_hash", NULL));
	pt.v[1] = 1LL << 31;
	CHECK(wl->probe(&pt, why, sizeof(why)) < 0);
	printf("# huge percpu_hash: %s\n", why);
	CHECK(strstr(why, "BPF_MAP_TYPE_PERCPU_HASH") == why);
	CHECK(wl->setup(&pt, &state, &thr, why, sizeof(why)) < 0);
}

/* Setup and teardown of every kind leave no fd behind. */
TEST(no_fd_leak)
{
	int before, after;

	NEED_ROOT();
	before = count_fds();
	for (int i = 0; i < 30; i++) {
		struct wl_threads thr;
		struct wl_point pt;
		char set[64], why[256];
		void *state;

		snprintf(set, sizeof(set), "map=%s", kinds[i % 6]);
		CHECK(point_set(wl, &pt, set, NULL));
		if (!wl->setup(&pt, &state, &thr, why, sizeof(why)))
			wl->teardown(state);
	}
	after = count_fds();
	CHECK_INT(after, before);
}

RUN_TESTS(every_kind, all_cpus, one_entry, full_map_errors, most_ops, other_process, probe,
	  no_fd_leak)
