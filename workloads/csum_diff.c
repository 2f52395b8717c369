// SPDX-License-Identifier: GPL-2.0
/*
 * The csum_diff workload: the cost of one bpf_csum_diff() call by buffer
 * size, after the kernel's csum_diff bench (selftests/bpf/benchs/
 * bench_csum_diff.c, seed 004).  Producer threads each loop
 * BPF_PROG_TEST_RUN of a tc program that calls the helper `batch` times
 * on `size` random bytes; test_run runs it `test_repeat` times per syscall.
 *
 * batch = 1, test_repeat = 64 is the seed's method (its producer asks
 * test_run for `.repeat = 64`, its program calls the helper once and counts
 * a hit), which its reviewer showed measures test_run's loop more than the
 * helper: a program run under test_run costs far more than summing 4..512
 * bytes.  batch > 1 shares that cost between calls, and the size effect
 * appears (docs/helpers.md).
 *
 * Counting.  calls = runs x batch, counted in user space per producer, is
 * honest because every run's answer is checked: the program returns the
 * folded sum of its calls, or CSUM_DIFF_FAILED if any call failed, and a
 * run whose answer differs from user space's own sum of the buffer ends
 * the producer with -EIO instead of counting.  Counting on the BPF side
 * would add a shared counter's cache line to what we measure (the
 * program cannot tell producers apart cheaply).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "csum_check.h"
#include "csum_diff.h"
#include "csum_diff.skel.h"
#include "extra_work.h"
#include "libbpf_log.h"
#include "progload.h"
#include "workload.h"

#define CD_MAX_PRODUCERS	64
#define CD_MAX_BATCH		4096	/* the verifier walks every call: keep it small */
#define CD_MAX_REPEAT		100000	/* one syscall stays well under a millisecond */
/* test_run's skb needs an Ethernet header's worth of data; the program never reads it */
#define CD_PKT_LEN		64

enum { P_SIZE, P_BATCH, P_PRODUCERS, P_REPEAT, P_EXTRA_WORK, P_ARM };

static const struct param_def cd_params[] = {
	[P_SIZE]	= { .name = "size", .type = PT_INT, .def = "64", .min = 4,
			    .max = CSUM_DIFF_MAX_SIZE,
			    .help = "bytes bpf_csum_diff() sums per call, a multiple of 4 (the "
				    "seed: 4..512; kernels before 6.13 refuse more than 512)",
			    .rodata = true },
	[P_BATCH]	= { .name = "batch", .type = PT_INT, .def = "1", .min = 1,
			    .max = CD_MAX_BATCH,
			    .help = "helper calls per program run (1: the seed's method, which "
				    "measures test_run's loop more than the helper)",
			    .rodata = true },
	[P_PRODUCERS]	= { .name = "producers", .type = PT_INT, .def = "1", .min = 1,
			    .max = CD_MAX_PRODUCERS,
			    .help = "threads each looping BPF_PROG_TEST_RUN (the bench's -p)" },
	[P_REPEAT]	= { .name = "test_repeat", .type = PT_INT, .def = "64", .min = 1,
			    .max = CD_MAX_REPEAT,
			    .help = "program runs per BPF_PROG_TEST_RUN syscall (test_run's "
				    "repeat; 64: the seed's; not [sweep] repeat, the repetitions "
				    "of a point)" },
	[P_EXTRA_WORK]	= { .name = "extra_work", .type = PT_INT, .def = "0", .min = 0,
			    .max = EXTRA_WORK_MAX,
			    .help = "dependent multiply-adds added to every call: a known cost "
				    "(scripts/power.sh)", .rodata = true },
	/* the same program and settings whatever its value: an A/A pair's two arms */
	[P_ARM]		= { .name = "arm", .type = PT_INT, .def = "0", .min = 0, .max = 1000,
			    .help = "changes nothing: two values are two arms of one setting, "
				    "an A/A comparison (scripts/power.sh)" },
};

enum { M_CALLS, M_RUNS, M_PROG_RUNS, M_PROG_NS };

static const struct metric_def cd_metrics[] = {
	[M_CALLS]	= { .name = "calls", .kind = MK_COUNTER, .unit = "M/s",
			    .per_thread = true, .better = MB_HIGHER },
	[M_RUNS]	= { .name = "runs", .kind = MK_COUNTER, .unit = "M/s",
			    .better = MB_HIGHER },
	[M_PROG_RUNS]	= { .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s",
			    .source = MS_PROG_RUNS,
			    .better = MB_NEITHER },
	[M_PROG_NS]	= { .name = "prog_ns", .kind = MK_COUNTER, .unit = "ms/s",
			    .source = MS_PROG_NS,
			    .better = MB_NEITHER },
	WL_LOAD_METRICS,
};

/* One producer's runs, on a pair of cache lines of its own; one writer. */
struct cd_slot {
	_Atomic uint64_t runs;
} __attribute__((aligned(128)));

struct cd_state {
	struct csum_diff_bpf *skel;
	struct wl_load_stats load;	/* what loading its programs cost */
	int run_fd;
	uint32_t sum;		/* user space's folded sum of the buffer */
	uint64_t batch, repeat;
	int nr_producers;
	struct cd_slot *slots;
};

