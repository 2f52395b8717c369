// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload against the running kernel: real BPF, needs root.
 * Every bench, with either trigger, runs, its program counting every
 * trigger of every producer, or is unsupported with the errno and the
 * kernel's words.  Each prints one line, "# <trigger> <bench>: ok ..." or
 * "# <trigger> <bench>: unsupported: ...": tests/e2e/kernel.sh requires
 * "ok" of every one on the test kernel, where nothing is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "check.h"
#include "integ_util.h"
#include "trigger.h"
#include "wl_run.h"
#include "param.h"
#include "workload.h"

extern const struct workload trigger_workload;

#define RUN_MS		200

static const struct workload *wl = &trigger_workload;

static const char *const benches[] = {
	"base", "tp", "rawtp", "kprobe", "kretprobe", "fentry", "fexit", "fmodret",
};

static const char *const trigs[] = { "user", "kernel" };

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_BENCHES	ARRAY_LEN(benches)
#define NR_TRIGS	ARRAY_LEN(trigs)

/* The kernel trigger's batch: not 1, so that a run that counted once per batch shows */
#define BATCH		"7"

/* The point trigger=t, bench=b, producers=n, batch=BATCH, as a spec would give it. */
static void make_point(struct wl_point *pt, const char *trig, const char *bench, int producers)
{
	char t[32], b[32], n[32];

	snprintf(t, sizeof(t), "trigger=%s", trig);
	snprintf(b, sizeof(b), "bench=%s", bench);
	snprintf(n, sizeof(n), "producers=%d", producers);
	CHECK(point_set(wl, pt, t, b, n, "batch=" BATCH, NULL));
}

#define KERNEL_ENOTSUPP		524	/* the kernel's internal "not supported" */
#define MAX_REFUSALS		4

/*
 * The errnos that say a kernel cannot run a bench, per attach type: its
 * policy refusing it, or the type or target absent.  Any other errno is a
 * failure of the workload or the test, not a refusal.
 */
static const struct refusal {
	const char *bench;
	int errs[MAX_REFUSALS];
} refusals[] = {
	/* libbpf reads the tracepoint's id from tracefs: ENOENT where there is none */
	{ .bench = "tp", .errs = { ENOENT } },
	/* bpf_raw_tp_link_attach(): ENOENT when bpf_get_raw_tracepoint() finds none */
	{ .bench = "rawtp", .errs = { ENOENT } },
	/*
	 * EPERM: __register_trace_kprobe() asks security_locked_down(
	 * LOCKDOWN_KPROBES), which lockdown integrity refuses.  ENOENT: libbpf
	 * without a kprobe PMU writes tracefs's kprobe_events, which a kernel
	 * without kprobe events lacks (this machine); a symbol kprobes cannot
	 * find is ENOENT too.
	 */
	{ .bench = "kprobe", .errs = { EPERM, ENOENT } },
	{ .bench = "kretprobe", .errs = { EPERM, ENOENT } },
	/*
	 * EPERM: the load refused by policy (security_bpf_prog_load(), the
	 * lockdown here).  ESRCH: libbpf's find_kernel_btf_id() finds no such
	 * function in the kernel's BTF.  ENOTSUPP: no trampoline on this
	 * kernel (arch_prepare_bpf_trampoline()'s default).
	 */
	{ .bench = "fentry", .errs = { EPERM, ESRCH, KERNEL_ENOTSUPP } },
	{ .bench = "fexit", .errs = { EPERM, ESRCH, KERNEL_ENOTSUPP } },
	/* and EINVAL: the verifier's "... is not modifiable" (bpf_check_attach_target()) */
	{ .bench = "fmodret", .errs = { EPERM, ESRCH, KERNEL_ENOTSUPP, EINVAL } },
};

/*
 * The kernel trigger's own: its kfunc not in the kernel's BTF (the
 * workload's EOPNOTSUPP before any load, Linux < 6.10), or not callable
 * from raw_tp (the verifier's "calling kernel function ... is not
 * allowed", EACCES).  The user trigger's base attaches nothing: no kernel
 * refuses it.
 */
static const int kernel_trigger_errs[] = { EOPNOTSUPP, EACCES };

/* Do the words after "<attach type>: " begin with errno e's? */
static bool says(const char *words, int e)
{
	return words && !strncmp(words + 2, strerror(e), strlen(strerror(e)));
}

static bool refusal_known(const char *trig, const char *bench, const char *words)
{
	for (size_t i = 0; !strcmp(trig, "kernel") && i < ARRAY_LEN(kernel_trigger_errs); i++)
		if (says(words, kernel_trigger_errs[i]))
			return true;
	for (size_t i = 0; i < ARRAY_LEN(refusals); i++)
		for (int j = 0; !strcmp(refusals[i].bench, bench) && j < MAX_REFUSALS; j++)
			if (refusals[i].errs[j] && says(words, refusals[i].errs[j]))
				return true;
	return false;
}

