/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiler's sampler: a cpu-clock perf event per CPU, each running
 * bpf/profile.bpf.c at every sample, which counts the interrupted task's
 * stacks (stacksampler.c: adapters/ is where libbpf is called for the
 * engine, sweep/ never includes it).  Functions return 0 or -errno; why gets the kernel's
 * words for a failure (which call, strerror).
 */
#ifndef ADAPTERS_STACKSAMPLER_H
#define ADAPTERS_STACKSAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STACK_MAX_DEPTH		127	/* the kernel's PERF_MAX_STACK_DEPTH */
#define STACK_COMM_LEN		16

struct stack_sampler;

/* One counted stack, as the sampler read it back. */
struct stack_sample {
	uint32_t pid;			/* thread group; 0: the idle task */
	char comm[STACK_COMM_LEN];
	uint64_t count;
	bool user;			/* taken in user mode (its frames are not kept) */
	int nr_kips;			/* kernel frames; 0: the sample was in user mode */
	uint64_t kips[STACK_MAX_DEPTH];	/* leaf first, as the kernel gives them */
};

/* What one read of the sampler counted. */
struct stack_counts {
	struct stack_sample *s;
	int nr;
	uint64_t samples;		/* the program's runs while enabled */
	uint64_t lost;			/* samples not counted: a stack or count map full */
};

/*
 * Load the program and open a disabled cpu-clock event at hz on each of
 * cpus[0..nr), the program attached to each.  -EOPNOTSUPP, -EPERM, -EACCES
 * ... as the kernel answered, why saying which step.
 */
int stack_sampler_open(int hz, const int *cpus, int nr, struct stack_sampler **out,
		       char *why, size_t len);

/*
 * Start (stop) counting on the CPUs cpus[0..nr) of those opened, or on
 * all of them when nr is 0: one ioctl per CPU, nothing allocated, so that
 * it may sit at the edge of a measured part.
 */
void stack_sampler_enable(struct stack_sampler *s, const int *cpus, int nr);
void stack_sampler_disable(struct stack_sampler *s);

/* Everything counted so far into *out (its s malloc'd); 0 or -errno. */
int stack_sampler_read(struct stack_sampler *s, struct stack_counts *out, char *why,
		       size_t len);

/*
 * Forget what was counted (the stacks, their counts, the samples and the
 * lost), for the next repetition: cheaper than a new sampler, whose stack
 * map takes about 0.1 s to make.  0 or -errno.
 */
int stack_sampler_reset(struct stack_sampler *s);

/* The events closed and the program and maps unloaded; NULL is fine. */
void stack_sampler_close(struct stack_sampler *s);

void stack_counts_free(struct stack_counts *c);

#endif
