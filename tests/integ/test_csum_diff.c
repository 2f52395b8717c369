// SPDX-License-Identifier: GPL-2.0
/*
 * The csum_diff workload against the running kernel: real BPF, needs root.
 * Points run through the workload's own callbacks (wl_run.h), as the
 * runner drives them; rates seen are printed as "# ..." lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "integ_util.h"
#include "wl_run.h"
#include "csum_check.h"
#include "param.h"
#include "workload.h"

extern const struct workload csum_diff_workload;

#define RUN_MS		200

static const struct workload *wl = &csum_diff_workload;

/*
 * Run the point: setup's checks pass, calls from every producer, calls
 * = runs x batch, and no producer saw a wrong answer (-EIO).
 */
static void expect_calls(const char *size, const char *batch, const char *producers,
			 const char *repeat, long long nr_batch, int nr_prod)
{
	struct wl_run_result res;
	struct wl_point pt;
	char why[256] = "";
	uint64_t sum = 0;
	int err;

	CHECK(point_set(wl, &pt, size, batch, producers, repeat, NULL));
	err = wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why));
	if (err) {
		CHECK_FAIL_("%s %s: setup: %d (%s)", size, batch, err, why);
		return;
	}
	CHECK_INT(res.thread_err, 0);
	CHECK_INT(res.nr_producers, nr_prod);
	printf("# %-10s %-10s %-12s %-13s %8.3f M calls/s, %8.3f M runs/s\n", size, batch,
	       producers, repeat, res.counts[0] / (RUN_MS * 1e3), res.counts[1] / (RUN_MS * 1e3));
	CHECK(res.counts[1] > 0);
	CHECK(res.counts[0] == res.counts[1] * nr_batch);
	for (int i = 0; i < res.nr_producers; i++) {
		CHECK(res.thread_counts[i] > 0);
		CHECK(res.thread_counts[i] % nr_batch == 0);
		sum += res.thread_counts[i];
	}
	CHECK(sum == res.counts[0]);
}

/* The reference sum on the seed's input, and on words whose sum carries. */
TEST(reference_sum)
{
	uint64_t seed = CSUM_CHECK_INPUT;
	uint16_t carry[3] = { 0xffff, 0x0001, 0x8000 };
	uint16_t zero[2] = { 0, 0 };

	CHECK_INT(csum_fold_ref(&seed, sizeof(seed)), CSUM_CHECK_EXPECT);
	/* 0xffff + 1 = 0x10000 -> 0x0001, + 0x8000 */
	CHECK_INT(csum_fold_ref(carry, sizeof(carry)), 0x8001);
	CHECK_INT(csum_fold_ref(zero, sizeof(zero)), 0);
}

/* The smallest and largest sizes, the seed's method and batches, two producers. */
TEST(calls_counted)
{
	NEED_ROOT();
	expect_calls("size=4", "batch=1", "producers=1", "test_repeat=1", 1, 1);
	expect_calls("size=512", "batch=1", "producers=1", "test_repeat=1", 1, 1);
	expect_calls("size=64", "batch=16", "producers=2", "test_repeat=1", 16, 2);
	expect_calls("size=512", "batch=128", "producers=1", "test_repeat=1", 128, 1);
	expect_calls("size=4096", "batch=4096", "producers=1", "test_repeat=1", 4096, 1);
	expect_calls("size=20", "batch=128", "producers=1", "test_repeat=100", 128, 1);
}

/*
 * The seed's method by default: 64 program runs per BPF_PROG_TEST_RUN (its
 * producer's `.repeat = 64`), each one call, and `runs` counts program runs
 * as the seed's `hits` did: with the kernel's run-time statistics on, the
 * kernel ran exactly the runs counted, a multiple of 64.
 */
