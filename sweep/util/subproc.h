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

/*
 * Start argv[0] (an absolute path, or a name looked up in PATH) with
 * stdin from /dev/null; stdout and stderr appended to log, or the
 * caller's when log is NULL.  It stays in the caller's process group, so
 * that a Ctrl-C at the terminal reaches it too (a sub-run, qemu).  0 or
 * -errno (-ENOENT: no such program).
 */
int spawn_argv(const char *const *argv, const char *log, pid_t *pid);

/*
 * Start argv[0] as spawn_argv() does, in a process group of its own (so
 * that all it started can be killed together, and a Ctrl-C at the
 * terminal reaches bpfsweep alone), with stdin from /dev/null, stdout on
 * out_fd and stderr on err_fd.  0 or -errno (-ENOENT: no such program).
 */
int spawn_argv_group(const char *const *argv, int out_fd, int err_fd, pid_t *pid);

/*
 * spawn_argv_group() with stdout and stderr appended to the file log; what
 * the program leaves running after it exits (ssh's ControlPersist master)
 * is let be until bpfsweep ends.
 */
int spawn_argv_group_log(const char *const *argv, const char *log, pid_t *pid);

/* spawn_argv_group_log() with fd left open across the exec: see spawn_argv_passing(). */
int spawn_argv_group_log_passing(const char *const *argv, const char *log, int fd, pid_t *pid);

/*
 * Start argv[0] as spawn_argv() does in the directory dir (opened here as
 * heldir.h resolves it, entered by descriptor), with stdin from /dev/null
 * and the caller's stdout and stderr.  0 or -errno.
 */
int spawn_argv_in(const char *const *argv, const char *dir, pid_t *pid);

/*
 * spawn_argv() (no log) with fd, a descriptor above 2, left open under its
 * number across the exec: the child names what lies beneath that directory
 * as /proc/self/fd/FD/..., which no rename nor symlink at a path can
 * redirect.  0 or -errno.
 */
int spawn_argv_passing(const char *const *argv, int fd, pid_t *pid);

/* spawn_argv() with fd left open across the exec: see spawn_argv_passing(). */
int spawn_argv_log_passing(const char *const *argv, const char *log, int fd, pid_t *pid);

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
