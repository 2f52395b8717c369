// SPDX-License-Identifier: GPL-2.0
/*
 * The htab_mem workload's BPF side, after the kernel's
 * selftests/bpf/progs/htab_mem_bench.c: each getpgid() of a producer of
 * the benchmark process is one step of 64 operations on the producer's own
 * keys of a hash map, done in a bpf_loop() as the bench does.
 *
 * The bench attaches to tp/syscalls/sys_enter_getpgid (and getppid for its
 * deleting threads) and keys each producer's part of the map by CPU, since
 * it pins producer i to CPU i.  Here one program on raw_tp/sys_enter,
 * filtered to getpgid and our tgid, needs no tracefs; the part of the map
 * and the role (adder or deleter) follow from the producer's index, which
 * the program finds by thread id in producer_of, so the keys stay apart
 * however the threads are placed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "htab_mem.h"

char LICENSE[] SEC("license") = "GPL";

/* User space sets value_size, max_entries and map_flags before load. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} htab SEC(".maps");

/*
 * Thread id -> producer index, written by each producer before its first
 * step.  Preallocated (user space sizes it to the producer count): a map
 * without preallocation would bring its own allocator caches into the
 * memory the point measures.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, HTAB_MEM_MAX_PRODUCERS);
} producer_of SEC(".maps");

/* Load-time knobs: the verifier sees them as constants and prunes the other use cases. */
const volatile int bench_tgid;
const volatile long getpgid_nr;
const volatile __u32 nr_producers = 1;
const volatile __u32 use_case = HM_OVERWRITE;

/* Every update writes (the first value_size bytes of) this, as the bench does. */
unsigned char zeroed_value[HTAB_MEM_MAX_VALUE];

/*
 * Operations per producer, in the bench's units: one per step of 64, two
 * for a step that adds and then deletes.  A slot has one writer, its
 * producer's thread, so a plain add suffices; the bench's single shared
 * counter bounces between CPUs as much as these packed slots do.
 */
__u64 op_cnt[HTAB_MEM_MAX_PRODUCERS];

/* The keys of one step: first, first + stride, ... (64 of them). */
struct step {
	__u32 key;
	__u32 stride;
};

static long update_any(__u64 i, void *ctx)
{
	struct step *s = ctx;

	bpf_map_update_elem(&htab, &s->key, zeroed_value, BPF_ANY);
	s->key += s->stride;
	return 0;
}

static long update_new(__u64 i, void *ctx)
{
	struct step *s = ctx;

	bpf_map_update_elem(&htab, &s->key, zeroed_value, BPF_NOEXIST);
	s->key += s->stride;
	return 0;
}

static long delete(__u64 i, void *ctx)
{
	struct step *s = ctx;

	bpf_map_delete_elem(&htab, &s->key);
	s->key += s->stride;
	return 0;
}

/*
 * One step of producer idx; the operations it counts.  Producers own the
 * keys idx + k * nr_producers; in add_del_on_diff_cpu the pair idx / 2
 * owns pair + k * (nr_producers / 2), which the even one adds and the odd
 * one deletes (user space alternates them).
 */
static __always_inline __u64 do_step(__u32 idx)
{
	struct step s = { idx, nr_producers };

	switch (use_case) {
	case HM_OVERWRITE:
		bpf_loop(HTAB_MEM_OP_BATCH, update_any, &s, 0);
		return 1;
	case HM_BATCH_ADD_BATCH_DEL:
		bpf_loop(HTAB_MEM_OP_BATCH, update_any, &s, 0);
		s.key = idx;
		bpf_loop(HTAB_MEM_OP_BATCH, delete, &s, 0);
		return 2;
	default:
		s.key = idx / 2;
		s.stride = nr_producers / 2;
		if (idx & 1)
			bpf_loop(HTAB_MEM_OP_BATCH, delete, &s, 0);
		else
			bpf_loop(HTAB_MEM_OP_BATCH, update_new, &s, 0);
		return 1;
	}
}

/*
 * raw_tp/sys_enter: args[1] is the syscall number; every syscall passes
 * here.  Read as a plain array: vmlinux.h's struct would make it a CO-RE
 * relocation, and libbpf parse the kernel's BTF at every load
 * (docs/architecture.md, "The cost of a point").
 */
SEC("raw_tp/sys_enter")
int htab_mem_step(void *ctx)
{
	__u32 tid, *slot, idx;

	if (((const __u64 *)ctx)[1] != getpgid_nr || (bpf_get_current_pid_tgid() >> 32) != bench_tgid)
		return 0;
	tid = (__u32)bpf_get_current_pid_tgid();
	slot = bpf_map_lookup_elem(&producer_of, &tid);
	/* not a producer (yet): the sampler's or a test's own getpgid() */
	if (!slot)
		return 0;
	idx = *slot;
	if (idx >= HTAB_MEM_MAX_PRODUCERS)
		return 0;
	op_cnt[idx] += do_step(idx);
	return 0;
}
