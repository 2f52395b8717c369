// SPDX-License-Identifier: GPL-2.0
/*
 * The ringbuf workload: BPF ring buffer and perf buffer throughput, after
 * the kernel's tools/testing/selftests/bpf/benchs/bench_ringbufs.c.
 *
 * Producer threads call getpgid() in a loop; a BPF program on that syscall
 * (raw_tp/sys_enter filtered to getpgid and to our tgid, or fentry on the
 * syscall function) emits batch_cnt 8-byte records per call.  One consumer
 * thread drains them:
 *   rb-libbpf  libbpf's ring_buffer__poll()
 *   rb-custom  our own consumer over the mmapped ring
 *   pb-libbpf  libbpf's perf buffer, one buffer per CPU
 *   pb-custom  the same buffers, read by our own reader as the bench's
 *   rb-prod    no consumer: the BPF side counts what it submits, by default
 *              an atomic add per record as the kernel bench's rb-prod
 * hits are records consumed (rb-prod: submitted), drops are failed reserves
 * or outputs, both cumulative since setup.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kfacts.h"
#include "extra_work.h"
#include "libbpf_log.h"
#include "progload.h"
#include "ringbuf.skel.h"
#include "ringbuf_consume.h"
#include "perfbuf_consume.h"
#include "workload.h"

/*
 * BPF_F_RB_OVERWRITE (upstream in 6.19) is an enum constant in newer uapi
 * headers, so #ifndef cannot tell whether we have it: use our own name.
 */
#define RB_F_OVERWRITE		(1U << 19)

/* How long a consumer may sleep before it re-checks *stop. */
#define POLL_MS			100

#if defined(__x86_64__)
#define GETPGID_FUNC		"__x64_sys_getpgid"
#elif defined(__aarch64__)
#define GETPGID_FUNC		"__arm64_sys_getpgid"
#elif defined(__s390x__)
#define GETPGID_FUNC		"__s390x_sys_getpgid"
#elif defined(__riscv)
#define GETPGID_FUNC		"__riscv_sys_getpgid"
#else
#define GETPGID_FUNC		"sys_getpgid"
#endif

enum bench { B_RB_LIBBPF, B_RB_CUSTOM, B_PB_LIBBPF, B_RB_PROD, B_PB_CUSTOM };
enum attach { A_RAW_TP, A_FENTRY };

static const char *const rb_benches[] = {
	"rb-libbpf", "rb-custom", "pb-libbpf", "rb-prod", "pb-custom", NULL
};
static const char *const rb_attach[] = { "raw_tp", "fentry", NULL };

enum {
	P_BENCH, P_PRODUCERS, P_BATCH_CNT, P_SAMPLED, P_SAMPLE_RATE, P_USE_OUTPUT,
	P_RINGBUF_SZ, P_PERFBUF_SZ, P_BACK2BACK, P_OVERWRITE, P_ATTACH, P_HIT_COUNT,
	P_DROP_COUNT, P_SAME_CPU, P_EXTRA_WORK,
};

/* How hits and drops are counted: the kernel bench's way first (docs/fidelity.md). */
enum hit_count { HC_ATOMIC, HC_PLAIN };
enum drop_count { DC_EACH, DC_BATCH };

static const char *const rb_hit_counts[] = { "atomic", "plain", NULL };
static const char *const rb_drop_counts[] = { "each", "batch", NULL };

