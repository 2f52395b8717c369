// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload's BPF side for trigger=user, after the kernel's
 * selftests/bpf/progs/test_overhead.c: one program per attach type on the
 * path of prctl(PR_SET_NAME) (tracepoint task:task_rename, raw_tp
 * task_rename, kprobe, kretprobe, fentry and fexit on __set_task_comm(),
 * fmod_ret on security_task_prctl()), each counting the renames of the
 * benchmark's producers (the in-kernel trigger's are in trigger_kt.bpf.c).
 * User space loads only the point's program (the others' autoload is
 * off), so that an attach type this kernel refuses fails its own points
 * and no other's.
 *
 * No CO-RE relocation and no kfunc: with either, libbpf parses the
 * kernel's 5 MB BTF at every load, which made a point's load 190-220 ms
 * here against 2.5 ms without (medians, docs/architecture.md), for tp,
 * raw_tp and kprobe points that need none of it.  So the raw tracepoint's arguments are a plain array,
 * a kprobe's registers are read at ptrace's fixed offsets, and the
 * tracepoint's newcomm at the offset its tracefs format gives (user space
 * reads it).  fentry, fexit and fmod_ret still have libbpf read the BTF:
 * it finds their attach target there.
 *
 * test_overhead's programs return at once; ours also filter and count, the
 * same few instructions in every type, so that the count checks the
 * trigger and differences between types remain the attach cost.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "regs_parm2.h"
#include "trigger_common.h"

#define PR_SET_NAME	15	/* uapi linux/prctl.h, not in vmlinux.h */

char LICENSE[] SEC("license") = "GPL";

/*
 * Where task:task_rename's record holds newcomm: from the event's tracefs
 * format, set by user space (28 in 5.10 to 6.18, after pid and oldcomm).
 */
const volatile __u32 newcomm_off = 28;

/*
 * A kprobe's context is the saved registers: __set_task_comm(tsk, buf,
 * exec)'s buf, the second argument, is read at ptrace's fixed place
 * (regs_parm2.h).  A kretprobe reads no register.
 */
#ifndef REGS_PARM2_OFF
#error "trigger.bpf.c: the second argument's place in pt_regs for this arch (regs_parm2.h)"
#endif

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
int trig_tp(void *ctx)
{
	count_kernel_str((const char *)ctx + newcomm_off);
	return 0;
}

/* raw_tp: args[0] the task renamed, args[1] the new name. */
SEC("raw_tp/task_rename")
int trig_rawtp(void *ctx)
{
	const __u64 *args = ctx;

	count_kernel_str((const void *)args[1]);
	return 0;
}

SEC("kprobe/__set_task_comm")
int trig_kprobe(void *ctx)
{
	count_kernel_str((const void *)*(const __u64 *)((const char *)ctx + REGS_PARM2_OFF));
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
