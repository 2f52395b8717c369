// SPDX-License-Identifier: GPL-2.0
/*
 * The csum_diff workload's BPF side, after the kernel's csum_diff bench
 * (selftests/bpf/progs/csum_diff_bench.c): bpf_csum_diff(NULL, 0, buf,
 * size, 0) pushes `size` bytes into a checksum.  The seed called it once
 * per program run, 64 runs per BPF_PROG_TEST_RUN, and so measured mostly
 * test_run's loop around the program; here one run calls it `batch` times,
 * so that the syscall, the skb test_run builds and each run's entry are
 * shared by `batch` calls.
 *
 * SEC("tc"): bpf_csum_diff is in the sched_cls helper set (net/core/
 * filter.c, tc_cls_act_func_proto) and tc programs run under
 * BPF_PROG_TEST_RUN, as the seed's did.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "csum_diff.h"
#include "extra_work.h"

char LICENSE[] SEC("license") = "GPL";

/* Load-time knobs: constants to the verifier, which bounds the loop and the size. */
const volatile __u32 size = 4;
const volatile __u32 batch = 1;

/* The data, random bytes filled by user space after load (mmapped .bss). */
__u32 buf[CSUM_DIFF_MAX_SIZE / 4];

/* The seed's known input for the check: 0xdeadbeefdeadbeef in host order. */
__u64 check_buf;

/*
 * The helper returns a 32-bit partial sum (before 6.13: unfolded, and its
 * width differed by architecture) or a negative errno: fold it to the 16
 * bits every architecture agrees on, without the final complement, as the
 * kernel's csum_diff selftest compares it (0xdeadbeefdeadbeef -> 0x3b3b).
 */
static __always_inline __u32 fold(__u64 sum)
{
	sum = (sum & 0xffff) + ((sum >> 16) & 0xffff);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

/*
 * `batch` calls over the same `size` bytes.  Returns the last call's
 * folded sum, which user space compares with its own, or
 * CSUM_DIFF_FAILED if any call failed: every run's answer is checked, and
 * a run counts as `batch` calls only when all of them succeeded.
 */
SEC("tc")
int csum_run(struct __sk_buff *skb)
{
	bool failed = false;
	__s64 r = 0;

	for (__u32 i = 0; i < batch; i++) {
		spend_extra_work();
		r = bpf_csum_diff(NULL, 0, buf, size, 0);
		failed |= r < 0;
	}
	return failed ? CSUM_DIFF_FAILED : fold(r);
}

/* The seed's correctness check: the folded sum of the 8 bytes of check_buf. */
SEC("tc")
int csum_check(struct __sk_buff *skb)
{
	__s64 r = bpf_csum_diff(NULL, 0, (__u32 *)&check_buf, sizeof(check_buf), 0);

	return r < 0 ? CSUM_DIFF_FAILED : fold(r);
}
