// SPDX-License-Identifier: GPL-2.0
/*
 * One repetition of one point, as the runner (runner.c) asks for it: the
 * repetition's memory cgroup, the workload's setup, its threads started
 * pinned and gated, the sampler's intervals at absolute deadlines with the
 * CPU load and the threads' run delay at the edges of the measured part,
 * stop, teardown.  A workload
 * that measures itself (wl->run) gives its own intervals instead.
 *
 * Threads are created blocked on a gate (a latch, latch.h) and released
 * together: a thread that spun at once would share the CPUs with the
 * creation of the next, and on 2 CPUs 1024 producers took 90 s to start.
 * The sampler's clock starts once every one of them has run.
 *
 * The calling thread is the sampler.  The workers block the stop signals
 * (stop.h: SIGINT, SIGTERM, SIGHUP, ...), so a Ctrl-C interrupts the
 * sampler's sleep, and the runner's stop_requested() says whether it
 * asked to stop.
 * Nothing prints while producers run but the runner's progress bar, which
 * the sampler's woke() may redraw (repetition.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "allowcpu.h"
#include "cpulist.h"
#include "cpustat.h"
#include "latch.h"
#include "loadfill.h"
#include "memcg.h"
#include "metric.h"
#include "progrun.h"
#include "repetition.h"
#include "repprofile.h"
#include "samplerprio.h"
#include "schedstat.h"
#include "stop.h"
#include "threadcounts.h"
#include "timing.h"

static uint64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/* One producer or consumer thread. */
struct worker {
	pthread_t tid;
	struct rep_ctx *rc;
	bool consumer;
	int idx;
	int cpu;		/* -1: not pinned */
	int err;
	bool started;
	atomic_int kernel_tid;	/* gettid(), once it runs; 0 before */
	struct sched_times sched_begin;	/* as the measured part began */
	bool sched_begun;	/* sched_begin was read */
};

/* One repetition of one point. */
struct rep_ctx {
	const struct workload *wl;
	void *state;
	atomic_bool stop;
	atomic_int nr_failed;	/* workers that returned an error */
	struct worker *workers;	/* the consumers, then the producers */
	int nr_workers;
	int first_producer;	/* workers[first_producer] is producer 0 */
	struct latch gate;	/* the workers wait at it until all of them exist */
	struct count running;	/* workers started and not yet returned */
	struct count unstarted;	/* workers started and not yet past the gate */
	/* the point's CPUs, and /proc/stat when its measured part began */
	int load_cpus[CPU_SETSIZE];
	int nr_load_cpus;
	struct cpustat *stat_begin, *stat_end;
	bool stat_begun;	/* stat_begin was read */
	uint64_t sched_begin_ns;	/* when the workers' schedstat was read then */
	uint64_t *cpu_begin;	/* each producer's CPU time then, or NULL (not asked) */
	struct memcg *memcg;	/* the repetition's memory cgroup, or NULL */
	bool wants_kmem;	/* a gauge of source MS_MEMCG_KMEM */
	bool (*stop_requested)(void);	/* the runner's: a signal asked to stop */
	const struct rep_watch *watch;	/* the runner's: its woke() at the sampler's wake-ups */
	struct profiler *prof;	/* profile = on: counts stacks in the measured part only */
	struct wl_load_stats load;	/* what setup's load cost (loadfill.h) */
	struct sampler_prio prio;	/* raised from the gate's opening to the workers' end */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct rep_ctx *rc = w->rc;

	/* for its schedstat (glibc 2.36 has no pthread_gettid_np) */
	atomic_store(&w->kernel_tid, gettid());
	latch_wait(&rc->gate);
	count_done(&rc->unstarted);
	/* released to exit at once when a later thread could not be started */
	if (atomic_load(&rc->stop))
		goto done;
	if (w->consumer)
		w->err = rc->wl->consume(rc->state, w->idx, &rc->stop);
	else
		w->err = rc->wl->produce(rc->state, w->idx, &rc->stop);
	if (w->err)
		atomic_fetch_add(&rc->nr_failed, 1);
done:
	count_done(&rc->running);
	return NULL;
}

