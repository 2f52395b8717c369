// SPDX-License-Identifier: GPL-2.0
/*
 * The ringbuf workload against the running kernel: real BPF, needs root.
 * Each test drives the workload the way sweep/run/runner.c does (setup, start
 * consumers then producers, sample, stop, join, teardown) with its own
 * threads, so it depends on nothing of the engine but the interface.
 * Rates seen are printed as "# ..." lines, for the record.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "check.h"
#include "integ_util.h"
#include "wl_run.h"
#include "kfacts.h"
#include "workload.h"

extern const struct workload ringbuf_workload;

#define RUN_MS		300

static const struct workload *wl = &ringbuf_workload;

static void report(const char *label, const struct wl_run_result *res, int ms)
{
	printf("# %-28s %8.3f M hits/s  %8.3f M drops/s\n", label,
	       res->counts[0] / (ms * 1e3), res->counts[1] / (ms * 1e3));
}

/* Run the point and expect hits; label is what the "# " line says. */
#define EXPECT_HITS(label, ...) do {						\
	struct wl_point pt_;							\
	struct wl_run_result res_;						\
	char why_[256] = "";							\
	int err_;								\
	CHECK(point_set(wl, &pt_, __VA_ARGS__, NULL));				\
	err_ = wl_run_point(wl, &pt_, RUN_MS, &res_, why_, sizeof(why_));	\
	if (err_)								\
		CHECK_FAIL_("%s: setup: %d (%s)", label, err_, why_);		\
	CHECK_INT(res_.thread_err, 0);						\
	report(label, &res_, RUN_MS);						\
	if (res_.counts[0] == 0)						\
		CHECK_FAIL_("%s: no hits", label);				\
} while (0)

TEST(rb_libbpf)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf", "bench=rb-libbpf");
}

TEST(rb_custom)
{
	NEED_ROOT();
	EXPECT_HITS("rb-custom", "bench=rb-custom");
}

TEST(pb_libbpf)
{
	NEED_ROOT();
	EXPECT_HITS("pb-libbpf", "bench=pb-libbpf");
}

TEST(pb_custom)
{
	NEED_ROOT();
	EXPECT_HITS("pb-custom", "bench=pb-custom");
	EXPECT_HITS("pb-custom sampled", "bench=pb-custom", "sampled=on");
	EXPECT_HITS("pb-custom back2back", "bench=pb-custom", "back2back=on");
}

TEST(rb_prod)
{
	NEED_ROOT();
	EXPECT_HITS("rb-prod", "bench=rb-prod");
}

TEST(sampled)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf sampled", "bench=rb-libbpf", "sampled=on");
	EXPECT_HITS("rb-custom sampled", "bench=rb-custom", "sampled=on");
	EXPECT_HITS("pb-libbpf sampled", "bench=pb-libbpf", "sampled=on");
}

TEST(use_output)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf use_output", "bench=rb-libbpf", "use_output=on");
	EXPECT_HITS("rb-custom use_output", "bench=rb-custom", "use_output=on");
	EXPECT_HITS("rb-prod use_output", "bench=rb-prod", "use_output=on");
}

TEST(back2back)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf back2back", "bench=rb-libbpf", "back2back=on");
	EXPECT_HITS("rb-custom back2back", "bench=rb-custom", "back2back=on");
	EXPECT_HITS("pb-libbpf back2back", "bench=pb-libbpf", "back2back=on");
}

TEST(two_producers)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf nr_prod 2", "bench=rb-libbpf", "producers=2");
	EXPECT_HITS("rb-custom nr_prod 2", "bench=rb-custom", "producers=2");
}

/* Both ways of counting the consumer's hits count them. */
TEST(hit_count)
{
	NEED_ROOT();
	EXPECT_HITS("rb-libbpf hit_count plain", "bench=rb-libbpf", "hit_count=plain");
	EXPECT_HITS("rb-custom hit_count plain", "bench=rb-custom", "hit_count=plain");
	EXPECT_HITS("pb-libbpf hit_count atomic", "bench=pb-libbpf", "hit_count=atomic");
	EXPECT_HITS("rb-custom hit_count atomic", "bench=rb-custom", "hit_count=atomic");
}