/*
 * An unsupported bench: an errno the engine takes for "unsupported", and a
 * reason naming the attach type with the words of an errno that means
 * "not supported" for that type (refusals[]), as the kernel (through
 * libbpf) gave them.
 */
static void check_refusal(const char *trig, const char *bench, int err, const char *why)
{
	const char *words = strstr(why, ": ");

	printf("# %s %s: unsupported: %s\n", trig, bench, why);
	CHECK(wl_err_is_unsupported(err));
	CHECK(strstr(why, "task_rename") || strstr(why, "__set_task_comm") ||
	      strstr(why, "security_task_prctl") || strstr(why, "bpf_trigger_tp") ||
	      strstr(why, "bpf_modify_return_test_tp"));
	/* "<attach type>: <the errno's words>": EPERM as it is, an absent point as it was */
	CHECK(words != NULL);
	if (!refusal_known(trig, bench, words))
		CHECK_FAIL_("%s %s: not an errno that means unsupported for it: %s", trig, bench,
			    why);
	if (err == -EPERM)
		CHECK(strstr(why, strerror(EPERM)) == words + 2);
	/* user base attaches nothing: no kernel can refuse it (kernel base needs the kfunc) */
	CHECK(strcmp(bench, "base") != 0 || strcmp(trig, "user") != 0);
}

/*
 * Run the point: every producer counted, the count the sum of theirs, and
 * exactly one event per trigger, but for the runs the kernel says it
 * missed; the kernel trigger issues whole batches.  The sample taken while
 * they ran (trigger_sample()) already had no fewer events than triggers.
 */
static void check_run(const char *trig, const char *bench, int producers)
{
	struct wl_run_result res;
	struct wl_point pt;
	char why[512] = "";
	uint64_t sum = 0;
	int err;

	make_point(&pt, trig, bench, producers);
	err = wl->probe(&pt, why, sizeof(why));
	if (err) {
		check_refusal(trig, bench, err, why);
		/* setup alone says the same */
		CHECK_INT(wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why)), err);
		return;
	}
	/* counted after the join: every trigger has returned, as one event or a miss */
	err = wl_run_point(wl, &pt, RUN_MS, &res, why, sizeof(why));
	if (err) {
		CHECK_FAIL_("%s %s: probe ok, setup %d (%s)", trig, bench, err, why);
		return;
	}
	CHECK_INT(res.thread_err, 0);
	CHECK_INT(res.nr_producers, producers);
	/* while they ran, the sample had no fewer events (and misses) than triggers */
	CHECK(res.counts[1] > 0);
	CHECK(res.counts[0] + res.counts[2] >= res.counts[1]);
	printf("# %s %s: ok x%d %.3f M events/s, %.3f M triggers/s\n", trig, bench, producers,
	       res.joined[0] / (RUN_MS * 1e3), res.joined[1] / (RUN_MS * 1e3));
	for (int i = 0; i < producers; i++) {
		if (res.joined_threads[i] == 0)
			CHECK_FAIL_("%s %s: producer %d without events", trig, bench, i);
		sum += res.joined_threads[i];
	}
	CHECK(res.joined[0] > 0);
	CHECK(sum == res.joined[0]);
	if (!strcmp(trig, "kernel"))
		CHECK_INT(res.joined[1] % atoi(BATCH), 0);
	/* a run the kernel skipped (a nested one) is a trigger without an event */
	if (res.joined[0] + res.joined[2] != res.joined[1])
		CHECK_FAIL_("%s %s x%d: %llu events, %llu missed, %llu triggers", trig, bench,
			    producers, (unsigned long long)res.joined[0],
			    (unsigned long long)res.joined[2], (unsigned long long)res.joined[1]);
	if (res.joined[2])
		printf("# %s %s x%d: %llu runs missed\n", trig, bench, producers,
		       (unsigned long long)res.joined[2]);
}

TEST(every_bench)
{
	NEED_ROOT();
	for (size_t t = 0; t < NR_TRIGS; t++)
		for (size_t i = 0; i < NR_BENCHES; i++)
			check_run(trigs[t], benches[i], 1);
}

TEST(two_producers)
{
	NEED_ROOT();
	for (size_t t = 0; t < NR_TRIGS; t++)
		for (size_t i = 0; i < NR_BENCHES; i++)
			check_run(trigs[t], benches[i], 2);
}

/* Rename the calling thread to name as the producers do; 0 or -errno. */
static int rename_self(const char *name)
{
	return prctl(PR_SET_NAME, name) ? -errno : 0;
}

/*
 * A child renaming itself to producer 0's name until killed; returns once
 * it has done so.  Same name, other process: its renames must not count.
 */
static int rename_loop(const void *name)
{
	return rename_self(name);
}

static pid_t spawn_renamer(const char *name)
{
	return spawn_loop(rename_loop, name);
}