/*
 * Consumers first from the first allowed CPU, producers after them,
 * wrapping around: the kernel bench's --affinity layout.  The point's CPUs,
 * whose load quality.c judges, are those the threads are pinned to, or
 * every allowed one when they are not pinned; none without threads, but
 * every allowed one for a workload that runs a program of its own (run()).
 * A workload's one_cpu (struct wl_threads) pins every thread to the first
 * allowed CPU, whether the sweep pins or not.
 */
static int assign_cpus(struct rep_ctx *rc, bool pin, bool one_cpu, struct point_result *r)
{
	int cpus[CPU_SETSIZE], nr = rep_allowed_cpus(cpus, CPU_SETSIZE);
	int *cpu_of = calloc(rc->nr_workers ? rc->nr_workers : 1, sizeof(*cpu_of));
	bool pinned = (pin || one_cpu) && nr > 0;
	int span = one_cpu && nr > 0 ? 1 : nr;	/* the CPUs the threads go round */
	int err = 0;

	if (!cpu_of)
		return -ENOMEM;
	r->nr_cpus = nr > 0 ? nr : 0;
	for (int i = 0; i < rc->nr_workers; i++)
		rc->workers[i].cpu = cpu_of[i] = pinned ? cpus[i % span] : -1;
	rc->nr_load_cpus = r->nr_cpus;
	if ((!rc->nr_workers && !rc->wl->run) || (pinned && rc->nr_workers < nr))
		rc->nr_load_cpus = rc->nr_workers;
	if (pinned && rc->nr_load_cpus > span)
		rc->nr_load_cpus = span;
	memcpy(rc->load_cpus, cpus, rc->nr_load_cpus * sizeof(*cpus));
	free(r->cpus);
	r->cpus = pinned ? NULL : strdup("unpinned");
	if (pinned)
		err = cpulist_describe(cpu_of, r->nr_consumers, r->nr_producers, &r->cpus);
	else if (!r->cpus)
		err = -ENOMEM;
	free(cpu_of);
	return err;
}

/* Workers start with the stop signals blocked (stop.h): the sampler takes them. */
static int start_worker(struct worker *w, const sigset_t *blocked)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	err = pthread_attr_init(&attr);
	if (err)
		return -err;
	err = pthread_attr_setsigmask_np(&attr, blocked);
	if (err)
		goto destroy_attr;
	if (w->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (err)
			goto destroy_attr;
	}
	count_add(&w->rc->running);
	count_add(&w->rc->unstarted);
	err = pthread_create(&w->tid, &attr, worker_main, w);
	w->started = !err;
	if (err) {
		count_done(&w->rc->unstarted);
		count_done(&w->rc->running);
	}
destroy_attr:
	pthread_attr_destroy(&attr);
	return -err;
}

/*
 * Create every worker, each waiting at the gate, then release them all,
 * the sampler's priority raised first (samplerprio.h).  The sampler keeps
 * taking signals meanwhile, so a Ctrl-C while a thousand threads are
 * created stops creating them.
 */
static int start_workers(struct rep_ctx *rc)
{
	sigset_t block;
	int err = 0;

	stop_sigset(&block);
	for (int i = 0; i < rc->nr_workers && !err; i++)
		err = rc->stop_requested() ? -EINTR : start_worker(&rc->workers[i], &block);
	if (!err) {
		sampler_prio_raise(&rc->prio);
		latch_open(&rc->gate);
	}
	return err;
}

/* Also releases workers still at the gate, which then exit at once. */
static void stop_workers(struct rep_ctx *rc)
{
	atomic_store(&rc->stop, true);
	latch_open(&rc->gate);
	if (rc->wl->stop)
		rc->wl->stop(rc->state);
	/*
	 * The last worker to return wakes the sampler once: joining a
	 * thousand threads one by one would wake it a thousand times, each
	 * time queued behind the producers that still spin.
	 */
	count_wait_zero(&rc->running);
	sampler_prio_restore(&rc->prio);
	for (int i = 0; i < rc->nr_workers; i++)
		if (rc->workers[i].started)
			pthread_join(rc->workers[i].tid, NULL);
}

