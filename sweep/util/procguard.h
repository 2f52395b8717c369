/* SPDX-License-Identifier: GPL-2.0 */
/*
 * No child outlives bpfsweep.  Every child the spawner (subproc.h) starts
 * gets a cgroup of its own where the kernel lets bpfsweep make one: in
 * the cgroup2 hierarchy if one is mounted, else in the v1 memory
 * hierarchy, below the cgroup bpfsweep is in at the time (so that a
 * point's memory cgroup still sees its program's charges).  Whatever the
 * child starts stays in it, a setsid daemon too, and goes when the cgroup
 * is destroyed: after the child is reaped, at its timeout, at every exit
 * of bpfsweep (atexit), and, when bpfsweep dies of a signal it does not
 * handle (SIGKILL), in the guardian: a small process forked at start that
 * waits for bpfsweep's end on a pipe and then destroys every cgroup of
 * bpfsweep's pid (cgroup.h), memory cgroups included, and removes its
 * scratch directories (scratch.h).  Where no cgroup
 * can be made (not root, no hierarchy mounted) the child's process group
 * is all there is: killed after the reap, at a timeout and at exit, and
 * by the guardian after a SIGKILL of bpfsweep (it is told of every child
 * as it starts and ends); PR_SET_PDEATHSIG takes the child itself.  A
 * setsid daemon, or a process that leaves the group by setpgid, escapes
 * then: following those needs a cgroup, which a non-root user cannot make
 * here (nor does PR_SET_CHILD_SUBREAPER help: the guardian is no ancestor
 * of the children, and bpfsweep itself dies with the SIGKILL).
 */
#ifndef SWEEP_PROCGUARD_H
#define SWEEP_PROCGUARD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * At the start of the program, while it has one thread: remove the
 * cgroups and scratch directories of bpfsweep processes that are gone,
 * fork the guardian and
 * register the exit-time cleanup.  0 or -errno (no guardian: a SIGKILL
 * then leaves what the children started until the next start).
 */
int procguard_start(void);

/*
 * A new cgroup for a child about to be started: *procs_fd an open
 * cgroup.procs of it, which the child writes "0" to before exec (see
 * subproc.c), and *cg its directory (free()); -1 and NULL when none can be
 * made, and the child then has its process group only.
 */
void procguard_cgroup(int *procs_fd, char **cg);

/*
 * pid started, with its cgroup cg (NULL: none; taken over).  keep: what
 * the child leaves running when it exits is wanted until bpfsweep's end
 * (ssh's ControlPersist master), so procguard_reaped() only removes the
 * cgroup if it is empty.
 */
void procguard_add(pid_t pid, char *cg, bool keep);

/*
 * pid was reaped: kill its process group and destroy its cgroup, with
 * everything its program left running.
 */
void procguard_reaped(pid_t pid);

/* Kill and remove what every child left, now (the exit-time cleanup). */
void procguard_end(void);

#endif
