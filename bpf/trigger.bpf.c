// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload's BPF side, after the kernel's
 * selftests/bpf/progs/test_overhead.c: one program per attach type on the
 * path of prctl(PR_SET_NAME) (tracepoint task:task_rename, raw_tp
 * task_rename, kprobe, kretprobe, fentry and fexit on __set_task_comm(),
 * fmod_ret on security_task_prctl()), each counting the renames of the
 * benchmark's producers; and one per attach type on the in-kernel
 * trigger (below).  User space loads only the point's program (the
 * others' autoload is off), so that an attach type this kernel refuses
 * fails its own points and no other's.
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

#define PR_SET_NAME	15	/* uapi linux/prctl.h, not in vmlinux.h */

char LICENSE[] SEC("license") = "GPL";

const volatile int bench_tgid;
const volatile __u32 nr_producers = 1;

/* One writer per slot: a producer's triggers follow one another. */
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

/*
 * fmod_ret may only attach to an error-injectable function or a security
 * hook (the verifier says "__set_task_comm() is not modifiable"): this one
 * is the LSM hook prctl() calls before PR_SET_NAME reaches
 * __set_task_comm(), once per call.  The name is still the caller's, in
 * user memory, read as the kernel reads it (strncpy_from_user).  0: the
 * hook runs as if no program were there.
 */
SEC("fmod_ret/security_task_prctl")
int BPF_PROG(trig_fmodret, int option, unsigned long arg2)
{
	unsigned char name[TASK_COMM_LEN] = {};

	if (option != PR_SET_NAME || !from_bench())
		return 0;
	if (bpf_probe_read_user_str(name, sizeof(name), (const void *)arg2) < 0)
		return 0;
	count(name);
	return 0;
}

/*
 * The in-kernel trigger (trigger=kernel), after the kernel's
 * selftests/bpf/progs/trigger_bench.c: each producer runs kt_driver
 * through BPF_PROG_TEST_RUN, which calls the kfunc
 * bpf_modify_return_test_tp() batch_iters times, so that one syscall
 * buys batch_iters events.  The kfunc fires the tracepoint
 * bpf_test_run:bpf_trigger_tp(nonce) and returns nonce, and it is one
 * that fmod_ret may modify: every attach type has its point on it.  The
 * driver passes the producer's index (its test run's context) as nonce,
 * which tells the programs below whose event it is.
 */
const volatile __u32 batch_iters = 1;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

SEC("raw_tp")
int kt_driver(struct bpf_raw_tracepoint_args *ctx)
{
	int nonce = ctx->args[0];

	/* batch_iters is load-time data: the verifier walks the loop that many times */
	for (__u32 i = 0; i < batch_iters; i++)
		bpf_modify_return_test_tp(nonce);
	return 0;
}

/* One event of producer nonce (the driver's context), if it is one of ours. */
static __always_inline void count_nonce(long nonce)
{
	if (!from_bench() || nonce < 0 || nonce >= nr_producers)
		return;
	slots[nonce & (TRIGGER_PRODUCERS - 1)].events++;
}

SEC("tp/bpf_test_run/bpf_trigger_tp")
int kt_tp(struct trace_event_raw_bpf_trigger_tp *ctx)
{
	count_nonce(ctx->nonce);
	return 0;
}

/* raw_tp: args[0] the nonce. */
SEC("raw_tp/bpf_trigger_tp")
int kt_rawtp(struct bpf_raw_tracepoint_args *ctx)
{
	count_nonce((int)ctx->args[0]);
	return 0;
}

SEC("kprobe/bpf_modify_return_test_tp")
int BPF_KPROBE(kt_kprobe, int nonce)
{
	count_nonce(nonce);
	return 0;
}

/* At return the argument is gone, but the kfunc returns it. */
SEC("kretprobe/bpf_modify_return_test_tp")
int BPF_KRETPROBE(kt_kretprobe, int ret)
{
	count_nonce(ret);
	return 0;
}

SEC("fentry/bpf_modify_return_test_tp")
int BPF_PROG(kt_fentry, int nonce)
{
	count_nonce(nonce);
	return 0;
}

SEC("fexit/bpf_modify_return_test_tp")
int BPF_PROG(kt_fexit, int nonce, int ret)
{
	count_nonce(nonce);
	return 0;
}

/* 0: the kfunc runs (and fires its tracepoint) as if no program were there. */
SEC("fmod_ret/bpf_modify_return_test_tp")
int BPF_PROG(kt_fmodret, int nonce)
{
	count_nonce(nonce);
	return 0;
}
