/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What trigger's BPF programs and its user space share: the name a
 * producer gives itself, which tells the programs whose rename it is, and
 * the counter slots in .bss.
 */
#ifndef BPF_TRIGGER_H
#define BPF_TRIGGER_H

/* The most producers: the workload's bound, a slot each; a power of 2. */
#define TRIGGER_PRODUCERS	1024

/*
 * Producer i renames itself to TRIGGER_TAG followed by two letters,
 * 'A' + (i & 31) and 'A' + (i >> 5): printable, never NUL (the kernel
 * copies a name up to its first NUL), and read back by the program as
 * the producer's slot.  A rename to anything else does not count.
 */
#define TRIGGER_TAG		"bsweep:"
#define TRIGGER_TAG_LEN		7
#define TRIGGER_NAME_LEN	(TRIGGER_TAG_LEN + 2)
#define TRIGGER_DIGIT		32

/* One producer's count, on its own pair of cache lines (see map_perf.h). */
struct trigger_slot {
	long events;
} __attribute__((aligned(128)));

#endif
