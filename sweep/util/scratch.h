/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scratch directories: a VM's sockets, ssh's control sockets, the KVM
 * probe's files, a vm job's share.  Each is BASE/bpfsweep-WHAT.PID.XXXXXX,
 * BASE $TMPDIR (absolute, at most SCRATCH_BASE_MAX characters: the sockets
 * in them must fit a sun_path) or /tmp.  Its user removes it at every
 * handled end; the pid in its name lets the guardian remove those of a
 * SIGKILLed bpfsweep (procguard.h), and any later bpfsweep those of a pid
 * that is gone, as cgroups are (cgroup_sweep()).
 */
#ifndef SWEEP_SCRATCH_H
#define SWEEP_SCRATCH_H

#include <stddef.h>
#include <sys/types.h>

#define SCRATCH_BASE_MAX	32

/* A new scratch directory for what ("vm", "ssh"), 0700, its path into buf; 0 or -errno. */
int scratch_make(char *buf, size_t len, const char *what);

/* Remove the scratch directory path and all in it (a socket, a log), as its user ends. */
void scratch_remove(const char *path);

/*
 * Remove the scratch directories of pid, or with pid 0 those of every pid
 * that is gone; only directories of this user, never through a symlink.
 */
void scratch_sweep(pid_t pid);

#endif
