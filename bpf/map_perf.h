/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What map_perf's BPF program and its user space share: the counter slots
 * in .bss, which the skeleton names but does not define.
 */
#ifndef BPF_MAP_PERF_H
#define BPF_MAP_PERF_H

#define MAP_PERF_SLOTS	256

/*
 * One CPU's counters, on its own pair of cache lines (the adjacent-line
 * prefetcher pulls pairs), so counting adds no shared line to what we measure.
 */
struct map_perf_slot {
	long events;	/* program runs that did their ops rounds */
	long errors;	/* updates or deletes the map refused */
} __attribute__((aligned(128)));

#endif
