/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Starting a helper program (gnuplot, an exec workload's program, qemu,
 * virtiofsd, ssh, bpfsweep itself) from an argv, never a shell, and waiting
 * for it with a time limit: the one spawner of the tool.
 *
 * Every child starts with the default disposition of every signal, none
 * blocked, PR_SET_PDEATHSIG SIGKILL (it dies with the thread that started
 * it) and a cgroup of its own where one can be made (procguard.h): after
 * its reap, whatever it left running is killed.  The waits below reap and
 * clean up; a caller that reaps with waitpid() itself calls
 * spawn_reaped().
 */
#ifndef SWEEP_SUBPROC_H
#define SWEEP_SUBPROC_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* How a child starts (spawn()): each field's zero is the usual. */
struct spawn_opts {
	/* stdout and stderr appended to this file (heldir.h resolves it); NULL: none */
	const char *log;
	/* without a log: its stdout, stderr (descriptors above 2); 0: the caller's */
	int out_fd, err_fd;
	const char *dir;	/* where it runs, opened as heldir.h resolves it; NULL: here */
	/*
	 * A process group of its own: all it started can be killed together,
	 * and a Ctrl-C at the terminal reaches bpfsweep alone.  Else the
	 * caller's, so that a Ctrl-C reaches it too (a sub-run, qemu).
	 */
	bool own_group;
	/* what it leaves running after it exits (ssh's ControlPersist master) is let be */
	bool keep;
	/*
	 * A descriptor above 2 left open under its number across the exec:
	 * the child names what lies beneath that directory as
	 * /proc/self/fd/FD/..., which no rename nor symlink at a path can
	 * redirect.  0: none.
	 */
	int pass_fd;
	/*
	 * Above 0: no file it writes grows past this many bytes
	 * (RLIMIT_FSIZE; a write past it kills it with SIGXFSZ), for a child
	 * that writes nothing but its log (the KVM probe's qemu).
	 */
	long long file_max;
};

/*
 * Start argv[0] (an absolute path, or a name looked up in PATH) as o says
 * (NULL: all zero), stdin from /dev/null.  0 or -errno (-ENOENT: no such
 * program, -EBADF: a pass_fd of 2 or less).
 */
int spawn(const char *const *argv, const struct spawn_opts *o, pid_t *pid);

/* pid, a child of these, was reaped by the caller: kill what it left. */
void spawn_reaped(pid_t pid);

/*
 * The waits sleep on a pidfd, woken when pid exits; a kernel without
 * pidfd_open() (before Linux 5.3) makes them kill pid and return -ENOSYS.
 *
 * Wait for pid, at most timeout_ms (then SIGKILL and wait): its status as
 * a shell says it (128 + signal), or -errno.
 */
int spawn_wait(pid_t pid, unsigned int timeout_ms);

/*
 * spawn_wait() with waitpid()'s status in *status: 0, -ETIMEDOUT (pid was
 * killed and reaped, *status says so) or -errno.
 */
int spawn_wait_status(pid_t pid, unsigned int timeout_ms, int *status);

/*
 * spawn_wait() that also ends when *stop becomes non-zero (stop.h): then
 * -EINTR, and pid is left running for the caller to stop as it sees fit.
 */
int spawn_wait_stop(pid_t pid, unsigned int timeout_ms, const volatile sig_atomic_t *stop);

/* spawn_wait() that says whether the timeout ran out (and killed pid). */
int spawn_wait_timed(pid_t pid, unsigned int timeout_ms, bool *timed_out);

/* name found in PATH as a shell finds a command: an executable file; 0 or -ENOENT. */
int spawn_find_in_path(const char *name, char *buf, size_t len);

/* The absolute path of this program, for the guest and for sub-runs. */
int spawn_self_path(char *buf, size_t len);

#endif