/*
 * Without a consumer a one-page ring fills at once and then every reserve
 * fails.  Once the producer has returned, each program run has counted
 * batch_cnt attempts, submitted or dropped, whichever way drops are counted.
 */
TEST(drop_count)
{
	static const char *const modes[] = { "drop_count=each", "drop_count=batch" };

	NEED_ROOT();
	for (int i = 0; i < 2; i++) {
		struct wl_run_result res;
		struct wl_point pt;
		char why[256] = "";
		uint64_t attempts;

		CHECK(point_set(wl, &pt, "bench=rb-prod", "ringbuf_sz=4096", "batch_cnt=500",
				modes[i], NULL));
		CHECK_INT(wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why)), 0);
		CHECK_INT(res.thread_err, 0);
		report(modes[i], &res, RUN_MS);
		attempts = res.joined[0] + res.joined[1];
		CHECK(res.joined[1] > 0);
		CHECK(attempts > 0);
		CHECK_INT(attempts % 500, 0);
	}
}

/*
 * Checks needing no kernel: validate refuses the point and names the
 * parameter at fault, and setup, called alone, refuses it the same way.
 */
#define EXPECT_EINVAL(at, reason, ...) do {					\
	struct wl_point pt_;							\
	struct wl_threads thr_;							\
	char why_[256] = "";							\
	void *st_ = NULL;							\
	int param_ = -1;							\
	CHECK(point_set(wl, &pt_, __VA_ARGS__, NULL));				\
	CHECK_INT(wl->validate(&pt_, &param_, why_, sizeof(why_)), -EINVAL);	\
	CHECK_STR(why_, reason);						\
	CHECK_STR(wl->params[param_].name, at);					\
	why_[0] = 0;								\
	CHECK_INT(wl->setup(&pt_, &st_, &thr_, why_, sizeof(why_)), -EINVAL);	\
	CHECK_STR(why_, reason);						\
} while (0)

TEST(invalid_points)
{
	long page = sysconf(_SC_PAGESIZE);
	struct wl_point pb_small_ring;
	char rb_rule[96], pb_rule[96];
	int param = -1;

	CHECK(point_set(wl, &pb_small_ring, "bench=pb-libbpf", "ringbuf_sz=3000", NULL));
	snprintf(rb_rule, sizeof(rb_rule), "ringbuf_sz must be a power of 2 and at least %ld",
		 page);
	snprintf(pb_rule, sizeof(pb_rule), "perfbuf_sz must be a power of 2 and at least %ld",
		 page);
	EXPECT_EINVAL("producers", "back2back needs producers = 1", "back2back=on",
		      "producers=2");
	EXPECT_EINVAL("ringbuf_sz", rb_rule, "ringbuf_sz=3000");
	EXPECT_EINVAL("ringbuf_sz", rb_rule, "ringbuf_sz=2K");
	EXPECT_EINVAL("perfbuf_sz", pb_rule, "bench=pb-libbpf", "perfbuf_sz=12K");
	EXPECT_EINVAL("overwrite", "overwrite applies to ring buffer benches, not pb-*",
		      "bench=pb-libbpf", "overwrite=on");
	EXPECT_EINVAL("back2back", "back2back needs a consumer, and rb-prod has none",
		      "bench=rb-prod", "back2back=on");
	/* each size rule is its bench's: pb-libbpf ignores ringbuf_sz */
	CHECK_INT(wl->validate(&pb_small_ring, &param, rb_rule, sizeof(rb_rule)), 0);
}