static const struct param_def rb_params[] = {
	[P_BENCH]	= { .name = "bench", .type = PT_ENUM, .def = "rb-libbpf",
			    .choices = rb_benches,
			    .help = "consumer: libbpf ringbuf, own ringbuf reader, libbpf perfbuf, "
				    "none (rb-prod), or own perfbuf reader", .rodata = true },
	[P_PRODUCERS]	= { .name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 1024,
			    .help = "producer threads calling getpgid() in a loop" },
	/* The verifier walks every iteration: past ~4096 it hits its 8192-jump limit. */
	[P_BATCH_CNT]	= { .name = "batch_cnt", .type = PT_INT, .def = "500", .min = 1,
			    .max = 4000,
			    .help = "records per BPF program invocation", .rodata = true },
	[P_SAMPLED]	= { .name = "sampled", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "sampled notifications: wake the consumer every sample_rate "
				    "records", .rodata = true },
	[P_SAMPLE_RATE]	= { .name = "sample_rate", .type = PT_INT, .def = "500", .min = 1,
			    .max = 1 << 30,
			    .help = "records per notification when sampled", .rodata = true },
	[P_USE_OUTPUT]	= { .name = "use_output", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "bpf_ringbuf_output() (a copy) instead of reserve/submit",
			    .rodata = true },
	[P_RINGBUF_SZ]	= { .name = "ringbuf_sz", .type = PT_SIZE, .def = "512K", .min = 1,
			    .max = 1LL << 31,
			    .help = "ring buffer size: a power of 2, at least a page",
			    .rodata = true },
	[P_PERFBUF_SZ]	= { .name = "perfbuf_sz", .type = PT_SIZE, .def = "512K", .min = 1,
			    .max = 1LL << 30,
			    .help = "perf buffer size per CPU (pb-*): a power of 2, at least a "
				    "page" },
	[P_BACK2BACK]	= { .name = "back2back", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "the producer consumes after each trigger (producers = 1, no "
				    "consumer thread)" },
	[P_OVERWRITE]	= { .name = "overwrite", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "ring buffer overwrite mode (BPF_F_RB_OVERWRITE, kernel 6.19+)",
			    .rodata = true },
	[P_ATTACH]	= { .name = "attach", .type = PT_ENUM, .def = "raw_tp",
			    .choices = rb_attach,
			    .help = "raw_tp/sys_enter filtered to getpgid, or fentry on the "
				    "syscall function", .rodata = true },
	[P_HIT_COUNT]	= { .name = "hit_count", .type = PT_ENUM, .def = "atomic",
			    .choices = rb_hit_counts,
			    .help = "hit count: a locked add per record, as the kernel bench "
				    "(rb-prod: on the BPF side's shared counter), or lighter: a "
				    "plain store by the one consumer (rb-prod: one add per batch)",
			    .rodata = true },
	[P_DROP_COUNT]	= { .name = "drop_count", .type = PT_ENUM, .def = "each",
			    .choices = rb_drop_counts,
			    .help = "producer's drop count: an atomic add per failed reserve, as "
				    "the kernel bench, or one per program run", .rodata = true },
	[P_SAME_CPU]	= { .name = "same_cpu", .type = PT_BOOL, .def = "off", .max = 1,
			    .help = "producer and consumer pinned to one CPU, the first allowed "
				    "(the bench's --prod-affinity 0 --cons-affinity 0)" },
	[P_EXTRA_WORK]	= { .name = "extra_work", .type = PT_INT, .def = "0", .min = 0,
			    .max = EXTRA_WORK_MAX,
			    .help = "dependent multiply-adds added to every record: a known cost "
				    "(scripts/power.sh)", .rodata = true },
};

static const struct metric_def rb_metrics[] = {
	{ .name = "hits", .kind = MK_COUNTER, .unit = "M/s", .better = MB_HIGHER },
	{ .name = "drops", .kind = MK_COUNTER, .unit = "M/s", .better = MB_LOWER },
	{ .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS,
	  .better = MB_NEITHER },
	{ .name = "prog_ns", .kind = MK_COUNTER, .unit = "ms/s", .source = MS_PROG_NS,
	  .better = MB_NEITHER },
	WL_LOAD_METRICS,
};

/* rb-custom: the ring as mapped into our address space, and how we wait on it. */
struct custom_ring {
	struct rb_ring ring;
	int epoll_fd;
	int wake_fd;			/* eventfd: .stop wakes the consumer */
};

struct rb_state {
	enum bench bench;
	bool back2back;
	struct ringbuf_bpf *skel;
	struct wl_load_stats load;	/* what loading its programs cost */
	struct bpf_program *prog;
	struct bpf_link *link;
	struct ring_buffer *rb;		/* rb-libbpf */
	struct perf_buffer *pb;		/* pb-libbpf, pb-custom */
	struct custom_ring ring;	/* rb-custom; pb-custom: its wake_fd */
	struct pb_reader pbr;		/* pb-custom */
	bool atomic_hits;		/* hit_count = atomic */
	/* Written by one thread only (the consumer, or the back2back producer). */
	_Alignas(64) _Atomic uint64_t hits;
};

static bool is_ring(enum bench b)
{
	return b != B_PB_LIBBPF && b != B_PB_CUSTOM;
}