/*
 * With a foreign process renaming itself to producer 0's name all along:
 * nothing counts until we rename ourselves as producer 1, twice, which
 * counts two for producer 1; other names of ours, and the name of a
 * producer the point does not have, count nothing.
 */
static void check_filter(const char *bench)
{
	uint64_t idle[WL_MAX_METRICS], once[WL_MAX_METRICS], other[WL_MAX_METRICS];
	uint64_t per_idle[2], per_once[2], per_other[2];
	char p0[] = TRIGGER_TAG "AA", p1[] = TRIGGER_TAG "BA", p2[] = TRIGGER_TAG "CA";
	char old[32] = "", why[512] = "";
	struct wl_threads thr;
	struct wl_point pt;
	void *state;
	pid_t child;
	int err;

	make_point(&pt, "user", bench, 2);
	if (wl->probe(&pt, why, sizeof(why))) {
		printf("# %s: unsupported, no filter to check\n", bench);
		return;
	}
	CHECK_INT(prctl(PR_GET_NAME, old), 0);
	child = spawn_renamer(p0);
	CHECK(child > 0);
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (!err) {
		sleep_ms(RUN_MS);
		wl->sample(state, idle, per_idle);
		CHECK_INT(rename_self(p1), 0);
		CHECK_INT(rename_self(p1), 0);
		wl->sample(state, once, per_once);
		CHECK_INT(rename_self(p2), 0);
		CHECK_INT(rename_self("bsweep:AAx"), 0);
		CHECK_INT(rename_self("other"), 0);
		wl->sample(state, other, per_other);
		wl->teardown(state);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	rename_self(old);
	if (err) {
		CHECK_FAIL_("%s: setup: %d (%s)", bench, err, why);
		return;
	}
	printf("# %s: filter: %llu %llu %llu\n", bench, (unsigned long long)idle[0],
	       (unsigned long long)once[0], (unsigned long long)other[0]);
	CHECK_INT(idle[0], 0);
	CHECK_INT(once[0], 2);
	CHECK_INT(per_once[0], 0);
	CHECK_INT(per_once[1], 2);
	CHECK_INT(other[0], 2);
	CHECK_INT(per_other[1], 2);
}

/* Another process's rename never counts, nor a name that is no producer's. */
TEST(other_process)
{
	NEED_ROOT();
	/* base counts renames in user space: a filter only where a program counts */
	for (size_t i = 1; i < NR_BENCHES; i++)
		check_filter(benches[i]);
}

/*
 * The kernel trigger's programs count only the driver's kfunc calls: with
 * no producer running, the renames of a foreign process and ours (a
 * producer's name) count nothing, though a program is attached.
 */
static void check_kernel_idle(const char *bench)
{
	uint64_t before[WL_MAX_METRICS], after[WL_MAX_METRICS], per[2];
	char p0[] = TRIGGER_TAG "AA", old[32] = "", why[512] = "";
	struct wl_threads thr;
	struct wl_point pt;
	void *state;
	pid_t child;
	int err;

	make_point(&pt, "kernel", bench, 1);
	if (wl->probe(&pt, why, sizeof(why)))
		return;
	CHECK_INT(prctl(PR_GET_NAME, old), 0);
	child = spawn_renamer(p0);
	CHECK(child > 0);
	err = wl->setup(&pt, &state, &thr, why, sizeof(why));
	if (!err) {
		wl->sample(state, before, per);
		CHECK_INT(rename_self(p0), 0);
		sleep_ms(RUN_MS);
		wl->sample(state, after, per);
		wl->teardown(state);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	rename_self(old);
	if (err) {
		CHECK_FAIL_("kernel %s: setup: %d (%s)", bench, err, why);
		return;
	}
	printf("# kernel %s: idle: %llu %llu\n", bench, (unsigned long long)before[0],
	       (unsigned long long)after[0]);
	CHECK_INT(before[0], 0);
	CHECK_INT(after[0], 0);
}

TEST(kernel_idle)
{
	NEED_ROOT();
	for (size_t i = 1; i < NR_BENCHES; i++)
		check_kernel_idle(benches[i]);
}

/* Setup and teardown of every bench, with either trigger, leave no fd behind. */
TEST(no_fd_leak)
{
	int before, after;

	NEED_ROOT();
	before = count_fds();
	for (size_t i = 0; i < NR_TRIGS * NR_BENCHES; i++) {
		struct wl_threads thr;
		struct wl_point pt;
		char why[512];
		void *state;

		make_point(&pt, trigs[i / NR_BENCHES % NR_TRIGS], benches[i % NR_BENCHES], 1);
		if (!wl->setup(&pt, &state, &thr, why, sizeof(why)))
			wl->teardown(state);
	}
	after = count_fds();
	CHECK_INT(after, before);
}

RUN_TESTS(every_bench, two_producers, other_process, kernel_idle, no_fd_leak)