static int alloc_workers(struct rep_ctx *rc, const struct wl_threads *thr)
{
	rc->nr_workers = thr->nr_consumers + thr->nr_producers;
	rc->first_producer = thr->nr_consumers;
	rc->workers = calloc(rc->nr_workers ? rc->nr_workers : 1, sizeof(*rc->workers));
	if (!rc->workers)
		return -ENOMEM;
	for (int i = 0; i < rc->nr_workers; i++) {
		struct worker *w = &rc->workers[i];

		w->rc = rc;
		w->consumer = i < thr->nr_consumers;
		w->idx = w->consumer ? i : i - thr->nr_consumers;
	}
	return 0;
}

static int add_interval(struct point_result *r, const struct interval *iv)
{
	struct interval *grown;

	grown = realloc(r->iv, (r->nr_iv + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->iv = grown;
	r->iv[r->nr_iv++] = *iv;
	return 0;
}

/* "consumer 0: Input/output error" for the first worker that failed. */
static int worker_failure(const struct rep_ctx *rc, char *why, size_t len)
{
	for (int i = 0; i < rc->nr_workers; i++) {
		const struct worker *w = &rc->workers[i];

		if (w->err) {
			snprintf(why, len, "%s %d: %s", w->consumer ? "consumer" : "producer",
				 w->idx, strerror(-w->err));
			return w->err;
		}
	}
	return 0;
}

/* A worker's thread CPU time so far; THREAD_CPU_UNKNOWN if it cannot be read. */
static uint64_t worker_cpu_ns(const struct worker *w)
{
	struct timespec ts;
	clockid_t clock;

	if (!w->started || pthread_getcpuclockid(w->tid, &clock) || clock_gettime(clock, &ts))
		return THREAD_CPU_UNKNOWN;
	return ts_ns(&ts);
}

/*
 * Each producer's CPU time over the window into r->thread_cpu_ns, added
 * to earlier repetitions'; an unknown one stays unknown.
 */
static void add_worker_cpu(const struct rep_ctx *rc, struct point_result *r)
{
	int first = rc->first_producer;

	if (!r->thread_cpu_ns)
		r->thread_cpu_ns = calloc(r->nr_producers, sizeof(*r->thread_cpu_ns));
	for (int p = 0; r->thread_cpu_ns && p < r->nr_producers; p++) {
		uint64_t now = worker_cpu_ns(&rc->workers[first + p]), *sum = &r->thread_cpu_ns[p];

		if (now == THREAD_CPU_UNKNOWN || rc->cpu_begin[p] == THREAD_CPU_UNKNOWN ||
		    *sum == THREAD_CPU_UNKNOWN)
			*sum = THREAD_CPU_UNKNOWN;
		else
			*sum += now - rc->cpu_begin[p];
	}
}

/*
 * Each worker's run delay so far.  A thread that has not yet run (no tid:
 * the gate opened, no warmup) or whose file cannot be read is unknown.
 */
static void sched_begin(struct rep_ctx *rc)
{
	rc->sched_begin_ns = now_ns();
	for (int i = 0; i < rc->nr_workers; i++) {
		struct worker *w = &rc->workers[i];

		w->sched_begun = w->started &&
				 !schedstat_read(atomic_load(&w->kernel_tid), &w->sched_begin);
	}
}

/*
 * ... and since: into r->thread_wait, added to earlier repetitions'; an
 * unknown thread stays unknown.  Read at the window's edges by the
 * sampler, as /proc/stat is, never between two samples: a read is about
 * 10 us (10-36 ms for 1024 threads here), taken in the same order at both
 * edges so that each thread's window is the wall time's.
 */
static void sched_end(struct rep_ctx *rc, struct point_result *r)
{
	uint64_t wall_ns = now_ns() - rc->sched_begin_ns;

	if (!r->thread_wait && rc->nr_workers) {
		r->thread_wait = calloc(rc->nr_workers, sizeof(*r->thread_wait));
		r->nr_thread_wait = r->thread_wait ? rc->nr_workers : 0;
		for (int i = 0; i < r->nr_thread_wait; i++)
			r->thread_wait[i].cpu = rc->workers[i].cpu;
	}
	for (int i = 0; i < r->nr_thread_wait; i++) {
		const struct worker *w = i < rc->nr_workers ? &rc->workers[i] : NULL;
		struct thread_wait *tw = &r->thread_wait[i];
		struct sched_times now;

		/* a repetition with other threads than the first's says nothing of them */
		if (r->nr_thread_wait != rc->nr_workers || !w->sched_begun ||
		    schedstat_read(atomic_load(&w->kernel_tid), &now)) {
			tw->unknown = true;
			continue;
		}
		schedstat_add_window(tw, &w->sched_begin, &now, wall_ns);
		schedstat_note_idle(tw, atomic_load(&w->kernel_tid), &w->sched_begin, &now);
	}
}

/*
 * /proc/stat, the workers' run delay and each producer's CPU time as the
 * measured part begins (never inside it).
 */
static void load_begin(struct rep_ctx *rc)
{
	int first = rc->first_producer;

	rc->stat_begun = rc->stat_begin && !cpustat_read(rc->stat_begin);
	sched_begin(rc);
	for (int p = 0; rc->cpu_begin && first + p < rc->nr_workers; p++)
		rc->cpu_begin[p] = worker_cpu_ns(&rc->workers[first + p]);
	profiler_enable(rc->prof, rc->load_cpus, rc->nr_load_cpus);
}

/* ... and as it ends: what the workers waited and the hypervisor took meanwhile. */
static void load_end(struct rep_ctx *rc, struct point_result *r)
{
	profiler_disable(rc->prof);
	sched_end(rc, r);
	if (rc->cpu_begin)
		add_worker_cpu(rc, r);
	if (rc->stat_begun && rc->stat_end && !cpustat_read(rc->stat_end))
		cpustat_add_window(&r->load, rc->stat_begin, rc->stat_end, rc->load_cpus,
				   rc->nr_load_cpus);
}

/* The sampler is up, the next interval warmup or not: the runner's progress line may redraw. */
static void woke(const struct rep_ctx *rc, bool warmup)
{
	if (rc->watch->woke)
		rc->watch->woke(rc->watch->ctx, warmup);
}

/* Sleep until the absolute deadline; false if a signal asked us to stop. */
static bool sleep_until(const struct rep_ctx *rc, uint64_t deadline)
{
	struct timespec ts = { deadline / 1000000000ULL, deadline % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (rc->stop_requested())
			return false;
	return !rc->stop_requested();
}

/* A gauge less the one its descriptor names (workload.h), after both were read. */
static uint64_t gauge_less(const struct workload *wl, const uint64_t *counts, uint64_t v,
			   const char *less)
{
	int m = wl_metric_index(wl, less);
	uint64_t other = m < 0 ? METRIC_UNKNOWN : counts[m];

	if (v == METRIC_UNKNOWN || other == METRIC_UNKNOWN)
		return METRIC_UNKNOWN;
	return v > other ? v - other : 0;
}

/*
 * The memory cgroup's gauges, which the workload leaves alone: unknown
 * when there is no cgroup or it could not be read.  After sample(), so
 * that a gauge "less" one of the workload's has it at hand.
 */
static void fill_memcg(const struct rep_ctx *rc, uint64_t *counts)
{
	const struct workload *wl = rc->wl;
	uint64_t usage = METRIC_UNKNOWN, peak = METRIC_UNKNOWN, kmem = METRIC_UNKNOWN;

	if (rc->memcg && memcg_read(rc->memcg, &usage, &peak))
		usage = peak = METRIC_UNKNOWN;
	/* v2 reads it from memory.stat, longer than a number: only if asked */
	if (rc->memcg && rc->wants_kmem && memcg_read_kmem(rc->memcg, &kmem))
		kmem = METRIC_UNKNOWN;
	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct metric_def *d = &wl->metrics[m];

		if (d->source == MS_MEMCG_USAGE)
			counts[m] = usage;
		else if (d->source == MS_MEMCG_PEAK)
			counts[m] = peak;
		else if (d->source == MS_MEMCG_KMEM)
			counts[m] = kmem;
		else
			continue;
		if (d->less)
			counts[m] = gauge_less(wl, counts, counts[m], d->less);
	}
}

/*
 * A counter's increase since the last sample, unknown if either count is
 * (the kernel's program counters without statistics); a gauge's level now.
 */
static uint64_t interval_value(const struct metric_def *d, uint64_t prev, uint64_t cur)
{
	if (d->kind == MK_GAUGE)
		return cur;
	return cur == METRIC_UNKNOWN || prev == METRIC_UNKNOWN ? METRIC_UNKNOWN : cur - prev;
}

/* One measured interval into r, with its per-producer increases if any. */
static int record_interval(struct point_result *r, struct thread_counts *tc,
			   struct interval *iv)
{
	int err = thread_counts_delta(tc, iv);

	if (!err)
		err = add_interval(r, iv);
	if (err)
		free(iv->thread_delta);
	return err;
}

/*
 * Where interval i of the repetition ends, in ns after its span began: the
 * warmup's intervals, then the duration's, each span cut by timing.c.
 */
static uint64_t interval_end(const struct span_split *warm, const struct span_split *dur,
			     uint64_t i)
{
	return i < warm->nr ? timing_end_ns(warm, i) : timing_end_ns(dur, i - warm->nr);
}

/*
 * The warmup begins once every worker has run past the gate: a created
 * thread is not a running one.  Beside 1024 spinning threads of another
 * sweep on 2 CPUs, a worker's first slice came up to 667 ms after the
 * release, and a short warmup then measured producers that had not
 * begun.  A sweep's own 1024 producers all ran within about 2 s here.
 * Past START_WAIT_S the sweep goes on: a producer that never ran shows in
 * the starved flag, or in a stalled point's reason.
 */
#define START_WAIT_S	10

static int wait_workers_running(struct rep_ctx *rc)
{
	struct timespec give_up;

	clock_gettime(CLOCK_MONOTONIC, &give_up);
	give_up.tv_sec += START_WAIT_S;
	while (count_wait_zero_until(&rc->unstarted, &give_up) == -EINTR)
		if (rc->stop_requested())
			return -EINTR;
	return 0;
}

/*
 * The measurement loop.  Each interval records the counter deltas and
 * the real time between the two samples that bound it.  Deadlines are
 * absolute, from the start of the span: the measured span starts when the
 * sample that ends the warmup was taken, so that a late wake-up there does
 * not shorten it.
 */
static int sample_loop(const struct sweep_cfg *cfg, struct rep_ctx *rc, int rep,
		       struct point_result *r)
{
	struct span_split warm = timing_split(cfg->warmup_ns, cfg->interval_ns);
	struct span_split dur = timing_split(cfg->duration_ns, cfg->interval_ns);
	uint64_t nr_warm = warm.nr, nr_all = warm.nr + dur.nr;
	uint64_t prev[WL_MAX_METRICS] = { 0 }, cur[WL_MAX_METRICS];
	uint64_t prev_t, t, span_start;
	struct thread_counts tc;
	int err;

	err = thread_counts_init(&tc, rc->wl, r->nr_producers);
	if (err)
		return err;
	err = rc->wl->sample(rc->state, prev, tc.prev);
	if (err)
		goto out;
	fill_memcg(rc, prev);
	prog_fill(rc->wl, rc->state, prev);
	load_fill(rc->wl, &rc->load, prev);
	span_start = prev_t = now_ns();
	if (!nr_warm)
		load_begin(rc);
	woke(rc, nr_warm > 0);
	for (uint64_t i = 0; i < nr_all; i++) {
		struct interval iv = { .rep = rep, .idx = i, .warmup = i < nr_warm };

		err = -EINTR;
		if (!sleep_until(rc, span_start + interval_end(&warm, &dur, i)))
			goto out;
		err = rc->wl->sample(rc->state, cur, tc.cur);
		t = now_ns();
		if (!err && atomic_load(&rc->nr_failed))
			err = -ECHILD;
		if (err)
			goto out;
		fill_memcg(rc, cur);
		prog_fill(rc->wl, rc->state, cur);
		load_fill(rc->wl, &rc->load, cur);
		iv.elapsed_ns = t - prev_t;
		for (int m = 0; m < rc->wl->nr_metrics; m++)
			iv.value[m] = interval_value(&rc->wl->metrics[m], prev[m], cur[m]);
		err = record_interval(r, &tc, &iv);
		if (err)
			goto out;
		memcpy(prev, cur, sizeof(prev));
		prev_t = t;
		if (i + 1 == nr_warm) {
			load_begin(rc);
			span_start = t;
		} else if (i + 1 < nr_all &&
			   span_start + interval_end(&warm, &dur, i + 1) <= t) {
			/* fell behind its next deadline: the cadence resumes from now */
			span_start = t - interval_end(&warm, &dur, i);
		}
		if (i + 1 < nr_all)
			woke(rc, i + 1 < nr_warm);
	}
	load_end(rc, r);
out:
	thread_counts_free(&tc);
	return err;
}

static void run_out_free(struct wl_run_out *out, int from)
{
	for (int i = from; i < out->nr_iv; i++)
		free(out->iv[i].thread_delta);
	free(out->iv);
	*out = (struct wl_run_out){ 0 };
}

/* The intervals a run() measured, as the repetition's; out's are freed. */
static int take_intervals(struct wl_run_out *out, int rep, struct point_result *r)
{
	int err = 0, i;

	for (i = 0; i < out->nr_iv && !err; i++) {
		const struct wl_interval *w = &out->iv[i];
		struct interval iv = { .rep = rep, .idx = i, .warmup = w->warmup,
				       .elapsed_ns = w->elapsed_ns, .thread_delta = w->thread_delta };

		memcpy(iv.value, w->value, sizeof(iv.value));
		err = add_interval(r, &iv);
		if (err)
			free(w->thread_delta);
	}
	run_out_free(out, i);
	return err;
}

/*
 * A repetition the workload measures itself (wl->run: a program with its
 * own clock).  No threads of ours run; the load window spans the program.
 * Its threads' run delay is not read: the window ends after the program
 * has exited, and an exited thread's sched_info goes with it (a zombie
 * leader keeps its own only), so its interference is unknown, not 0.
 */
static int run_external(struct rep_ctx *rc, int rep, struct point_result *r)
{
	struct wl_run_out out = { 0 };
	int err = assign_cpus(rc, false, false, r);

	if (err)
		return err;
	load_begin(rc);
	err = rc->wl->run(rc->state, rc->stop_requested, &out, r->reason, sizeof(r->reason));
	if (err)
		return err;
	load_end(rc, r);
	/* one count of each worker per interval: the same workers in every repetition */
	if (wl_thread_metric(rc->wl) >= 0) {
		if (rep && out.nr_threads != r->nr_producers) {
			snprintf(r->reason, sizeof(r->reason), "run: %d workers, %d before",
				 out.nr_threads, r->nr_producers);
			run_out_free(&out, 0);
			return -EPROTO;
		}
		r->nr_producers = out.nr_threads;
	}
	return take_intervals(&out, rep, r);
}

/* The caveat of an ok point whose memory gauges are unknown: "memory: <why>". */
#define MEMORY_NOTE	"memory: "

/* A caveat of an ok point (memory's, loadfill.h's), which a failure's reason replaces. */
static bool is_ok_note(const char *reason)
{
	return !strncmp(reason, MEMORY_NOTE, strlen(MEMORY_NOTE)) ||
	       !strncmp(reason, LOAD_NOTE, strlen(LOAD_NOTE));
}

/* See repetition.h; the memory note is memcg_begin()'s. */
void rep_set_reason(struct point_result *r, const char *what, int err)
{
	if (err == -EINTR)
		snprintf(r->reason, sizeof(r->reason), "interrupted by signal");
	else if (!r->reason[0] || is_ok_note(r->reason))
		snprintf(r->reason, sizeof(r->reason), "%s: %s", what, strerror(-err));
}

static bool has_source(const struct workload *wl, enum metric_source src)
{
	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].source == src)
			return true;
	return false;
}