static const char *kernel_release(struct utsname *u)
{
	if (uname(u))
		snprintf(u->release, sizeof(u->release), "?");
	return u->release;
}

uint16_t csum_fold_ref(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t sum = 0;
	uint16_t w;

	for (size_t i = 0; i + 1 < len; i += 2) {
		memcpy(&w, p + i, sizeof(w));	/* a word in memory order, as csum_partial */
		sum += w;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

/*
 * Two folded sums are the same number in ones' complement arithmetic:
 * 0 and 0xffff are both zero, and an implementation may give either.
 */
static bool csum_same(uint32_t a, uint32_t b)
{
	return a != CSUM_DIFF_FAILED && a % 0xffff == b % 0xffff;
}

static int csum_diff_validate(const struct wl_point *pt, int *param, char *why, size_t len)
{
	if (pt->v[P_SIZE] % 4) {
		*param = P_SIZE;
		snprintf(why, len, "bpf_csum_diff() takes a multiple of 4 bytes "
			 "(kernels before 6.13 refuse others with EINVAL)");
		return -EINVAL;
	}
	if (pt->v[P_BATCH] * pt->v[P_EXTRA_WORK] > EXTRA_WORK_MAX_ROUNDS) {
		*param = P_EXTRA_WORK;
		snprintf(why, len, EXTRA_WORK_TOO_MANY, "batch");
		return -EINVAL;
	}
	return 0;
}

/*
 * Does this kernel give tc programs bpf_csum_diff()?  Load the smallest
 * program that calls it (sum nothing: NULL, 0, NULL, 0, 0) and close it:
 * one syscall.  A kernel without the helper for tc programs refuses it
 * with EINVAL and says why in the verifier's log ("unknown func ...").
 */
static int csum_diff_probe(const struct wl_point *pt, char *why, size_t len)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_5 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_csum_diff },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[4096] = "", verdict[256];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	struct utsname u;
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "csum_probe", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fd = -errno;
	if (fd != -EINVAL)
		return wl_fail(why, len, "load a tc program calling bpf_csum_diff", fd);
	libbpf_log_verdict(log, verdict, sizeof(verdict));
	snprintf(why, len, "bpf_csum_diff in tc programs: not supported by kernel %s: %s",
		 kernel_release(&u), verdict[0] ? verdict : strerror(EINVAL));
	return -EOPNOTSUPP;
}

/* One BPF_PROG_TEST_RUN of prog_fd; its return value in *retval. */
static int run_once(int prog_fd, int repeat, uint32_t *retval)
{
	unsigned char pkt[CD_PKT_LEN] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);
	int err;

	err = bpf_prog_test_run_opts(prog_fd, &opts);
	if (err)
		return err;
	*retval = opts.retval;
	return 0;
}

static int load_skel(struct cd_state *st, const struct wl_point *pt, char *why, size_t len)
{
	int err;

	st->skel = csum_diff_bpf__open();
	if (!st->skel)
		return wl_fail(why, len, "open", -errno);
	st->skel->rodata->size = pt->v[P_SIZE];
	st->skel->rodata->batch = pt->v[P_BATCH];
	st->skel->rodata->extra_work = pt->v[P_EXTRA_WORK];
	err = wl_load_skeleton(st->skel->skeleton, &st->load);
	if (err)
		return wl_fail(why, len, "load", err);
	st->run_fd = bpf_program__fd(st->skel->progs.csum_run);
	return 0;
}

/*
 * The seed's check, before anything is measured: the helper's folded sum
 * of 0xdeadbeefdeadbeef must be `expect` (0x3b3b).
 */
static int check_known_input(struct cd_state *st, uint16_t expect, char *why, size_t len)
{
	uint32_t got;
	int err;

	st->skel->bss->check_buf = CSUM_CHECK_INPUT;
	err = run_once(bpf_program__fd(st->skel->progs.csum_check), 1, &got);
	if (err)
		return wl_fail(why, len, "BPF_PROG_TEST_RUN of the check", err);
	if (got == expect)
		return 0;
	snprintf(why, len, "correctness check: bpf_csum_diff() of 0x%llx folds to 0x%x, "
		 "expected 0x%x", CSUM_CHECK_INPUT, got, expect);
	return -EIO;
}

/*
 * Random bytes of the full range in the buffer, user space's own sum of
 * them, and one run of the benchmark program that must agree.  A helper
 * that refuses the size is the kernel's limit where the size is beyond
 * what kernels before 6.13 take; otherwise a failure.
 */
