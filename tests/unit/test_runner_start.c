// SPDX-License-Identifier: GPL-2.0
/*
 * The warmup begins once every worker has run past the start gate
 * (repetition.c): at the first sample, no producer of a point whose
 * producers spin may still be asleep at the gate.  Sixteen spinning
 * producers on the machine's CPUs: with a condition variable for a gate,
 * those not yet through slept on its mutex at the first sample.  And a
 * producer that sleeps through the measured part is said to be asleep,
 * where, in its point's reason.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "plan.h"
#include "runner.h"
#include "schedstat.h"

#define NR_PRODUCERS	16

static const struct metric_def spin_metrics[] = {
	{ .name = "spins", .kind = MK_COUNTER, .unit = "/s" },
};

struct spin {
	atomic_ullong spins;
	int asleep_at_first;	/* other threads asleep at the first sample, -1: not read */
	bool sampled;
};

static int spin_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
		      char *why, size_t len)
{
	struct spin *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->asleep_at_first = -1;
	*thr = (struct wl_threads){ .nr_producers = NR_PRODUCERS };
	*state = s;
	return 0;
}

static int spin_produce(void *state, int idx, const atomic_bool *stop)
{
	struct spin *s = state;

	while (!atomic_load_explicit(stop, memory_order_relaxed))
		atomic_fetch_add_explicit(&s->spins, 1, memory_order_relaxed);
	return 0;
}

/* Threads of this process other than the caller that sleep (S or D): /proc/self/task. */
static int threads_asleep(void)
{
	pid_t self = syscall(SYS_gettid);
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int asleep = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[300], text[256];
		FILE *f;

		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(text, sizeof(text), f))
			asleep += strchr("SD", schedstat_state_parse(text)) != NULL &&
				  schedstat_state_parse(text);
		fclose(f);
	}
	closedir(d);
	return asleep;
}

static int spin_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct spin *s = state;

	if (!s->sampled)
		s->asleep_at_first = threads_asleep();
	s->sampled = true;
	counts[0] = atomic_load_explicit(&s->spins, memory_order_relaxed);
	return 0;
}

static void spin_teardown(void *state)
{
	free(state);
}

static const struct workload spin_wl = {
	.name = "spin", .metrics = spin_metrics, .nr_metrics = 1,
	.setup = spin_setup, .produce = spin_produce, .sample = spin_sample,
	.teardown = spin_teardown,
};

static struct experiment exp0 = { .title = "Spin", .group = -1 };
static struct sweep_cfg cfg = {
	.title = "Spin", .wl = &spin_wl, .warmup_ns = 0, .duration_ns = 20000000,
	.interval_ns = 20000000, .repeat = 1, .affinity = true, .exps = &exp0, .nr_exps = 1,
};

static struct spin *last;

static void keep_state(void *state)
{
	last = state;
}

TEST(every_producer_runs_before_the_first_sample)
{
	struct point pt = { .wp = { .wl = &spin_wl } };
	struct plan plan = { .pts = &pt, .nr_pts = 1, .nr_runnable = 1 };
	struct workload wl = spin_wl;
	struct point_result *res;
	int nr_run, asleep;

	for (int run = 0; run < 5; run++) {
		wl.teardown = keep_state;
		cfg.wl = &wl;
		pt.wp.wl = &wl;
		CHECK_INT(runner_run(&cfg, &plan, &pt, 1, NULL, NULL, &res, &nr_run), 0);
		CHECK_INT(res[0].status, PS_OK);
		asleep = last ? last->asleep_at_first : -2;
		free(last);
		last = NULL;
		point_results_free(res, 1);
		CHECK_INT(asleep, 0);
	}
}

/* A producer blocked in read() on a pipe until its point stops, which writes to it. */
struct blocked {
	int pipe[2];
};

static int blocked_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			 char *why, size_t len)
{
	struct blocked *b = calloc(1, sizeof(*b));

	if (!b || pipe2(b->pipe, O_CLOEXEC)) {
		free(b);
		return -ENOMEM;
	}
	*thr = (struct wl_threads){ .nr_producers = 1 };
	*state = b;
	return 0;
}

static int blocked_produce(void *state, int idx, const atomic_bool *stop)
{
	struct blocked *b = state;
	char c;

	while (!atomic_load(stop))
		if (read(b->pipe[0], &c, 1) < 0 && errno != EINTR)
			return -errno;
	return 0;
}

static int blocked_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	counts[0] = 0;
	return 0;
}

static void blocked_stop(void *state)
{
	struct blocked *b = state;

	if (write(b->pipe[1], "x", 1) < 0)
		return;
}

static void blocked_teardown(void *state)
{
	struct blocked *b = state;

	close(b->pipe[0]);
	close(b->pipe[1]);
	free(b);
}

/*
 * It never runs in the measured part, and its wait for a CPU is none:
 * stalled, "asleep", with its state (S) and, as root, where it slept.
 */
TEST(a_sleeping_producer_is_said_asleep)
{
	const struct workload wl = {
		.name = "blocked", .metrics = spin_metrics, .nr_metrics = 1,
		.setup = blocked_setup, .produce = blocked_produce, .sample = blocked_sample,
		.stop = blocked_stop, .teardown = blocked_teardown,
	};
	struct point pt = { .wp = { .wl = &wl } };
	struct plan plan = { .pts = &pt, .nr_pts = 1, .nr_runnable = 1 };
	struct sweep_cfg c = cfg;
	struct point_result *res;
	int nr_run;

	c.wl = &wl;
	c.warmup_ns = 50000000;	/* in read() before the window opens */
	CHECK_INT(runner_run(&c, &plan, &pt, 1, NULL, NULL, &res, &nr_run), 0);
	printf("# %s\n", res[0].reason);
	CHECK_INT(res[0].status, PS_STALLED);
	CHECK(strstr(res[0].reason, "(asleep: the most CPU a producer had was 0.0 ms") != NULL);
	CHECK(strstr(res[0].reason, "; one idle a whole window: S") != NULL);
	if (!geteuid())
		CHECK(strstr(res[0].reason, "S in anon_pipe_read)") != NULL ||
		      strstr(res[0].reason, "S in pipe_read)") != NULL);
	point_results_free(res, 1);
}

RUN_TESTS(every_producer_runs_before_the_first_sample, a_sleeping_producer_is_said_asleep)
