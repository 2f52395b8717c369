// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/self/task/TID/schedstat: "time on a CPU (ns), time waiting on a
 * runqueue (ns), timeslices", the kernel's sched_info of that thread
 * (CONFIG_SCHED_INFO, which CONFIG_SCHEDSTATS and CONFIG_TASK_DELAY_ACCT
 * select; the numbers are kept whether or not schedstats are enabled).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "schedstat.h"
#include "textfile.h"

int schedstat_parse(const char *text, struct sched_times *t)
{
	uint64_t run, delay, slices;
	int used = 0;

	if (sscanf(text, "%" SCNu64 " %" SCNu64 " %" SCNu64 "%n", &run, &delay, &slices,
		   &used) != 3 || (text[used] && text[used] != '\n'))
		return -EINVAL;
	t->run_ns = run;
	t->delay_ns = delay;
	return 0;
}

/* /proc/self/task/TID/name into buf: the bytes read, or -errno. */
static int read_task_file(pid_t tid, const char *name, char *buf, size_t len)
{
	char path[64];

	if (tid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid, name);
	return read_small_file(path, buf, len);
}

int schedstat_read(pid_t tid, struct sched_times *t)
{
	char buf[128];
	int n = read_task_file(tid, "schedstat", buf, sizeof(buf));

	return n < 0 ? n : schedstat_parse(buf, t);
}

char schedstat_state_parse(const char *stat)
{
	const char *paren = strrchr(stat, ')');

	return paren && paren[1] == ' ' && paren[2] && paren[2] != ' ' ? paren[2] : 0;
}

int schedstat_state(pid_t tid, char *state, char *wchan, size_t len)
{
	char buf[1024];
	int n = read_task_file(tid, "stat", buf, sizeof(buf));

	if (n < 0)
		return n;
	*state = schedstat_state_parse(buf);
	if (!*state)
		return -EINVAL;
	wchan[0] = '\0';
	/* "0" where it runs or the kernel hides it */
	if (*state != 'R' && read_task_file(tid, "wchan", wchan, len) < 0)
		wchan[0] = '\0';
	if (!strcmp(wchan, "0"))
		wchan[0] = '\0';
	return 0;
}

void schedstat_note_idle(struct thread_wait *w, pid_t tid, const struct sched_times *a,
			 const struct sched_times *b)
{
	if (b->run_ns == a->run_ns &&
	    schedstat_state(tid, &w->idle_state, w->idle_wchan, sizeof(w->idle_wchan)))
		w->idle_state = 0;
}

void schedstat_add_window(struct thread_wait *w, const struct sched_times *a,
			  const struct sched_times *b, uint64_t wall_ns)
{
	if (b->run_ns < a->run_ns || b->delay_ns < a->delay_ns) {
		w->unknown = true;
		return;
	}
	w->run_ns += b->run_ns - a->run_ns;
	w->delay_ns += b->delay_ns - a->delay_ns;
	w->window_ns += wall_ns;
}
