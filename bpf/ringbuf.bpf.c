// SPDX-License-Identifier: GPL-2.0
/*
 * Producers of the ringbuf workload: every getpgid() made by the benchmark
 * process emits batch_cnt 8-byte records into a BPF ring buffer or a perf
 * buffer, like tools/testing/selftests/bpf/progs/ringbuf_bench.c and
 * perfbuf_bench.c.  User space loads exactly one of the four programs
 * (ring or perf buffer, raw_tp or fentry) and disables the others.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "extra_work.h"

char LICENSE[] SEC("license") = "GPL";

/* max_entries and map_flags (overwrite) are set by user space before load. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} ringbuf SEC(".maps");

/* libbpf sizes it to the number of possible CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perfbuf SEC(".maps");

/* A ring buffer record: 8 bytes of header, 8 bytes of payload. */
#define RECORD_SZ	(BPF_RINGBUF_HDR_SZ + sizeof(long))

/* Load-time knobs: the verifier sees them as constants and prunes dead code. */
const volatile int bench_tgid;
const volatile long getpgid_nr;
const volatile int batch_cnt = 1;
const volatile bool use_output;
/*
 * rb-prod, no consumer: the BPF side counts what it commits.  hits_each
 * does it as the kernel bench (bench_prod in progs/ringbuf_bench.c): an
 * atomic add on the shared counter per record committed; else one add of
 * the batch's count per run, the lighter way (hit_count = plain).
 */
const volatile bool count_hits;
const volatile bool hits_each;
/* An atomic add per failed reserve or output, as the kernel bench; else one per run. */
const volatile bool drop_each;
/* Sampled notifications: wake the consumer once this many records wait; 0: off. */
const volatile long sample_rate;
/*
 * Ring buffer records carry 0, 1, 2, ... instead of sample_val, in the
 * order they are reserved when there is one producer: the overwrite test
 * (tests/integ/test_ringbuf_overwrite.c) checks which ones a reader sees.
 */
const volatile bool number_records;

long sample_val = 42;
/* The next record's number; after a run, how many records were numbered. */
__u64 next_seq;

/*
 * Written by every producer CPU.  Each counter sits on its own pair of
 * cache lines (the adjacent-line prefetcher pulls pairs), as in the kernel
 * bench, so hits and drops do not bounce one line between them.
 */
long hits __attribute__((aligned(128)));
long dropped __attribute__((aligned(128)));

static __always_inline bool from_bench(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

static __always_inline long wakeup_flags(void)
{
	long avail;

	/* no consumer to wake: the kernel bench's rb-prod passes NO_WAKEUP too */
	if (count_hits)
		return BPF_RB_NO_WAKEUP;
	if (!sample_rate)
		return 0;
	avail = bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA);
	return avail >= sample_rate * RECORD_SZ ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * The lighter ways (hit_count = plain, drop_count = batch): one atomic add
 * per counter per batch, not per record, to keep counting off the cache
 * lines we measure.  Not on ok or failed being nonzero: a branch on them
 * makes the verifier track their exact values, and the states of the
 * batch loop then stop pruning (E2BIG at batch_cnt = 500).  The branches
 * on count_hits, hits_each and drop_each are on load-time constants,
 * which the verifier resolves.  With drop_each the failures are already
 * counted, and a locked add of 0 per run would still take the line that
 * every producer writes, which the kernel bench's program does not.
 */
static __always_inline void account(long ok, long failed)
{
	if (count_hits && !hits_each)
		__sync_fetch_and_add(&hits, ok);
	if (!drop_each)
		__sync_fetch_and_add(&dropped, failed);
}

/*
 * A failed reserve or output.  drop_each does what the kernel bench does,
 * an atomic add on the shared line at once: more work under heavy drops,
 * which its published numbers include.  drop_each is a load-time constant,
 * so the verifier keeps one of the two branches.
 */
static __always_inline void drop(long *failed)
{
	if (drop_each)
		__sync_fetch_and_add(&dropped, 1);
	else
		(*failed)++;
}

/* A record committed: hits_each counts it at once, as the kernel bench. */
static __always_inline void committed(long *ok)
{
	if (hits_each)
		__sync_fetch_and_add(&hits, 1);
	else
		(*ok)++;
}

/* A record's payload: sample_val, or its number (one producer: no race). */
static __always_inline long payload(void)
{
	return number_records ? next_seq++ : sample_val;
}


static __always_inline void rb_batch(void)
{
	long ok = 0, failed = 0;
	long *sample, val;

	for (int i = 0; i < batch_cnt; i++) {
		spend_extra_work();
		if (use_output) {
			val = payload();
			if (bpf_ringbuf_output(&ringbuf, &val, sizeof(val), wakeup_flags()))
				drop(&failed);
			else
				committed(&ok);
			continue;
		}
		sample = bpf_ringbuf_reserve(&ringbuf, sizeof(*sample), 0);
		if (!sample) {
			drop(&failed);
			continue;
		}
		*sample = payload();
		bpf_ringbuf_submit(sample, wakeup_flags());
		committed(&ok);
	}
	account(ok, failed);
}

static __always_inline void pb_batch(void *ctx)
{
	long ok = 0, failed = 0;

	for (int i = 0; i < batch_cnt; i++) {
		spend_extra_work();
		if (bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &sample_val,
					  sizeof(sample_val)))
			drop(&failed);
		else
			ok++;
	}
	account(ok, failed);
}

/*
 * raw_tp/sys_enter: args[1] is the syscall number; every syscall passes
 * here.  Read as a plain array, not through vmlinux.h's struct
 * bpf_raw_tracepoint_args, whose preserve_access_index makes the access a
 * CO-RE relocation: libbpf then parses the kernel's 5 MB BTF at every
 * load, 60 ms of each repetition's set-up here (scripts/cost.sh).
 */
static __always_inline __u64 syscall_nr(const void *ctx)
{
	return ((const __u64 *)ctx)[1];
}

SEC("raw_tp/sys_enter")
int rb_raw_tp(void *ctx)
{
	if (syscall_nr(ctx) != getpgid_nr || !from_bench())
		return 0;
	rb_batch();
	return 0;
}

SEC("raw_tp/sys_enter")
int pb_raw_tp(void *ctx)
{
	if (syscall_nr(ctx) != getpgid_nr || !from_bench())
		return 0;
	pb_batch(ctx);
	return 0;
}

/* The target (__x64_sys_getpgid, __arm64_sys_getpgid, ...) is set at run time. */
SEC("fentry")
int rb_fentry(void *ctx)
{
	if (!from_bench())
		return 0;
	rb_batch();
	return 0;
}

SEC("fentry")
int pb_fentry(void *ctx)
{
	if (!from_bench())
		return 0;
	pb_batch(ctx);
	return 0;
}
