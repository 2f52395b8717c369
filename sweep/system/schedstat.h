/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread's scheduler statistics from /proc/self/task/TID/schedstat
 * (CONFIG_SCHED_INFO): how long it ran and how long it sat runnable on a
 * runqueue, waiting for a CPU.  The wait is what the interference flag
 * judges: the point's threads wanted a CPU and did not get it.  The kernel
 * adds a wait to it only when the thread gets its CPU (sched_info_arrive):
 * a thread queued through a whole window shows no wait yet, and only its
 * state (/proc/self/task/TID/stat: R) tells it from a sleeping one.
 */
#ifndef SWEEP_SCHEDSTAT_H
#define SWEEP_SCHEDSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One thread's cumulative times, in ns. */
struct sched_times {
	uint64_t run_ns;	/* on a CPU */
	uint64_t delay_ns;	/* runnable, on a runqueue, not running */
};

/*
 * One of the point's threads over the measured parts of its repetitions:
 * the sums of the windows' deltas.
 */
struct thread_wait {
	uint64_t run_ns;
	uint64_t delay_ns;
	uint64_t window_ns;	/* the windows' wall time */
	int cpu;		/* the CPU it was pinned to, or -1 */
	bool unknown;		/* a read failed: nothing is said of it */
	/* as the last window in which it never ran ended: its state, 0 if it ran in each */
	char idle_state;
	char idle_wchan[48];	/* asleep then: the kernel function it slept in, or "" */
};

/* "run_ns delay_ns timeslices\n" into *t; 0 or -EINVAL. */
int schedstat_parse(const char *text, struct sched_times *t);

/* Thread tid of this process (its kernel tid, gettid()); 0 or -errno. */
int schedstat_read(pid_t tid, struct sched_times *t);

/*
 * The state letter of a /proc/PID/stat line (after the command's last ')'):
 * 'R' runnable, 'S' or 'D' asleep, 'T' stopped, ...; 0 if there is none.
 */
char schedstat_state_parse(const char *stat);

/*
 * Thread tid's state letter and, unless it is runnable, the kernel function
 * it sleeps in (/proc/self/task/TID/wchan: root only, "" where it cannot
 * be read).  0 or -errno.
 */
int schedstat_state(pid_t tid, char *state, char *wchan, size_t len);

/*
 * Where thread tid never ran from a to b, its state now into w's
 * idle_state and idle_wchan: queued (its wait not yet counted) or asleep.
 */
void schedstat_note_idle(struct thread_wait *w, pid_t tid, const struct sched_times *a,
			 const struct sched_times *b);

/* Add the window from a to b, wall_ns long, to *w (a thread whose clock ran backwards: unknown). */
void schedstat_add_window(struct thread_wait *w, const struct sched_times *a,
			  const struct sched_times *b, uint64_t wall_ns);

#endif