static bool uses_memcg(const struct workload *wl)
{
	return has_source(wl, MS_MEMCG_USAGE) || has_source(wl, MS_MEMCG_PEAK) ||
	       has_source(wl, MS_MEMCG_KMEM);
}

/*
 * The repetition's memory cgroup, for a workload with memory gauges.
 * Without one the point still runs: its reason says why memory is unknown.
 */
static struct memcg *memcg_begin(const struct workload *wl, struct point_result *r)
{
	struct memcg *mc;
	char why[sizeof(r->reason) - sizeof(MEMORY_NOTE)];

	if (!uses_memcg(wl))
		return NULL;
	if (memcg_create(&mc, why, sizeof(why)))
		snprintf(r->reason, sizeof(r->reason), MEMORY_NOTE "%s", why);
	return mc;
}

/*
 * The peak from here on is the workload's while it runs.  Where the kernel
 * cannot reset it, the note says the peak includes loading the program.
 */
static void memcg_reset_peak_after_setup(struct memcg *mc, struct point_result *r)
{
	if (memcg_reset_peak(mc) && !r->reason[0])
		snprintf(r->reason, sizeof(r->reason), MEMORY_NOTE
			 "the peak includes the setup (this kernel cannot reset the cgroup's peak)");
}

/* An external program's run (wl->run) measured: its intervals into r. */
static int measure_external(struct rep_ctx *rc, int rep, struct point_result *r)
{
	int err;

	rc->stat_begin = malloc(sizeof(*rc->stat_begin));
	rc->stat_end = malloc(sizeof(*rc->stat_end));
	err = run_external(rc, rep, r);
	if (err)
		rep_set_reason(r, "run", err);
	free(rc->stat_begin);
	free(rc->stat_end);
	return err;
}

