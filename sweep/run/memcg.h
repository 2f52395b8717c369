/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A memory cgroup for one repetition of a point, so that the memory the
 * point's BPF maps charge (to the cgroup of the process that creates
 * them) can be read as it grows: the runner creates one and moves this
 * process into it before the workload's setup, reads it at every sample,
 * and moves the process back and removes the cgroup after teardown, also
 * when setup or the measurement failed or Ctrl-C stopped it.
 *
 * cgroup v2 where the memory controller is enabled there (memory.current,
 * memory.peak), else v1 (/sys/fs/cgroup/memory: memory.usage_in_bytes,
 * memory.max_usage_in_bytes).  Cgroups are named bpfsweep-<pid>-<n>
 * (cgroup.h); one left by a process that died (a crash, SIGKILL) is
 * removed by its guardian, else by the next start of any bpfsweep
 * (procguard.h) or the next memcg_create().
 */
#ifndef SWEEP_MEMCG_H
#define SWEEP_MEMCG_H

#include <stddef.h>
#include <stdint.h>

struct memcg;

/*
 * Create a cgroup and move this whole process into it.  0, or -errno with
 * why saying what is missing ("no memory cgroup controller: ..."): the
 * point then runs without memory figures, its reason saying why.
 */
int memcg_create(struct memcg **mc, char *why, size_t whylen);

/* Bytes charged now, and the most charged since memcg_create(); 0 or -errno. */
int memcg_read(const struct memcg *mc, uint64_t *usage, uint64_t *peak);

/*
 * The kernel memory charged to the cgroup now, in bytes: slab, vmalloc,
 * percpu, kernel stacks, where BPF maps and programs live.  Unlike the
 * usage above, it leaves out the charges a CPU holds in stock for the
 * cgroup (up to 64 pages per CPU, charged ahead and handed out page by
 * page), which come and go with what else runs on that CPU.  v1: the
 * page counter memory.kmem.usage_in_bytes (exact); v2: memory.stat's
 * "kernel" (the kernel's statistics, flushed when read: it may lag by a
 * few pages per CPU).  0 or -errno.
 */
int memcg_read_kmem(const struct memcg *mc, uint64_t *kmem);

/* The value of "key N" in a memory.stat text; 0, or -ENOENT if it has no such line. */
int memcg_stat_value(const char *text, const char *key, uint64_t *v);

/*
 * From now on, the peak is the most charged from this call on: the
 * runner calls it after the workload's setup, so that the peak is the
 * map's while the workload runs, not the transient memory of loading the
 * program (the verifier's, libbpf's), which is charged here too.  0, or
 * -errno where the kernel cannot reset it (cgroup v2 before Linux 6.12):
 * the peak then includes the setup.
 */
int memcg_reset_peak(struct memcg *mc);

/* Move the process back to where it was, remove the cgroup, free mc.  NULL is fine. */
void memcg_destroy(struct memcg *mc);

#endif
