/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup file system as bpfsweep uses it: where a hierarchy is
 * mounted, which cgroup this process is in, and killing and removing a
 * cgroup of bpfsweep's with everything in it.
 *
 * Every cgroup bpfsweep makes is named bpfsweep-<pid>-<rest>, <pid> the
 * bpfsweep process that made it: memory cgroups (run/memcg.c) and the
 * cgroup of each child (procguard.c).  They sit in a few known places
 * (cgroup_places()): one whose <pid> is not a live bpfsweep is stale.
 */
#ifndef SWEEP_CGROUP_H
#define SWEEP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CGROUP_PREFIX	"bpfsweep-"

/*
 * Where the whole cgroup2 hierarchy (v2) or the v1 hierarchy with the
 * memory controller is mounted: a mount of the hierarchy's root, not a
 * bind mount of a part of it.  0, or -ENOENT.
 */
int cgroup_mount(bool v2, char *mnt, size_t len);

/*
 * This process's cgroup in the hierarchy, from /proc/self/cgroup:
 * "0::/path" for v2, "4:memory:/path" (or "4:cpu,memory:/path") for v1.
 */
int cgroup_own(bool v2, char *path, size_t len);

/* The directory of this process's cgroup now: mount point + cgroup_own(). */
int cgroup_own_dir(bool v2, char *dir, size_t len);

/* dir, then rest if not "/": a cgroup's directory; 0 or -ENAMETOOLONG. */
int cgroup_join(char *out, size_t len, const char *dir, const char *rest);

/* Is tok one of the sep-separated words of list? */
bool cgroup_has_word(const char *list, const char *tok, const char *sep);

/* Write s to the cgroup file dir/name; 0 or -errno. */
int cgroup_write(const char *dir, const char *name, const char *s);

/*
 * SIGKILL everything in the cgroup at dir and below (cgroup.kill where
 * the kernel has it, else every pid in cgroup.procs until none is left),
 * then remove the directories, waiting a little while a cgroup is still
 * busy.  This process itself is never killed.  0 or -errno of the rmdir.
 */
int cgroup_destroy(const char *dir);

/*
 * Is what bpfsweep process pid named (a cgroup, a scratch directory:
 * scratch.h) to be swept by a sweep for only: pid is only, or only is 0
 * and pid is gone?
 */
bool sweep_owner_gone(pid_t pid, pid_t only);

/*
 * Destroy bpfsweep's cgroups in the known places: those of process pid,
 * or with pid 0 those whose process is not a live bpfsweep (stale).
 */
void cgroup_sweep(pid_t pid);

#endif