/* The workload's threads started, sampled for the warmup and duration, stopped. */
static int measure_threads(const struct sweep_cfg *cfg, struct rep_ctx *rc,
			   const struct wl_threads *thr, int rep, struct point_result *r)
{
	int err;

	err = alloc_workers(rc, thr);
	if (!err)
		err = assign_cpus(rc, cfg->affinity, thr->one_cpu, r);
	if (err)
		return err;
	/* without them, only the load flags are missing */
	rc->stat_begin = malloc(sizeof(*rc->stat_begin));
	rc->stat_end = malloc(sizeof(*rc->stat_end));
	/* and without this, the starved flag's and a stall's word on the producers' CPU */
	if (thr->nr_producers > 0)
		rc->cpu_begin = calloc(thr->nr_producers, sizeof(*rc->cpu_begin));
	err = start_workers(rc);
	if (!err)
		err = wait_workers_running(rc);
	if (!err)
		err = sample_loop(cfg, rc, rep, r);
	stop_workers(rc);
	if (err == -ECHILD || (!err && atomic_load(&rc->nr_failed)))
		err = worker_failure(rc, r->reason, sizeof(r->reason));
	if (err)
		rep_set_reason(r, "measure", err);
	free(rc->stat_begin);
	free(rc->stat_end);
	free(rc->cpu_begin);
	return err;
}