/*
 * hit_count = atomic: a locked add per record, the work the kernel bench's
 * consumers do (atomic_inc() per sample) and its published numbers carry.
 * plain: there is one writer, so a relaxed load and store of the sum do,
 * and the consumer's path has no locked instruction per record.
 */
static void hits_add(struct rb_state *st, uint64_t n)
{
	uint64_t v;

	if (st->atomic_hits) {
		while (n--)
			atomic_fetch_add_explicit(&st->hits, 1, memory_order_relaxed);
		return;
	}
	v = atomic_load_explicit(&st->hits, memory_order_relaxed);

	atomic_store_explicit(&st->hits, v + n, memory_order_relaxed);
}

/* What an fentry program needs of the kernel's build, besides BPF: trampolines. */
static const char *const fentry_needs[] = { "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", NULL };

/*
 * A load or attach that failed.  EPERM as root is the kernel refusing, not
 * the user lacking a capability (the engine checked those): name what
 * refuses it on this kernel, lockdown or a missing option of needs, and
 * where to run it instead.
 */
static int load_failed(char *why, size_t len, const char *what, int err,
		       const char *const *needs)
{
	char hint[160];
	size_t n;

	wl_fail(why, len, what, err);
	n = strlen(why);
	if (err == -EPERM && kfacts_eperm_hint(needs, hint, sizeof(hint)) && n < len)
		snprintf(why + n, len - n, ": %s", hint);
	return err;
}

static bool pow2_from(long long v, long long min)
{
	return v >= min && !(v & (v - 1));
}

/* -EINVAL, naming the parameter at fault and why. */
static int invalid(int *param, int at, char *why, size_t len, const char *reason)
{
	*param = at;
	snprintf(why, len, "%s", reason);
	return -EINVAL;
}

/*
 * Combinations no kernel can run.  The reasons leave the values out: the
 * engine shows them with the point, and one reason then covers a range.
 */
static int ringbuf_validate(const struct wl_point *pt, int *param, char *why, size_t len)
{
	enum bench bench = pt->v[P_BENCH];
	long page = sysconf(_SC_PAGESIZE);
	char size_rule[96];

	if (pt->v[P_BACK2BACK] && pt->v[P_PRODUCERS] != 1)
		return invalid(param, P_PRODUCERS, why, len, "back2back needs producers = 1");
	if (pt->v[P_BACK2BACK] && bench == B_RB_PROD)
		return invalid(param, P_BACK2BACK, why, len,
			       "back2back needs a consumer, and rb-prod has none");
	if (pt->v[P_BATCH_CNT] * pt->v[P_EXTRA_WORK] > EXTRA_WORK_MAX_ROUNDS) {
		snprintf(size_rule, sizeof(size_rule), EXTRA_WORK_TOO_MANY, "batch_cnt");
		return invalid(param, P_EXTRA_WORK, why, len, size_rule);
	}
	if (pt->v[P_OVERWRITE] && !is_ring(bench))
		return invalid(param, P_OVERWRITE, why, len,
			       "overwrite applies to ring buffer benches, not pb-*");
	if (is_ring(bench) && !pow2_from(pt->v[P_RINGBUF_SZ], page)) {
		snprintf(size_rule, sizeof(size_rule),
			 "ringbuf_sz must be a power of 2 and at least %ld", page);
		return invalid(param, P_RINGBUF_SZ, why, len, size_rule);
	}
	if (!is_ring(bench) && !pow2_from(pt->v[P_PERFBUF_SZ], page)) {
		snprintf(size_rule, sizeof(size_rule),
			 "perfbuf_sz must be a power of 2 and at least %ld", page);
		return invalid(param, P_PERFBUF_SZ, why, len, size_rule);
	}
	return 0;
}

/*
 * Does the kernel know BPF_F_RB_OVERWRITE?  Create the smallest such ring
 * and close it: one syscall, no state kept, so it is asked again each time.
 */
static int probe_overwrite(char *why, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = RB_F_OVERWRITE);
	struct utsname u;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb_overwrite", 0, 0, getpagesize(), &opts);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd != -EINVAL)
		return wl_fail(why, len, "ringbuf", fd);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(why, len, "BPF_F_RB_OVERWRITE: not supported by kernel %s", u.release);
	return -EOPNOTSUPP;
}

