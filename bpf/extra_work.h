/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fixed cost a BPF program adds to every record or call: extra_work
 * dependent multiply-adds, real instructions on the CPU that runs it, not
 * a sleep.  The power benchmark (scripts/power.sh, docs/statistics.md)
 * injects a known slowdown with it; 0, the default, adds none, and the
 * verifier, which sees the load-time constant, drops the loop.
 */
#ifndef BPF_EXTRA_WORK_H
#define BPF_EXTRA_WORK_H

/* The most rounds per record or call, a parameter's bound. */
#define EXTRA_WORK_MAX		64
/*
 * The verifier walks every round of every record of a program run: its
 * batch times extra_work rounds may be at most this many (measured here:
 * ringbuf's batch_cnt 512 x 64 loads).
 */
#define EXTRA_WORK_MAX_ROUNDS	32768
/* The validate() reason, with the batch parameter's name for %s. */
#define EXTRA_WORK_TOO_MANY	"%s x extra_work must be at most 32768: the verifier walks " \
				"every round of every call"

#ifdef __bpf__
const volatile int extra_work;

/*
 * Each round depends on the last, and the empty asm keeps the compiler
 * from folding the loop away, so every call costs the same and touches
 * no memory another CPU writes.
 */
static __always_inline void spend_extra_work(void)
{
	long acc = 1;

	for (int k = 0; k < extra_work; k++) {
		acc = acc * 31 + k;
		asm volatile("" : "+r"(acc));
	}
}
#endif /* __bpf__ */

#endif
