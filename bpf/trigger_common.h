/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What trigger's two BPF objects share (trigger.bpf.c: the renames of
 * trigger=user; trigger_kt.bpf.c: the in-kernel trigger): whose events
 * count and where they are counted.  User space sets the first two before
 * the load and reads the slots of the object it loaded.
 */
#ifndef BPF_TRIGGER_COMMON_H
#define BPF_TRIGGER_COMMON_H

#include "trigger.h"

const volatile int bench_tgid;
const volatile __u32 nr_producers = 1;

/* One writer per slot: a producer's triggers follow one another. */
struct trigger_slot slots[TRIGGER_PRODUCERS];

static __always_inline bool from_bench(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

#endif
