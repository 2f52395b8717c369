// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload's BPF side, after the kernel's
 * selftests/bpf/progs/test_overhead.c: one program per attach type on the
 * task rename path (tracepoint task:task_rename, raw_tp task_rename,
 * kprobe, kretprobe, fentry, fexit and fmod_ret on __set_task_comm()),
 * each counting the renames of the benchmark's producers.  User space
 * loads only the point's program (the others' autoload is off), so that an
 * attach type this kernel refuses fails its own points and no other's.
 *
 * test_overhead's programs return at once; ours also filter and count, the
 * same few instructions in every type, so that the count checks the
 * trigger and differences between types remain the attach cost.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "trigger.h"

char LICENSE[] SEC("license") = "GPL";

const volatile int bench_tgid;
const volatile __u32 nr_producers = 1;

/* One writer per slot: a producer's renames follow one another. */
struct trigger_slot slots[TRIGGER_PRODUCERS];

static __always_inline bool from_bench(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

/* The producer whose name this is (trigger.h), or -1. */
static __always_inline long producer_of(const unsigned char *name)
{
	const char tag[] = TRIGGER_TAG;
	__u32 lo, hi, idx;

#pragma unroll
	for (int i = 0; i < TRIGGER_TAG_LEN; i++)
		if (name[i] != (unsigned char)tag[i])
			return -1;
	lo = name[TRIGGER_TAG_LEN] - 'A';
	hi = name[TRIGGER_TAG_LEN + 1] - 'A';
	if (lo >= TRIGGER_DIGIT || hi >= TRIGGER_DIGIT || name[TRIGGER_NAME_LEN])
		return -1;
	idx = hi * TRIGGER_DIGIT + lo;
	return idx < nr_producers ? idx : -1;
}

/* Count one rename to name, a copy on our stack. */
static __always_inline void count(const unsigned char *name)
{
	long idx = producer_of(name);

	/* idx < nr_producers <= TRIGGER_PRODUCERS, a power of 2: the mask shows the bound */
	if (idx >= 0)
		slots[idx & (TRIGGER_PRODUCERS - 1)].events++;
}

/* A rename to the kernel string buf (the caller's copy of what was written). */
static __always_inline void count_kernel_str(const void *buf)
{
	unsigned char name[TASK_COMM_LEN] = {};

	if (!from_bench())
		return;
	if (bpf_probe_read_kernel(name, TRIGGER_NAME_LEN + 1, buf))
		return;
	count(name);
}

/* The tracepoint's record holds the new name: the counting costs no pointer chase. */
SEC("tp/task/task_rename")
int trig_tp(struct trace_event_raw_task_rename *ctx)
{
	count_kernel_str(ctx->newcomm);
	return 0;
}

/* raw_tp: args[0] the task renamed, args[1] the new name. */
SEC("raw_tp/task_rename")
int trig_rawtp(struct bpf_raw_tracepoint_args *ctx)
{
	count_kernel_str((const void *)ctx->args[1]);
	return 0;
}

SEC("kprobe/__set_task_comm")
int BPF_KPROBE(trig_kprobe, struct task_struct *tsk, const char *buf, bool exec)
{
	count_kernel_str(buf);
	return 0;
}

/*
 * At return the arguments are gone, but a producer renames itself: the
 * current task's name is now the new one.
 */
SEC("kretprobe/__set_task_comm")
int BPF_KRETPROBE(trig_kretprobe)
{
	unsigned char name[TASK_COMM_LEN] = {};

	if (!from_bench() || bpf_get_current_comm(name, sizeof(name)))
		return 0;
	count(name);
	return 0;
}

SEC("fentry/__set_task_comm")
int BPF_PROG(trig_fentry, struct task_struct *tsk, const char *buf, bool exec)
{
	count_kernel_str(buf);
	return 0;
}

SEC("fexit/__set_task_comm")
int BPF_PROG(trig_fexit, struct task_struct *tsk, const char *buf, bool exec)
{
	count_kernel_str(buf);
	return 0;
}

/* 0: the function runs as if no program were there. */
SEC("fmod_ret/__set_task_comm")
int BPF_PROG(trig_fmodret, struct task_struct *tsk, const char *buf, bool exec)
{
	count_kernel_str(buf);
	return 0;
}