TEST(overwrite)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *st = NULL;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "bench=rb-prod", "overwrite=on", NULL));
	err = wl->probe(&pt, why, sizeof(why));
	if (err == -EOPNOTSUPP) {
		printf("# overwrite: %s\n", why);
		CHECK(strstr(why, "BPF_F_RB_OVERWRITE") != NULL);
		why[0] = 0;
		CHECK_INT(wl->setup(&pt, &st, &thr, why, sizeof(why)), -EOPNOTSUPP);
		CHECK(strstr(why, "BPF_F_RB_OVERWRITE") != NULL);
		return;
	}
	CHECK_INT(err, 0);
	EXPECT_HITS("rb-custom overwrite", "bench=rb-custom", "overwrite=on");
	EXPECT_HITS("rb-prod overwrite", "bench=rb-prod", "overwrite=on");
}

/* libbpf's reader ignores overwrite_pos: rb-libbpf refuses overwrite mode, naming libbpf. */
TEST(libbpf_overwrite)
{
	char why[256] = "", want[64];
	struct wl_threads thr;
	struct wl_point pt;
	void *st = NULL;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "bench=rb-libbpf", "overwrite=on", NULL));
	err = wl->probe(&pt, why, sizeof(why));
	if (strstr(why, "not supported by kernel"))
		SKIP(why);
	printf("# %s\n", why);
	CHECK_INT(err, -EOPNOTSUPP);
	snprintf(want, sizeof(want), "rb-libbpf: libbpf %u.%u cannot consume ",
		 libbpf_major_version(), libbpf_minor_version());
	CHECK(strstr(why, want) == why);
	why[0] = 0;
	CHECK_INT(wl->setup(&pt, &st, &thr, why, sizeof(why)), -EOPNOTSUPP);
	CHECK(strstr(why, want) == why);
}

TEST(fentry)
{
	static const char *const fentry_needs[] = {
		"CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", NULL,
	};
	char why[256] = "", probe_why[256] = "", hint[160];
	char expect[256] = "fentry: Operation not permitted";
	struct wl_run_result res;
	struct wl_point pt;
	int err, probe_err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "attach=fentry", NULL));
	/* the probe, asked before the sweep, tells what setup will find */
	probe_err = wl->probe(&pt, probe_why, sizeof(probe_why));
	err = wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why));
	CHECK_INT(probe_err, err);
	if (err) {
		printf("# fentry: %d (%s)\n", err, why);
		CHECK_INT(err, -EPERM);
		CHECK(strstr(why, "fentry") != NULL);
		/* and, where this kernel's facts tell, what refuses it and what to do */
		if (kfacts_eperm_hint(fentry_needs, hint, sizeof(hint)))
			snprintf(expect, sizeof(expect), "fentry: Operation not permitted: %s",
				 hint);
		CHECK_STR(probe_why, expect);
		CHECK(!strchr(probe_why, '\n'));
		return;
	}
	CHECK_INT(res.thread_err, 0);
	report("rb-libbpf fentry", &res, RUN_MS);
	CHECK(res.counts[0] > 0);
}

/* A child that calls getpgid() until killed; returns once it has made its first call. */
/*
 * A program the verifier rejects (a batch past the parameter's bound, which
 * the engine would refuse): the reason carries libbpf's own words, not just
 * an errno, and the verifier's verdict from the load's BPF_LOG_STATS log
 * (progload.c: no instruction trace to cut it short, as libbpf's level-1
 * log of this program was).
 */
TEST(verifier_words_in_reason)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "use_output=on", "sampled=on", NULL));
	/* past the bound point_set() refuses, as the binder does */
	pt.v[param_index(wl->params, wl->nr_params, "batch_cnt")] = 20000;
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	printf("# rejected: %s\n", why);
	if (!err)
		wl->teardown(state);
	CHECK(err < 0);
	CHECK(strstr(why, "(libbpf: prog 'rb_raw_tp': BPF program load failed: ") != NULL);
	CHECK(strstr(why, "; verifier: The sequence of ") != NULL);
}

/* Another process's getpgid() must not count; ours must, batch_cnt records per call. */
TEST(other_process)
{
	uint64_t idle[2] = { 0 }, once[2] = { 0 };
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state;
	pid_t child;
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "bench=rb-prod", "batch_cnt=100", NULL));
	child = spawn_getpgid_loop(0);
	CHECK(child > 0);
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (!err) {
		sleep_ms(RUN_MS);
		wl->sample(state, idle, NULL);
		syscall(SYS_getpgid);
		wl->sample(state, once, NULL);
		wl->teardown(state);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (err)
		CHECK_FAIL_("setup: %d (%s)", err, why);
	CHECK_INT(idle[0], 0);
	CHECK_INT(once[0], 100);
}