/*
 * rb-libbpf cannot read an overwrite-mode ring.  libbpf's reader
 * (ringbuf_process_ring()) walks from consumer_pos to producer_pos and
 * never looks at overwrite_pos: once the producers lap it, it parses the
 * bytes they overran as records and counts stale, repeated or torn ones,
 * so its rate is wrong rather than slow.  A libbpf reader for overwrite
 * mode was part of the kernel series at first and dropped in its v2; the
 * series merged for 6.19 (feeaf1346f80) benchmarks overwrite mode without
 * a consumer, "since overwrite mode is not yet supported by libbpf for
 * consumer".  No libbpf we know of reads overwrite_pos, so this holds for
 * every version; the reason names the one linked.  When a release gains
 * such a reader, compare libbpf_major/minor_version() with it here.
 */
static int probe_libbpf_overwrite(char *why, size_t len)
{
	snprintf(why, len, "rb-libbpf: libbpf %u.%u cannot consume BPF_F_RB_OVERWRITE rings "
		 "(it ignores overwrite_pos); use rb-custom or rb-prod",
		 libbpf_major_version(), libbpf_minor_version());
	return -EOPNOTSUPP;
}

/* Load the smallest fentry program on the syscall function; 0 or -errno. */
static int load_fentry(char *why, size_t len)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	int id, fd;

	libbpf_log_begin();
	id = libbpf_find_vmlinux_btf_id(GETPGID_FUNC, BPF_TRACE_FENTRY);
	opts.attach_btf_id = id;
	fd = id < 0 ? id : bpf_prog_load(BPF_PROG_TYPE_TRACING, "rb_probe", "GPL", ret0, 2, &opts);
	libbpf_log_end();
	if (id < 0) {
		snprintf(why, len, "fentry: %s not in the kernel's BTF", GETPGID_FUNC);
		return -EOPNOTSUPP;
	}
	if (fd < 0)
		return load_failed(why, len, "fentry", fd, fentry_needs);
	close(fd);
	return 0;
}

/*
 * Can programs attach with fentry?  Lockdown, for one, refuses them (EPERM).
 * The answer cannot change while we run, and finding the function in the
 * kernel's BTF takes tens of ms: ask once per process.
 */
static int probe_fentry(char *why, size_t len)
{
	static char answer_why[256];
	static int answer = 1;		/* not asked yet */

	if (answer == 1)
		answer = load_fentry(answer_why, sizeof(answer_why));
	if (answer)
		snprintf(why, len, "%s", answer_why);
	return answer;
}

/*
 * The engine validated pt before; overwrite mode and fentry depend on the
 * kernel, and rb-libbpf in overwrite mode on libbpf.
 */
static int ringbuf_probe(const struct wl_point *pt, char *why, size_t len)
{
	int err = 0;

	if (pt->v[P_ATTACH] == A_FENTRY)
		err = probe_fentry(why, len);
	if (!err && pt->v[P_OVERWRITE])
		err = probe_overwrite(why, len);
	if (!err && pt->v[P_OVERWRITE] && pt->v[P_BENCH] == B_RB_LIBBPF)
		err = probe_libbpf_overwrite(why, len);
	return err;
}

/* Pick the one program the point needs and keep the rest (and the other map) unloaded. */
static struct bpf_program *choose_prog(struct ringbuf_bpf *skel, enum bench bench, bool fentry)
{
	struct bpf_program *prog, *p;
	bool ring = is_ring(bench);

	if (fentry)
		prog = ring ? skel->progs.rb_fentry : skel->progs.pb_fentry;
	else
		prog = ring ? skel->progs.rb_raw_tp : skel->progs.pb_raw_tp;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == prog);
	bpf_map__set_autocreate(ring ? skel->maps.perfbuf : skel->maps.ringbuf, false);
	return prog;
}

static void set_rodata(struct ringbuf_bpf *skel, const struct wl_point *pt)
{
	skel->rodata->bench_tgid = getpid();
	skel->rodata->getpgid_nr = SYS_getpgid;
	skel->rodata->batch_cnt = pt->v[P_BATCH_CNT];
	skel->rodata->use_output = pt->v[P_USE_OUTPUT];
	skel->rodata->count_hits = pt->v[P_BENCH] == B_RB_PROD;
	skel->rodata->hits_each = pt->v[P_BENCH] == B_RB_PROD && pt->v[P_HIT_COUNT] == HC_ATOMIC;
	skel->rodata->drop_each = pt->v[P_DROP_COUNT] == DC_EACH;
	skel->rodata->sample_rate = pt->v[P_SAMPLED] ? pt->v[P_SAMPLE_RATE] : 0;
	skel->rodata->extra_work = pt->v[P_EXTRA_WORK];
}

