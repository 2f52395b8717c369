/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What htab_mem's BPF program and its user space share: the use cases
 * (a load-time constant) and the bounds of the per-producer counters in
 * .bss, which the skeleton names but does not define.
 */
#ifndef BPF_HTAB_MEM_H
#define BPF_HTAB_MEM_H

/* The kernel bench's three use cases, in the order of its --use-case help. */
enum htab_mem_use_case {
	HM_OVERWRITE,
	HM_BATCH_ADD_BATCH_DEL,
	HM_ADD_DEL_ON_DIFF_CPU,
};

/* Producers are counted one slot each: the most a point may have. */
#define HTAB_MEM_MAX_PRODUCERS	256

/* Map operations per step, the bench's OP_BATCH: the keys a producer owns. */
#define HTAB_MEM_OP_BATCH	64

/* The largest value_size the bench allows, and the size of its zeroed value. */
#define HTAB_MEM_MAX_VALUE	4096

#endif
