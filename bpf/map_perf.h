/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What map_perf's BPF program and its user space share: the tag a worker
 * passes with its getpgid() calls and the counter slots in .bss, which the
 * skeleton names but does not define.
 */
#ifndef BPF_MAP_PERF_H
#define BPF_MAP_PERF_H

/* The most workers: the workload's `workers` bound, a slot each. */
#define MAP_PERF_WORKERS	1024

/*
 * Worker i calls getpgid(0, MAP_PERF_TAG | i): getpgid reads only its
 * first argument, and the program takes the second as the caller's slot.
 * The tag in the upper half keeps a call whose second register holds
 * whatever it held before (libc's syscall() loads all six) from counting.
 */
#define MAP_PERF_TAG		(0x6d617070ULL << 32)	/* "mapp" */
#define MAP_PERF_IDX_MASK	0xffffffffULL

/*
 * One worker's counters, on its own pair of cache lines (the adjacent-line
 * prefetcher pulls pairs), so counting adds no shared line to what we measure.
 */
struct map_perf_slot {
	long events;	/* program runs that did their ops rounds */
	long errors;	/* updates or deletes the map refused */
} __attribute__((aligned(128)));

#endif