static int load_skel(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	bool fentry = pt->v[P_ATTACH] == A_FENTRY;
	struct bpf_map *ringbuf;
	int err;

	st->skel = ringbuf_bpf__open();
	if (!st->skel)
		return wl_fail(why, len, "open", -errno);
	set_rodata(st->skel, pt);
	st->prog = choose_prog(st->skel, st->bench, fentry);

	ringbuf = st->skel->maps.ringbuf;
	err = bpf_map__set_max_entries(ringbuf, pt->v[P_RINGBUF_SZ]);
	if (!err && pt->v[P_OVERWRITE])
		err = bpf_map__set_map_flags(ringbuf, bpf_map__map_flags(ringbuf) | RB_F_OVERWRITE);
	if (err)
		return wl_fail(why, len, "ringbuf", err);

	if (fentry) {
		err = bpf_program__set_attach_target(st->prog, 0, GETPGID_FUNC);
		if (err)
			return wl_fail(why, len, "fentry " GETPGID_FUNC, err);
	}
	err = wl_load_skeleton(st->skel->skeleton, &st->load);
	if (err)
		return load_failed(why, len, fentry ? "fentry" : "load", err,
				   fentry ? fentry_needs : NULL);
	return 0;
}

static int rb_libbpf_sample(void *ctx, void *data, size_t size)
{
	hits_add(ctx, 1);
	return 0;
}

static enum bpf_perf_event_ret pb_libbpf_event(void *ctx, int cpu, struct perf_event_header *e)
{
	/* PERF_RECORD_LOST needs no counting: the BPF side saw the failed output. */
	if (e->type == PERF_RECORD_SAMPLE)
		hits_add(ctx, 1);
	return LIBBPF_PERF_EVENT_CONT;
}

/*
 * The raw perf buffer, as the kernel bench uses: perf_buffer__new() is the
 * same with wakeup_events = 1, and sampled mode needs the attr.
 */
static int open_perfbuf(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.wakeup_events = 1,
	};
	size_t pages = pt->v[P_PERFBUF_SZ] / getpagesize();

	if (pt->v[P_SAMPLED]) {
		attr.sample_period = pt->v[P_SAMPLE_RATE];
		attr.wakeup_events = pt->v[P_SAMPLE_RATE];
	}
	st->pb = perf_buffer__new_raw(bpf_map__fd(st->skel->maps.perfbuf), pages, &attr,
				      pb_libbpf_event, st, NULL);
	if (!st->pb)
		return wl_fail(why, len, "perf_buffer", -errno);
	return 0;
}

static void close_custom(struct custom_ring *r)
{
	if (r->wake_fd >= 0)
		close(r->wake_fd);
	if (r->epoll_fd >= 0)
		close(r->epoll_fd);
	rb_ring_unmap(&r->ring);
}

static int open_custom(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	struct custom_ring *r = &st->ring;
	int map_fd = bpf_map__fd(st->skel->maps.ringbuf);
	struct epoll_event ev = { .events = EPOLLIN };
	int err;

	err = rb_ring_map(&r->ring, map_fd, pt->v[P_RINGBUF_SZ], pt->v[P_OVERWRITE]);
	if (err)
		return wl_fail(why, len, "mmap ringbuf", err);

	r->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epoll_fd < 0)
		return wl_fail(why, len, "epoll", -errno);
	r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wake_fd < 0)
		return wl_fail(why, len, "eventfd", -errno);
	if (epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, map_fd, &ev) ||
	    epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, r->wake_fd, &ev))
		return wl_fail(why, len, "epoll_ctl", -errno);
	return 0;
}

/* pb-custom: the perf buffer as pb-libbpf's, read by our reader, woken by .stop. */
static int open_pb_custom(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	int err = open_perfbuf(st, pt, why, len);

	if (err)
		return err;
	st->ring.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (st->ring.wake_fd < 0)
		return wl_fail(why, len, "eventfd", -errno);
	err = pb_reader_open(&st->pbr, st->pb, st->ring.wake_fd);
	return err ? wl_fail(why, len, "epoll", err) : 0;
}

