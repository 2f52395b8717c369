// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload's BPF side for trigger=kernel: a driver and one
 * counting program per attach type, on a kfunc.  Its own object, apart
 * from trigger.bpf.c's: the driver's kfunc has libbpf parse the kernel's
 * BTF at every load (it finds the kfunc there), which trigger=user's
 * tracepoint, raw_tp and kprobe points need not pay.  Here that parse is
 * paid anyway, so the programs keep their CO-RE reads.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "trigger_common.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * The in-kernel trigger (trigger=kernel), after the kernel's
 * selftests/bpf/progs/trigger_bench.c: each producer runs kt_driver
 * through BPF_PROG_TEST_RUN, which calls the kfunc
 * bpf_modify_return_test_tp() batch_iters times, so that one syscall
 * buys batch_iters events.  The kfunc fires the tracepoint
 * bpf_test_run:bpf_trigger_tp(nonce) and returns nonce, and it is one
 * that fmod_ret may modify: every attach type has its point on it.  The
 * driver passes the producer's index (its test run's context) as nonce,
 * which tells the programs below whose event it is.
 */
const volatile __u32 batch_iters = 1;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

SEC("raw_tp")
int kt_driver(struct bpf_raw_tracepoint_args *ctx)
{
	int nonce = ctx->args[0];

	/* batch_iters is load-time data: the verifier walks the loop that many times */
	for (__u32 i = 0; i < batch_iters; i++)
		bpf_modify_return_test_tp(nonce);
	return 0;
}

/* One event of producer nonce (the driver's context), if it is one of ours. */
static __always_inline void count_nonce(long nonce)
{
	if (!from_bench() || nonce < 0 || nonce >= nr_producers)
		return;
	slots[nonce & (TRIGGER_PRODUCERS - 1)].events++;
}

SEC("tp/bpf_test_run/bpf_trigger_tp")
int kt_tp(struct trace_event_raw_bpf_trigger_tp *ctx)
{
	count_nonce(ctx->nonce);
	return 0;
}

/* raw_tp: args[0] the nonce. */
SEC("raw_tp/bpf_trigger_tp")
int kt_rawtp(struct bpf_raw_tracepoint_args *ctx)
{
	count_nonce((int)ctx->args[0]);
	return 0;
}

SEC("kprobe/bpf_modify_return_test_tp")
int BPF_KPROBE(kt_kprobe, int nonce)
{
	count_nonce(nonce);
	return 0;
}

/* At return the argument is gone, but the kfunc returns it. */
SEC("kretprobe/bpf_modify_return_test_tp")
int BPF_KRETPROBE(kt_kretprobe, int ret)
{
	count_nonce(ret);
	return 0;
}

SEC("fentry/bpf_modify_return_test_tp")
int BPF_PROG(kt_fentry, int nonce)
{
	count_nonce(nonce);
	return 0;
}

SEC("fexit/bpf_modify_return_test_tp")
int BPF_PROG(kt_fexit, int nonce, int ret)
{
	count_nonce(nonce);
	return 0;
}

/* 0: the kfunc runs (and fires its tracepoint) as if no program were there. */
SEC("fmod_ret/bpf_modify_return_test_tp")
int BPF_PROG(kt_fmodret, int nonce)
{
	count_nonce(nonce);
	return 0;
}
