// SPDX-License-Identifier: GPL-2.0
/*
 * The map_perf workload's BPF side, after the kernel's
 * samples/bpf/map_perf_test.bpf.c: every getpgid() made by a worker of
 * the benchmark process does `ops` rounds of update, lookup and
 * delete on the calling thread's key.  map_perf_test attaches with
 * ksyscall (a kprobe); raw_tp works where kprobes are refused (lockdown),
 * at the cost of one program run per syscall of any process, which the
 * filter below ends early.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "map_perf.h"
#include "regs_parm2.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * User space sets type, map_flags and max_entries before load: one
 * declaration serves every map kind (hash, per-CPU hash, LRU, array).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 1000);
} map SEC(".maps");

/* Load-time knobs: the verifier sees them as constants. */
const volatile int bench_tgid;
const volatile long getpgid_nr;
const volatile __u32 max_entries = 1000;
const volatile int ops = 10;
const volatile __u32 nr_workers = 1;
/*
 * Arrays cannot delete: their rounds are update and lookup only.  Their
 * keys must be below max_entries: the thread id is folded into that range,
 * where hash maps take it as it is, as map_perf_test does.
 */
const volatile bool is_array;

/*
 * Counters per worker, read by user space as they grow.  A slot has one
 * writer: the program runs in its worker's syscalls, which follow one
 * another, so a plain add is enough.
 */
struct map_perf_slot slots[MAP_PERF_WORKERS];

static __always_inline bool from_bench(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

/*
 * One round as in map_perf_test's stress_hmap: update, lookup, and delete
 * what the lookup found.  Returns how many calls failed.
 */
static __always_inline long map_round(__u32 *key)
{
	long init_val = 1, failed = 0;

	if (bpf_map_update_elem(&map, key, &init_val, BPF_ANY))
		failed++;
	if (bpf_map_lookup_elem(&map, key) && !is_array && bpf_map_delete_elem(&map, key))
		failed++;
	return failed;
}

/*
 * The syscall's second argument, from the caller's saved registers, at
 * ptrace's fixed place (regs_parm2.h): no CO-RE relocation, so no BTF
 * parse at each load; another arch keeps the CO-RE read.
 */
static __always_inline __u64 syscall_parm2(const void *regs)
{
	__u64 arg = 0;

#ifdef REGS_PARM2_OFF
	bpf_probe_read_kernel(&arg, sizeof(arg), (const char *)regs + REGS_PARM2_OFF);
#else
	/* another arch: CO-RE finds the register, at the cost of the BTF parse */
	arg = PT_REGS_PARM2_CORE_SYSCALL((struct pt_regs *)regs);
#endif
	return arg;
}

/*
 * The calling worker's index: the one its getpgid() carries in the second
 * argument register (see MAP_PERF_TAG), or -1 for a call that is not a
 * worker's.  The index rides in the syscall itself, so that telling workers
 * apart costs one read of the saved registers, where a map from thread id
 * to slot would add a hash lookup to the map work we measure.  A raw_tp's
 * pt_regs pointer is not trusted: the read goes through
 * bpf_probe_read_kernel(), which lockdown=integrity allows.
 */
static __always_inline long worker_idx(const void *regs)
{
	__u64 arg = syscall_parm2(regs);
	__u32 idx = arg & MAP_PERF_IDX_MASK;

	if ((arg & ~MAP_PERF_IDX_MASK) != MAP_PERF_TAG || idx >= nr_workers)
		return -1;
	return idx;
}

/*
 * raw_tp/sys_enter: args[0] the caller's registers, args[1] the syscall
 * number.  Read as a plain array, not through vmlinux.h's struct
 * bpf_raw_tracepoint_args, whose preserve_access_index would make the
 * access a CO-RE relocation (as in ringbuf.bpf.c).
 */
SEC("raw_tp/sys_enter")
int map_raw_tp(void *ctx)
{
	const __u64 *args = ctx;
	struct map_perf_slot *s;
	long failed = 0, idx;
	__u32 key;

	if (args[1] != getpgid_nr || !from_bench())
		return 0;
	idx = worker_idx((const void *)args[0]);
	if (idx < 0)
		return 0;
	/* the thread id, as map_perf_test's key: workers never share one */
	key = (__u32)bpf_get_current_pid_tgid();
	if (is_array)
		key %= max_entries;
	for (int i = 0; i < ops; i++)
		failed += map_round(&key);
	/*
	 * idx < nr_workers <= MAP_PERF_WORKERS, a power of 2: the mask changes
	 * nothing but shows the verifier the bound, which a spill across the
	 * rounds' calls may have lost.
	 */
	s = &slots[idx & (MAP_PERF_WORKERS - 1)];
	s->events++;
	s->errors += failed;
	return 0;
}
