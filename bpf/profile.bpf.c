// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's sampler (docs/profile.md): attached to a cpu-clock perf
 * event on each CPU a point uses, it runs at every sample and counts the
 * interrupted task's kernel stack, as BCC's profile tool does.  The
 * stacks go into a stack map by id; the count of each (pid, comm, kernel
 * stack) into a hash map.  User space reads both after the measured part
 * and symbolises the frames.  User stacks are not taken: nothing
 * symbolises them yet, and each would be one more entry of the stack map.
 *
 * A sample in user mode has no kernel stack (bpf_get_stackid answers
 * -EFAULT): counted with kstack < 0.  Any other failure (the stack map is
 * full, or two stacks hash to one bucket: the map keeps the first) and a
 * full count map are lost samples, counted so that the profile says how
 * many it does not show.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "profile.h"

char LICENSE[] SEC("license") = "GPL";

#define EFAULT	14

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, PROF_MAX_DEPTH * sizeof(__u64));
	__uint(max_entries, 4096);	/* user space sets it before load */
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct prof_key);
	__type(value, __u64);
	__uint(max_entries, 8192);	/* user space sets it before load */
} counts SEC(".maps");

/* Set by user space for the measured part only: samples outside it are not counted. */
__u32 enabled;

/* Samples seen, and lost by reason (enum prof_lost): read after the measured part. */
__u64 nr_samples;
__u64 nr_lost[NR_PROF_LOST];

SEC("perf_event")
int profile_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct prof_key key = { .pid = id >> 32 };
	__u64 one = 1, *count;

	if (!enabled)
		return 0;
	__sync_fetch_and_add(&nr_samples, 1);
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.kstack = bpf_get_stackid(ctx, &stacks, 0);
	if (key.kstack < 0 && key.kstack != -EFAULT) {
		__sync_fetch_and_add(&nr_lost[PROF_LOST_KSTACK], 1);
		return 0;
	}
	count = bpf_map_lookup_elem(&counts, &key);
	if (count) {
		__sync_fetch_and_add(count, 1);
		return 0;
	}
	if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST)) {
		/* another CPU may have added it meanwhile */
		count = bpf_map_lookup_elem(&counts, &key);
		if (count)
			__sync_fetch_and_add(count, 1);
		else
			__sync_fetch_and_add(&nr_lost[PROF_LOST_COUNTS], 1);
	}
	return 0;
}