static int check_buffer(struct cd_state *st, const struct wl_point *pt, char *why, size_t len)
{
	size_t size = pt->v[P_SIZE];
	struct utsname u;
	uint32_t got;
	ssize_t n;
	int err;

	n = getrandom(st->skel->bss->buf, size, 0);
	if (n != (ssize_t)size)	/* at most 4096 bytes of urandom: short only on error */
		return wl_fail(why, len, "getrandom", n < 0 ? -errno : -EIO);
	st->sum = csum_fold_ref(st->skel->bss->buf, size);
	err = run_once(st->run_fd, 1, &got);
	if (err)
		return wl_fail(why, len, "BPF_PROG_TEST_RUN", err);
	if (got == CSUM_DIFF_FAILED && size > 512) {
		snprintf(why, len, "bpf_csum_diff: %zu bytes refused by kernel %s (before 6.13 "
			 "the helper takes at most 512)", size, kernel_release(&u));
		return -EOPNOTSUPP;
	}
	if (got == CSUM_DIFF_FAILED) {
		snprintf(why, len, "bpf_csum_diff() of %zu bytes returned an error", size);
		return -EIO;
	}
	if (!csum_same(got, st->sum)) {
		snprintf(why, len, "correctness check: bpf_csum_diff() of %zu random bytes "
			 "folds to 0x%x, user space's sum is 0x%x", size, got, st->sum);
		return -EIO;
	}
	return 0;
}

static void csum_diff_teardown(void *state)
{
	struct cd_state *st = state;

	csum_diff_bpf__destroy(st->skel);
	free(st->slots);
	free(st);
}

static int prepare(struct cd_state *st, const struct wl_point *pt, uint16_t expect, char *why,
		   size_t len)
{
	size_t n = pt->v[P_PRODUCERS];
	int err;

	/* calloc aligns to 16 bytes, not to the slots' 128 */
	st->slots = aligned_alloc(_Alignof(struct cd_slot), n * sizeof(*st->slots));
	if (!st->slots)
		return -ENOMEM;
	memset(st->slots, 0, n * sizeof(*st->slots));
	/* The engine prints diagnostics, not libbpf: keep its words for the reason. */
	libbpf_log_begin();
	err = load_skel(st, pt, why, len);
	libbpf_log_end();
	if (err) {
		libbpf_log_explain(why, len);
		return err;
	}
	err = check_known_input(st, expect, why, len);
	return err ? err : check_buffer(st, pt, why, len);
}

int csum_diff_setup_expect(const struct wl_point *pt, uint16_t expect, void **state,
			   struct wl_threads *thr, char *why, size_t len)
{
	struct cd_state *st;
	int param, err;

	err = csum_diff_validate(pt, &param, why, len);
	if (err)
		return err;
	err = csum_diff_probe(pt, why, len);
	if (err)
		return err;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->batch = pt->v[P_BATCH];
	st->repeat = pt->v[P_REPEAT];
	st->nr_producers = pt->v[P_PRODUCERS];
	err = prepare(st, pt, expect, why, len);
	if (err) {
		csum_diff_teardown(st);
		return err;
	}
	thr->nr_producers = st->nr_producers;
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

static int csum_diff_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			   char *why, size_t len)
{
	return csum_diff_setup_expect(pt, CSUM_CHECK_EXPECT, state, thr, why, len);
}

/* BPF_PROG_TEST_RUN until stopped; a run counts only with the right answer. */
static int csum_diff_produce(void *state, int idx, const atomic_bool *stop)
{
	struct cd_state *st = state;
	struct cd_slot *s = &st->slots[idx];
	uint64_t runs = 0;
	uint32_t got;
	int err;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		err = run_once(st->run_fd, st->repeat, &got);
		if (err)
			return err;
		if (!csum_same(got, st->sum))
			return -EIO;
		runs += st->repeat;
		atomic_store_explicit(&s->runs, runs, memory_order_relaxed);
	}
	return 0;
}

static int csum_diff_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct cd_state *st = state;
	uint64_t runs = 0;

	for (int i = 0; i < st->nr_producers; i++) {
		uint64_t r = atomic_load_explicit(&st->slots[i].runs, memory_order_relaxed);

		if (thread_counts)
			thread_counts[i] = r * st->batch;
		runs += r;
	}
	counts[M_CALLS] = runs * st->batch;
	counts[M_RUNS] = runs;
	return 0;
}

/*
 * The kernel's count and time of the measured program's runs: test_run
 * times them too, so ns per run is the batch's cost without the syscall.
 */
static int csum_diff_prog_stats(void *state, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	struct cd_state *st = state;

	return wl_prog_stats_sum(&st->run_fd, 1, run_cnt, run_time_ns);
}

const struct workload csum_diff_workload = {
	.name = "csum_diff",
	.help = "bpf_csum_diff() calls per second by buffer size, batched per "
		"BPF_PROG_TEST_RUN (the kernel's csum_diff bench)",
	.params = cd_params,
	.nr_params = sizeof(cd_params) / sizeof(cd_params[0]),
	.metrics = cd_metrics,
	.nr_metrics = sizeof(cd_metrics) / sizeof(cd_metrics[0]),
	.values = "{calls.per_worker} per producer, {calls.ns_per} per call, "
		  "program {prog_ns.per_run}/run",
	.needs_bpf = true,
	.validate = csum_diff_validate,
	.probe = csum_diff_probe,
	.setup = csum_diff_setup,
	.produce = csum_diff_produce,
	.sample = csum_diff_sample,
	.teardown = csum_diff_teardown,
	.prog_stats = csum_diff_prog_stats,
	.load_stats = WL_LOAD_STATS_IN(struct cd_state, load),
};