/*
 * rb-prod's hits, a fixed number of records: calls getpgid() calls of
 * batch_cnt records each into a ring of ringbuf_sz.  Returns hits and drops.
 */
static void prod_fixed(const char *hit_count, const char *ringbuf_sz, int calls,
		       uint64_t out[2])
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state;
	int err;

	out[0] = out[1] = ~0ULL;
	if (!point_set(wl, &pt, "bench=rb-prod", "batch_cnt=100", hit_count, ringbuf_sz, NULL)) {
		CHECK_FAIL_("%s %s: not a point", hit_count, ringbuf_sz);
		return;
	}
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (err) {
		CHECK_FAIL_("%s: setup: %d (%s)", hit_count, err, why);
		return;
	}
	for (int i = 0; i < calls; i++)
		syscall(SYS_getpgid);
	wl->sample(state, out, NULL);
	wl->teardown(state);
	printf("# rb-prod %s %s, %d x 100 records: hits %llu drops %llu\n", hit_count,
	       ringbuf_sz, calls, (unsigned long long)out[0], (unsigned long long)out[1]);
}

/*
 * rb-prod counts on the BPF side what it commits: by default (hit_count =
 * atomic) an atomic add per record, as the kernel bench's rb-prod; plain
 * adds the batch's count once per run.  Either way hits are exactly the
 * records committed: 25 calls of 100 into a 512 KiB ring (2500 records of
 * 16 bytes fit), and 3 calls into a one-page ring, which holds 4096 / 16 -
 * 1 = 255 records (a reserve fails that would take producer_pos past
 * consumer_pos + size - 1: kernel/bpf/ringbuf.c) and refuses the other 45.
 */
TEST(rb_prod_counts_records)
{
	static const char *const modes[] = { "hit_count=atomic", "hit_count=plain" };
	long page = sysconf(_SC_PAGESIZE);
	char one_page[32];
	uint64_t c[2];

	NEED_ROOT();
	snprintf(one_page, sizeof(one_page), "ringbuf_sz=%ld", page);
	for (int i = 0; i < 2; i++) {
		prod_fixed(modes[i], "ringbuf_sz=512K", 25, c);
		CHECK_INT(c[0], 2500);
		CHECK_INT(c[1], 0);
		prod_fixed(modes[i], one_page, 3, c);
		CHECK_INT(c[0], page / 16 - 1);
		CHECK_INT(c[1], 300 - (page / 16 - 1));
	}
}

/* Setup and teardown, ok or failing, leave no fd behind. */
TEST(no_fd_leak)
{
	static const char *const benches[] = {
		"bench=rb-libbpf", "bench=rb-custom", "bench=pb-libbpf", "bench=rb-prod",
		"bench=pb-custom",
	};
	int before, after;

	NEED_ROOT();
	before = count_fds();
	for (int i = 0; i < 50; i++) {
		const char *attach = i % 5 == 4 ? "attach=fentry" : "attach=raw_tp";
		const char *overwrite = i % 7 == 6 ? "overwrite=on" : "overwrite=off";
		struct wl_threads thr;
		struct wl_point pt;
		char why[256];
		void *state;

		CHECK(point_set(wl, &pt, benches[i % 5], attach, overwrite, NULL));
		if (!wl->setup(&pt, &state, &thr, why, sizeof(why)))
			wl->teardown(state);
	}
	after = count_fds();
	CHECK_INT(after, before);
}

RUN_TESTS(rb_libbpf, rb_custom, pb_libbpf, pb_custom, rb_prod, sampled, use_output, back2back,
	  two_producers, hit_count, drop_count, invalid_points, overwrite, libbpf_overwrite, fentry,
	  verifier_words_in_reason, other_process, rb_prod_counts_records, no_fd_leak)