static int open_consumer(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	switch (st->bench) {
	case B_RB_LIBBPF:
		st->rb = ring_buffer__new(bpf_map__fd(st->skel->maps.ringbuf), rb_libbpf_sample,
					  st, NULL);
		return st->rb ? 0 : wl_fail(why, len, "ring_buffer", -errno);
	case B_RB_CUSTOM:
		return open_custom(st, pt, why, len);
	case B_PB_LIBBPF:
		return open_perfbuf(st, pt, why, len);
	case B_PB_CUSTOM:
		return open_pb_custom(st, pt, why, len);
	case B_RB_PROD:
		break;
	}
	return 0;
}

static void ringbuf_teardown(void *state)
{
	struct rb_state *st = state;

	bpf_link__destroy(st->link);
	ring_buffer__free(st->rb);
	pb_reader_close(&st->pbr);
	perf_buffer__free(st->pb);
	close_custom(&st->ring);
	ringbuf_bpf__destroy(st->skel);
	free(st);
}

static struct rb_state *alloc_state(const struct wl_point *pt)
{
	struct rb_state *st = aligned_alloc(_Alignof(struct rb_state), sizeof(*st));

	if (!st)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->bench = pt->v[P_BENCH];
	st->back2back = pt->v[P_BACK2BACK];
	st->atomic_hits = pt->v[P_HIT_COUNT] == HC_ATOMIC;
	st->ring.epoll_fd = -1;
	st->ring.wake_fd = -1;
	st->pbr.epoll_fd = -1;
	atomic_init(&st->hits, 0);
	return st;
}

static int start_bpf(struct rb_state *st, const struct wl_point *pt, char *why, size_t len)
{
	int err;

	err = load_skel(st, pt, why, len);
	if (err)
		return err;
	err = open_consumer(st, pt, why, len);
	if (err)
		return err;
	st->link = bpf_program__attach(st->prog);
	if (!st->link)
		return load_failed(why, len, "attach", -errno,
				   pt->v[P_ATTACH] == A_FENTRY ? fentry_needs : NULL);
	return 0;
}

static int ringbuf_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			 char *why, size_t len)
{
	struct rb_state *st;
	int err, param;

	/* setup stands alone (the tests call it without the engine): one map create */
	err = ringbuf_validate(pt, &param, why, len);
	if (!err)
		err = ringbuf_probe(pt, why, len);
	if (err)
		return err;
	st = alloc_state(pt);
	if (!st)
		return -ENOMEM;

	/* The engine prints diagnostics, not libbpf: keep its words for the reason. */
	libbpf_log_begin();
	err = start_bpf(st, pt, why, len);
	libbpf_log_end();
	if (err) {
		libbpf_log_explain(why, len);
		goto free_state;
	}

	thr->nr_producers = pt->v[P_PRODUCERS];
	thr->nr_consumers = st->bench == B_RB_PROD || st->back2back ? 0 : 1;
	thr->one_cpu = pt->v[P_SAME_CPU];
	*state = st;
	return 0;

free_state:
	ringbuf_teardown(st);
	return err;
}

static void custom_hit(void *ctx, const void *data, uint32_t len)
{
	hits_add(ctx, 1);
}

/*
 * rb-custom: what the ring holds now.  A normal ring is read until empty
 * and each record counted as it is read, as the kernel bench's consumer
 * does; an overwrite ring at most a ring's size per call, counted after
 * (a callback there would make the reader copy every record).
 */
static void pb_custom_hit(void *ctx)
{
	hits_add(ctx, 1);
}

static int custom_drain(struct rb_state *st)
{
	struct rb_drain_res res = { 0 };
	int err;

	if (!st->ring.ring.overwrite_pos)
		return rb_drain(&st->ring.ring, custom_hit, st, &res);
	err = rb_drain(&st->ring.ring, NULL, NULL, &res);
	hits_add(st, res.records);
	return err;
}

/* Consume whatever is there now, without waiting. */
static int drain(struct rb_state *st)
{
	int n = 0;

	switch (st->bench) {
	case B_RB_LIBBPF:
		n = ring_buffer__consume(st->rb);
		break;
	case B_RB_CUSTOM:
		n = custom_drain(st);
		break;
	case B_PB_LIBBPF:
		n = perf_buffer__consume(st->pb);
		break;
	case B_PB_CUSTOM:
		n = pb_reader_poll(&st->pbr, 0, pb_custom_hit, st);
		break;
	case B_RB_PROD:
		break;
	}
	return n < 0 ? n : 0;
}

