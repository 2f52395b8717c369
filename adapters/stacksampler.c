// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's sampler (stacksampler.h): bpf/profile.bpf.c loaded, a
 * cpu-clock perf event per CPU opened disabled and the program attached
 * to each (perf_event_open(2) with freq = hz, PERF_EVENT_IOC_SET_BPF via
 * libbpf).  libbpf enables an event as it attaches; the program also
 * checks a global, set only between enable and disable, so that no sample
 * of the set-up is counted.  Enable and disable are an ioctl per CPU and a
 * store: they sit at the edges of a measured part.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "libbpf_log.h"
#include "profile.h"
#include "profile.skel.h"
#include "stacksampler.h"
#include "workload.h"

/*
 * Distinct stacks of one repetition: a few hundred in a second of a busy
 * machine.  The stack map keeps one stack per bucket, so two that hash
 * alike lose the second one's samples (counted): 16384 buckets make that
 * rare (about n^2 / 32768 stacks of n).  Preallocated, 16 MB, before the
 * repetition's memory cgroup.
 */
#define MAX_STACKS	16384
#define MAX_COUNTS	8192	/* distinct (task, kernel stack) */

struct stack_sampler {
	struct profile_bpf *skel;
	int nr;
	int *cpu;		/* [nr] the CPU of each event */
	int *fd;		/* [nr] its perf event, owned by link[i] once attached */
	struct bpf_link **link;	/* [nr] */
};

static int open_event(int cpu, int hz)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = hz,
		.disabled = 1,
	};
	int fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int load(struct stack_sampler *s, char *why, size_t len)
{
	int err;

	s->skel = profile_bpf__open();
	if (!s->skel)
		return wl_fail(why, len, "profile: open", -errno);
	bpf_map__set_max_entries(s->skel->maps.stacks, MAX_STACKS);
	bpf_map__set_max_entries(s->skel->maps.counts, MAX_COUNTS);
	err = profile_bpf__load(s->skel);
	return err ? wl_fail(why, len, "profile: load", err) : 0;
}

/* An event on each CPU, the program attached (and so enabled: the global still says no). */
static int attach(struct stack_sampler *s, int hz, char *why, size_t len)
{
	char what[64];

	for (int i = 0; i < s->nr; i++) {
		s->fd[i] = open_event(s->cpu[i], hz);
		if (s->fd[i] < 0) {
			snprintf(what, sizeof(what), "profile: perf_event_open cpu-clock on CPU %d",
				 s->cpu[i]);
			return wl_fail(why, len, what, s->fd[i]);
		}
		s->link[i] = bpf_program__attach_perf_event(s->skel->progs.profile_sample,
							    s->fd[i]);
		if (!s->link[i]) {
			int err = -errno;

			snprintf(what, sizeof(what), "profile: attach to CPU %d", s->cpu[i]);
			return wl_fail(why, len, what, err);
		}
		ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	}
	return 0;
}

int stack_sampler_open(int hz, const int *cpus, int nr, struct stack_sampler **out,
		       char *why, size_t len)
{
	struct stack_sampler *s = calloc(1, sizeof(*s));
	int err = -ENOMEM;

	*out = NULL;
	if (!s)
		return wl_fail(why, len, "profile", err);
	s->nr = nr;
	s->cpu = calloc(nr ? nr : 1, sizeof(*s->cpu));
	s->fd = calloc(nr ? nr : 1, sizeof(*s->fd));
	s->link = calloc(nr ? nr : 1, sizeof(*s->link));
	if (!s->cpu || !s->fd || !s->link) {
		stack_sampler_close(s);
		return wl_fail(why, len, "profile", err);
	}
	for (int i = 0; i < nr; i++) {
		s->cpu[i] = cpus[i];
		s->fd[i] = -1;
	}
	libbpf_log_begin();
	err = load(s, why, len) ?: attach(s, hz, why, len);
	libbpf_log_end();
	if (err) {
		libbpf_log_explain(why, len);
		stack_sampler_close(s);
		return err;
	}
	*out = s;
	return 0;
}

