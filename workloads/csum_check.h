/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csum_diff's correctness check, for the integration test: the folded sum
 * user space expects, and setup with the expected answer to the seed's
 * known input given, so that a test can give a wrong one and see the
 * point fail.
 */
#ifndef WORKLOADS_CSUM_CHECK_H
#define WORKLOADS_CSUM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/* The seed's known input and bpf_csum_diff's answer to it, folded to 16 bits. */
#define CSUM_CHECK_INPUT	0xdeadbeefdeadbeefULL
#define CSUM_CHECK_EXPECT	0x3b3b

/*
 * The ones' complement sum of len bytes (even) as 16-bit words in memory
 * order, folded to 16 bits without the final complement: what
 * csum_partial() computes, and what the BPF side's fold() returns.
 */
uint16_t csum_fold_ref(const void *buf, size_t len);

/* csum_diff's setup, with the expected answer for CSUM_CHECK_INPUT given. */
int csum_diff_setup_expect(const struct wl_point *pt, uint16_t expect, void **state,
			   struct wl_threads *thr, char *why, size_t len);

#endif