/* One count of each producer per interval: the same producers in every repetition. */
static int same_producers(const struct workload *wl, const struct wl_threads *thr, int rep,
			  struct point_result *r)
{
	if (!rep || wl->run || thr->nr_producers == r->nr_producers || wl_thread_metric(wl) < 0)
		return 0;
	snprintf(r->reason, sizeof(r->reason), "setup: %d producers, %d before",
		 thr->nr_producers, r->nr_producers);
	return -EPROTO;
}

int rep_run(const struct sweep_cfg *cfg, const struct point *pt, int rep,
	    const struct rep_watch *w, struct point_result *r)
{
	struct rep_ctx rc = {
		.wl = cfg->wl,
		.stop_requested = w->stop_requested,
		.watch = w,
	};
	struct wl_threads thr = { 0 };
	int err;

	/* before the memory cgroup: the sampler's maps are not the workload's memory */
	rc.prof = rep_profile_begin(cfg, rep, r);
	rc.memcg = memcg_begin(cfg->wl, r);
	rc.wants_kmem = has_source(cfg->wl, MS_MEMCG_KMEM);
	err = cfg->wl->setup(&pt->wp, &rc.state, &thr, r->reason, sizeof(r->reason));
	if (err) {
		rep_set_reason(r, "setup", err);
		goto leave_memcg;
	}
	err = same_producers(cfg->wl, &thr, rep, r);
	if (!err) {
		r->nr_producers = thr.nr_producers;
		r->nr_consumers = thr.nr_consumers;
		err = load_read(cfg->wl, rc.state, rep, &rc.load, r);
		if (err)
			rep_set_reason(r, "load figures", err);
	}
	if (!err) {
		if (rc.memcg)
			memcg_reset_peak_after_setup(rc.memcg, r);
		err = cfg->wl->run ? measure_external(&rc, rep, r) :
				     measure_threads(cfg, &rc, &thr, rep, r);
	}
	free(rc.workers);
	/* while the workload's programs, and so their symbols, are loaded */
	rep_profile_end(&rc.prof, r);
	cfg->wl->teardown(rc.state);
leave_memcg:
	rep_profile_end(&rc.prof, r);
	memcg_destroy(rc.memcg);
	return err;
}