static bool listed(int cpu, const int *cpus, int nr)
{
	for (int i = 0; i < nr; i++)
		if (cpus[i] == cpu)
			return true;
	return !nr;
}

void stack_sampler_enable(struct stack_sampler *s, const int *cpus, int nr)
{
	if (!s)
		return;
	s->skel->bss->enabled = 1;
	for (int i = 0; i < s->nr; i++)
		if (listed(s->cpu[i], cpus, nr))
			ioctl(s->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void stack_sampler_disable(struct stack_sampler *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nr; i++)
		ioctl(s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	s->skel->bss->enabled = 0;
}

/* The kernel frames of stack id into out (leaf first); how many. */
static int read_stack(int map_fd, int id, struct stack_sample *out)
{
	if (id < 0 || bpf_map_lookup_elem(map_fd, &id, out->kips))
		return 0;
	for (int i = 0; i < STACK_MAX_DEPTH; i++)
		if (!out->kips[i])
			return i;
	return STACK_MAX_DEPTH;
}

static int grow(struct stack_counts *c, int *max)
{
	struct stack_sample *more;

	if (c->nr < *max)
		return 0;
	*max = *max ? 2 * *max : 256;
	more = realloc(c->s, *max * sizeof(*more));
	if (!more)
		return -ENOMEM;
	c->s = more;
	return 0;
}

int stack_sampler_read(struct stack_sampler *s, struct stack_counts *out, char *why,
		       size_t len)
{
	int counts_fd = bpf_map__fd(s->skel->maps.counts);
	int stacks_fd = bpf_map__fd(s->skel->maps.stacks);
	struct prof_key key, *prev = NULL;
	int max = 0, err;

	*out = (struct stack_counts){ .samples = s->skel->bss->nr_samples };
	for (int i = 0; i < NR_PROF_LOST; i++)
		out->lost += s->skel->bss->nr_lost[i];
	while (!bpf_map_get_next_key(counts_fd, prev, &key)) {
		struct stack_sample *ss;

		prev = &key;
		err = grow(out, &max);
		if (err)
			goto fail;
		ss = &out->s[out->nr];
		*ss = (struct stack_sample){ .pid = key.pid, .user = key.kstack < 0 };
		memcpy(ss->comm, key.comm, sizeof(ss->comm));
		ss->comm[sizeof(ss->comm) - 1] = '\0';
		if (bpf_map_lookup_elem(counts_fd, &key, &ss->count))
			continue;	/* cannot vanish: nothing deletes */
		ss->nr_kips = read_stack(stacks_fd, key.kstack, ss);
		out->nr++;
	}
	if (errno == ENOENT)
		return 0;
	err = -errno;
fail:
	stack_counts_free(out);
	return wl_fail(why, len, "profile: reading the counts", err);
}

int stack_sampler_reset(struct stack_sampler *s)
{
	int counts_fd = bpf_map__fd(s->skel->maps.counts);
	int stacks_fd = bpf_map__fd(s->skel->maps.stacks);
	struct prof_key key;

	/* each key deleted as found: the next search starts from the first again */
	while (!bpf_map_get_next_key(counts_fd, NULL, &key)) {
		if (key.kstack >= 0)
			bpf_map_delete_elem(stacks_fd, &key.kstack);
		if (bpf_map_delete_elem(counts_fd, &key))
			return -errno;
	}
	s->skel->bss->nr_samples = 0;
	memset(s->skel->bss->nr_lost, 0, sizeof(s->skel->bss->nr_lost));
	return 0;
}

void stack_sampler_close(struct stack_sampler *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nr; i++) {
		if (s->link && s->link[i])
			bpf_link__destroy(s->link[i]);	/* closes fd[i] too */
		else if (s->fd && s->fd[i] >= 0)
			close(s->fd[i]);
	}
	profile_bpf__destroy(s->skel);
	free(s->cpu);
	free(s->fd);
	free(s->link);
	free(s);
}

void stack_counts_free(struct stack_counts *c)
{
	free(c->s);
	*c = (struct stack_counts){ 0 };
}
