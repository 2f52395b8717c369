/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the profiler's BPF program (profile.bpf.c) and its user side
 * (adapters/stacksampler.c) share: the key of a counted stack and the
 * reasons a sample is lost.
 */
#ifndef BPF_PROFILE_H
#define BPF_PROFILE_H

#define PROF_COMM_LEN		16
#define PROF_MAX_DEPTH		127	/* the kernel's PERF_MAX_STACK_DEPTH */

/* One counted stack: the task and its kernel stack. */
struct prof_key {
	__u32 pid;		/* the thread group; 0 for the idle task */
	__s32 kstack;		/* stack map id, or -EFAULT: the sample was in user mode */
	char comm[PROF_COMM_LEN];
};

/* The lost counters, a global array indexed by these. */
enum prof_lost {
	PROF_LOST_KSTACK,	/* bpf_get_stackid failed on a kernel stack: map full, collision */
	PROF_LOST_COUNTS,	/* the count map was full */
	NR_PROF_LOST
};

#endif
