/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What csum_diff's BPF programs and their user space share: the size of
 * the buffer in .bss the helper reads, and the answer a run returns when
 * a call failed.
 */
#ifndef BPF_CSUM_DIFF_H
#define BPF_CSUM_DIFF_H

/*
 * The largest `size`: 8 times the seed's 512, its bench's own buffer
 * (BUFF_SZ 4096).  Kernels before 6.13 refuse more than 512 bytes
 * (from_size + to_size <= MAX_BPF_STACK); the workload reports that.
 */
#define CSUM_DIFF_MAX_SIZE	4096

/* A run's return value when a call returned an error (a folded sum is 16 bits). */
#define CSUM_DIFF_FAILED	0xffffffffU

#endif