/*
 * Wait up to timeout_ms for a notification, then consume, as the kernel
 * bench's consumers do.  Nothing reported drains anyway: with sampled
 * notifications and a buffer smaller than sample_rate records no wakeup
 * ever comes, and the perf buffer only reports after a wakeup, so the point
 * would otherwise stall (the kernel bench refuses such points instead).
 */
static int wait_and_drain(struct rb_state *st, int timeout_ms)
{
	struct epoll_event ev[2];
	int n = 0;

	switch (st->bench) {
	case B_RB_LIBBPF:
		n = ring_buffer__poll(st->rb, timeout_ms);
		break;
	case B_RB_CUSTOM:
		n = epoll_wait(st->ring.epoll_fd, ev, 2, timeout_ms) < 0 ? -errno : 0;
		break;
	case B_PB_LIBBPF:
		n = perf_buffer__poll(st->pb, timeout_ms);
		break;
	case B_PB_CUSTOM:
		/* reads what it was told of, else every ring: no drain() after it */
		n = pb_reader_poll(&st->pbr, timeout_ms, pb_custom_hit, st);
		return n == -EINTR ? 0 : n;
	case B_RB_PROD:
		break;
	}
	if (n == -EINTR)
		return 0;
	if (n < 0)
		return n;
	return n ? 0 : drain(st);
}

/*
 * back2back: the producer consumes right after its trigger.  Like the
 * kernel bench it asks epoll first (here without blocking), so a point
 * pays the same syscalls as there.
 */
static int ringbuf_produce(void *state, int idx, const atomic_bool *stop)
{
	struct rb_state *st = state;
	int err;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		syscall(SYS_getpgid);
		if (!st->back2back)
			continue;
		err = wait_and_drain(st, 0);
		if (err)
			return err;
	}
	return 0;
}

static int ringbuf_consume(void *state, int idx, const atomic_bool *stop)
{
	int err;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		err = wait_and_drain(state, POLL_MS);
		if (err)
			return err;
	}
	return 0;
}

static int ringbuf_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct rb_state *st = state;
	struct ringbuf_bpf__bss *bss = st->skel->bss;

	if (st->bench == B_RB_PROD)
		counts[0] = __atomic_load_n(&bss->hits, __ATOMIC_RELAXED);
	else
		counts[0] = atomic_load_explicit(&st->hits, memory_order_relaxed);
	counts[1] = __atomic_load_n(&bss->dropped, __ATOMIC_RELAXED);
	return 0;
}

/* The producer program's own cost: one run per batch of the bench. */
static int ringbuf_prog_stats(void *state, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	struct rb_state *st = state;
	int fd = bpf_program__fd(st->prog);

	return wl_prog_stats_sum(&fd, 1, run_cnt, run_time_ns);
}

/* Only rb-custom owns its epoll set; the libbpf consumers see *stop within POLL_MS. */
static void ringbuf_stop(void *state)
{
	struct rb_state *st = state;
	uint64_t one = 1;

	if (st->ring.wake_fd >= 0 && write(st->ring.wake_fd, &one, sizeof(one)) < 0)
		return;	/* the timeout wakes the consumer anyway */
}

const struct workload ringbuf_workload = {
	.name = "ringbuf",
	.help = "BPF ring buffer and perf buffer throughput (the kernel's bench_ringbufs.c)",
	.params = rb_params,
	.nr_params = sizeof(rb_params) / sizeof(rb_params[0]),
	.metrics = rb_metrics,
	.nr_metrics = sizeof(rb_metrics) / sizeof(rb_metrics[0]),
	.needs_bpf = true,
	.validate = ringbuf_validate,
	.probe = ringbuf_probe,
	.setup = ringbuf_setup,
	.produce = ringbuf_produce,
	.consume = ringbuf_consume,
	.sample = ringbuf_sample,
	.stop = ringbuf_stop,
	.teardown = ringbuf_teardown,
	.prog_stats = ringbuf_prog_stats,
	.load_stats = WL_LOAD_STATS_IN(struct rb_state, load),
	.prog_runs_scope = "its program runs on every syscall of every process (attach = raw_tp: "
			   "raw_tp/sys_enter; fentry: every getpgid()) and returns at its filter "
			   "on those not its producers' getpgid(): the mean is over all those runs",
};