TEST(default_is_the_seeds)
{
	struct wl_worker w[WL_RUN_MAX_THREADS];
	uint64_t counts[WL_MAX_METRICS] = { 0 }, cnt0, cnt1, ns;
	struct wl_threads thr = { 0 };
	atomic_bool stop = false;
	char why[256] = "", how[256];
	struct wl_point pt;
	void *state;
	int err, n;

	CHECK(point_set(wl, &pt, NULL));
	CHECK_INT(pt.v[param_index(wl->params, wl->nr_params, "test_repeat")], 64);
	CHECK_INT(pt.v[param_index(wl->params, wl->nr_params, "batch")], 1);
	NEED_ROOT();
	if (wl_bpf_stats_on(how, sizeof(how)))
		SKIP("the kernel's run-time statistics cannot be turned on");
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (err) {
		CHECK_FAIL_("setup: %d (%s)", err, why);
		wl_bpf_stats_off();
		return;
	}
	/* setup's own check runs (one each) are before cnt0 */
	CHECK_INT(wl->prog_stats(state, &cnt0, &ns), 0);
	n = wl_start_workers(wl, state, &thr, w, &stop);
	sleep_ms(RUN_MS);
	atomic_store(&stop, true);
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		CHECK_INT(w[i].err, 0);
	}
	CHECK_INT(wl->sample(state, counts, NULL), 0);
	CHECK_INT(wl->prog_stats(state, &cnt1, &ns), 0);
	wl->teardown(state);
	wl_bpf_stats_off();
	printf("# default point: %llu runs counted, %llu by the kernel\n",
	       (unsigned long long)counts[1], (unsigned long long)(cnt1 - cnt0));
	CHECK(counts[1] > 0);
	CHECK(counts[1] % 64 == 0);
	CHECK(counts[0] == counts[1]);
	CHECK(cnt1 - cnt0 == counts[1]);
}

/*
 * The correctness check can fail: a wrong expected answer to the seed's
 * input fails the point (a failure, not "unsupported"), with the helper's
 * answer and the expected one in the reason.
 */
TEST(wrong_expected_fails)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state = NULL;
	int err, fds;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, "size=8", NULL));
	fds = count_fds();
	err = csum_diff_setup_expect(&pt, CSUM_CHECK_EXPECT + 1, &state, &thr, why, sizeof(why));
	CHECK_INT(err, -EIO);
	CHECK(!wl_err_is_unsupported(err));
	CHECK(state == NULL);
	CHECK_STR(why, "correctness check: bpf_csum_diff() of 0xdeadbeefdeadbeef folds to "
		  "0x3b3b, expected 0x3b3c");
	/* nothing left open by the failed setup */
	CHECK_INT(count_fds(), fds);

	/* and the right answer passes it */
	err = csum_diff_setup_expect(&pt, CSUM_CHECK_EXPECT, &state, &thr, why, sizeof(why));
	if (err)
		CHECK_FAIL_("setup: %d (%s)", err, why);
	else
		wl->teardown(state);
}

/* A size the helper cannot take is refused before any syscall, at the size. */
TEST(size_not_multiple_of_4)
{
	struct wl_threads thr;
	struct wl_point pt;
	char why[256] = "";
	void *state = NULL;
	int param = -1;

	CHECK(point_set(wl, &pt, "size=6", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), -EINVAL);
	CHECK_STR(wl->params[param].name, "size");
	CHECK_INT(wl->setup(&pt, &state, &thr, why, sizeof(why)), -EINVAL);
	CHECK(point_set(wl, &pt, "size=8", NULL));
	CHECK_INT(wl->validate(&pt, &param, why, sizeof(why)), 0);
}

/* This kernel gives tc programs the helper: the probe says so. */
TEST(probe)
{
	struct wl_point pt;
	char why[256] = "";
	int err;

	NEED_ROOT();
	CHECK(point_set(wl, &pt, NULL));
	err = wl->probe(&pt, why, sizeof(why));
	if (err)
		CHECK_FAIL_("probe: %d (%s)", err, why);
}

RUN_TESTS(reference_sum, calls_counted, default_is_the_seeds, wrong_expected_fails, size_not_multiple_of_4, probe)
