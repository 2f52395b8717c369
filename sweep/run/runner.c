// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: the points in order, each one the plan found runnable
 * measured once per repetition (repetition.c), `repeat` times or, with a
 * precision, until its interval is narrow enough (precision.c), summarized
 * into its statistics and quality flags, and run again while it is noisy,
 * up to retry_noisy more times; its row goes to done() before the next
 * starts.
 *
 * It owns the stop signals (stop.h: SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...)
 * while the points run; the handler only sets a flag, which a
 * repetition's sampler sees when its sleep is cut short.
 * Should a workload hang, a second Ctrl-C (a second or more after the
 * first) ends the process, and every finished point is already on disk.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gate.h"
#include "precision.h"
#include "progress.h"
#include "repetition.h"
#include "repprofile.h"
#include "rounds.h"
#include "runner.h"
#include "statspass.h"
#include "stop.h"
#include "timing.h"

/*
 * One request to stop may come as two signals: timeout(1) signals the
 * child, then its whole process group, so a one-shot handler was killed
 * by the second copy, leaving no table, charts or end in meta.  A signal
 * within this long of the first is that copy; a later one ends the process.
 */
#define SAME_REQUEST_NS	1000000000ULL

static volatile sig_atomic_t interrupted;
static uint64_t first_signal_ns;	/* written by the handler only, while !interrupted */

static uint64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static bool asked_to_stop(void)
{
	return interrupted;
}

/* Async-signal-safe: clock_gettime(), open/write/close, signal() and raise() only. */
static void on_signal(int sig)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* every write to a reader that went away says it again: one request */
	if (interrupted && sig == SIGPIPE)
		return;
	if (!interrupted) {
		first_signal_ns = ts_ns(&ts);
		interrupted = sig;
	} else if (ts_ns(&ts) - first_signal_ns >= SAME_REQUEST_NS) {
		/* the sysctl is the machine's: not left at 1 by a hung workload */
		wl_bpf_stats_off_async();
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static enum point_status status_of(int err)
{
	if (!err)
		return PS_OK;
	if (err == -EINTR)
		return PS_INTERRUPTED;
	return wl_err_is_unsupported(err) ? PS_UNSUPPORTED : PS_FAILED;
}

/* "rep 2/3: ..." when a later repetition fails after earlier ones ran. */
static void prefix_rep(struct point_result *r, int rep, int nr_reps)
{
	char prefix[32];
	size_t pre = snprintf(prefix, sizeof(prefix), "rep %d/%d: ", rep + 1, nr_reps);
	size_t len = strlen(r->reason);

	/* the end of an overlong reason gives way to the prefix */
	if (pre + len >= sizeof(r->reason))
		len = sizeof(r->reason) - pre - 1;
	memmove(r->reason + pre, r->reason, len);
	memcpy(r->reason, prefix, pre);
	r->reason[pre + len] = '\0';
}

/* Statistics and quality flags of a try that ran to its end. */
static int summarize(const struct sweep_cfg *cfg, struct point_result *r)
{
	int err = point_result_summarize(r);

	if (!err)
		err = point_result_assess(r, cfg->max_cv);
	if (err)
		rep_set_reason(r, "summarize", err);
	return err;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/*
 * Is a try of the point done after reps repetitions?  With a fixed count
 * when it has run them; with a precision (precision.h) when the
 * repetitions so far, summarized, reach the target or the budget.
 */
static int reps_done(const struct sweep_cfg *cfg, struct point_result *r, int reps,
		     uint64_t start_ns, bool *done)
{
	int err;

	/* a point with no arm to be compared with under decide: its first look's rounds */
	*done = reps >= precision_min_reps(cfg);
	if (!(cfg->precision_pct > 0)) {
		if (*done)
			snprintf(r->stop, sizeof(r->stop), "repeat");
		return 0;
	}
	if (reps < precision_min_reps(cfg))
		return 0;
	err = summarize(cfg, r);
	if (!err)
		*done = precision_stop(cfg, r, reps, now_ns() - start_ns);
	return err;
}

/* Every repetition of one try of the point. */
static int run_reps(const struct sweep_cfg *cfg, const struct point *pt, const char *name,
		    struct progress *prog, struct point_result *r)
{
	struct rep_watch watch = progress_watch(prog, asked_to_stop);
	int err = 0, max = precision_max_reps(cfg);
	uint64_t start = now_ns();
	bool done = false;

	for (int rep = 0; !err && !done; rep++) {
		if (interrupted) {
			err = -EINTR;
			rep_set_reason(r, "", err);
			break;
		}
		progress_begin(prog, name, rep, max);
		err = rep_run(cfg, pt, rep, &watch, r);
		if (err && max > 1)
			prefix_rep(r, rep, max);
		if (!err)
			err = reps_done(cfg, r, rep + 1, start, &done);
	}
	return err;
}

/*
 * Is the point stalled?  One that ran to its end but whose headline
 * counter, and every other of the workload's, counted nothing in every
 * measured interval measured nothing: stalled, its reason saying so,
 * rather than an ok row of 0 (a chart's 0, a comparison's "-100 %").
 */
/*
 * The most CPU time any producer had over the measured intervals, in ns,
 * and those intervals' time; false when unknown.
 */
static bool producers_cpu(const struct point_result *r, uint64_t *most, uint64_t *measured)
{
	*most = 0;
	*measured = point_result_measured_ns(r);
	for (int p = 0; r->thread_cpu_ns && p < r->nr_producers; p++) {
		if (r->thread_cpu_ns[p] == THREAD_CPU_UNKNOWN)
			return false;
		*most = r->thread_cpu_ns[p] > *most ? r->thread_cpu_ns[p] : *most;
	}
	return r->thread_cpu_ns && r->nr_producers > 0 && *measured;
}

/*
 * The producers' wait for a CPU over the measured windows, and those
 * windows' time (schedstat's run delay: thread_wait holds the consumers,
 * then the producers); false when unknown.  *idle: the first producer
 * that never ran in a window, with its state as it ended (schedstat.h),
 * or NULL.
 */
static bool producers_delay(const struct point_result *r, uint64_t *delay, uint64_t *window,
			    const struct thread_wait **idle)
{
	*delay = *window = 0;
	*idle = NULL;
	if (r->nr_thread_wait != r->nr_consumers + r->nr_producers)
		return false;
	for (int p = 0; p < r->nr_producers; p++) {
		const struct thread_wait *tw = &r->thread_wait[r->nr_consumers + p];

		if (tw->unknown)
			return false;
		*delay += tw->delay_ns;
		*window += tw->window_ns;
		if (!*idle && tw->idle_state)
			*idle = tw;
	}
	return *window > 0;
}

/*
 * "; one idle a whole window: R, queued for CPU 1" or "...: S in
 * anon_pipe_read", its state as that window ended: a producer queued
 * through a whole window has no wait counted yet (schedstat.h).
 */
static int note_idle(const struct thread_wait *idle, char *buf, size_t len)
{
	int n = snprintf(buf, len, "; one idle a whole window: %c", idle->idle_state);

	if (idle->idle_state == 'R' && idle->cpu >= 0)
		return n + snprintf(buf + n, len > (size_t)n ? len - n : 0, ", queued for CPU %d",
				    idle->cpu);
	if (idle->idle_state == 'R')
		return n + snprintf(buf + n, len > (size_t)n ? len - n : 0, ", queued");
	if (idle->idle_wchan[0])
		n += snprintf(buf + n, len > (size_t)n ? len - n : 0, " in %s", idle->idle_wchan);
	return n;
}

/*
 * Where the producers had under a tenth of the measured time on a CPU,
 * what they did instead: waited for one (starved: the stall is the
 * machine's, not the program's) or neither ran nor waited (asleep: blocked
 * in the program or the kernel).  Said with the figures.
 */
static int note_starved(const struct point_result *r, char *buf, size_t len)
{
	const struct thread_wait *idle;
	uint64_t most, measured, delay, window;
	bool starved;
	int n;

	if (!producers_cpu(r, &most, &measured) || most * 10 >= measured)
		return 0;
	if (!producers_delay(r, &delay, &window, &idle))
		return snprintf(buf, len, " (the most CPU a producer had was %.1f ms of %.2f s "
				"measured)", most / 1e6, measured / 1e9);
	starved = delay * 2 >= window || (idle && idle->idle_state == 'R');
	n = snprintf(buf, len, " (%s: the most CPU a producer had was %.1f ms of %.2f s measured",
		     starved ? "starved" : "asleep", most / 1e6, measured / 1e9);
	n += snprintf(buf + n, len > (size_t)n ? len - n : 0, "; they waited %.0f%% of it for a "
		      "CPU", delay * 100.0 / window);
	if (idle)
		n += note_idle(idle, buf + n, len > (size_t)n ? len - n : 0);
	return n + snprintf(buf + n, len > (size_t)n ? len - n : 0, ")");
}

static bool note_stalled(const struct sweep_cfg *cfg, struct point_result *r)
{
	const struct metric_def *d = &cfg->wl->metrics[0];
	int n;

	if (!point_result_counted_nothing(r))
		return false;
	n = snprintf(r->reason, sizeof(r->reason), "%s counted nothing in all %d measured "
		     "intervals, nor did any other counter%s", d->name, r->quality.n,
		     r->nr_producers > 0 ? "," : "");
	if (r->nr_producers > 0 && n < (int)sizeof(r->reason))
		n += snprintf(r->reason + n, sizeof(r->reason) - n, " while %d producer%s ran",
			      r->nr_producers, r->nr_producers == 1 ? "" : "s");
	if (r->nr_producers > 0 && n < (int)sizeof(r->reason))
		n += note_starved(r, r->reason + n, sizeof(r->reason) - n);
	if (r->tries > 1 && n < (int)sizeof(r->reason))
		snprintf(r->reason + n, sizeof(r->reason) - n, ", after %d tries", r->tries);
	return true;
}

/*
 * A noisy point runs again while tries are left; the last try is the one
 * kept (samples and summary alike), so neither file holds a mix of tries.
 */
static bool try_again(const struct sweep_cfg *cfg, const struct point_result *r)
{
	return r->quality.flags && r->tries <= cfg->retry_noisy && !interrupted;
}

/* The ns_per_run pass of the try kept (a Ctrl-C in it leaves the measured point whole). */
static void stats_pass(const struct sweep_cfg *cfg, struct progress *prog, struct point_result *r)
{
	struct rep_watch watch = progress_watch(prog, asked_to_stop);
	char name[256];

	if (!stats_pass_wanted(cfg))
		return;
	point_name(cfg, r->pt, name, sizeof(name));
	progress_stats_pass(prog, name);
	stats_pass_run(cfg, r->pt, &watch, r);
}

/* The end of a point whose measuring ended with err: its ns_per_run pass, and its status. */
static void finish_point(const struct sweep_cfg *cfg, struct progress *prog, int err,
			 struct point_result *r)
{
	if (!err)
		stats_pass(cfg, prog, r);
	r->status = status_of(err);
	if (r->status == PS_OK && note_stalled(cfg, r))
		r->status = PS_STALLED;
}

/* The point's tries, up to its verdict; progress_end() is the caller's, once the row is saved. */
static int run_point(const struct sweep_cfg *cfg, const struct plan *plan,
		     const struct point *pt, const char *name, struct progress *prog,
		     struct point_result *r)
{
	int err;

	progress_experiment(prog, pt->exp, cfg->nr_exps,
			    experiment_title(cfg, &cfg->exps[pt->exp]));
	/* probed before the sweep started: nothing to ask the kernel again */
	err = plan_verdict(plan, pt->id, r->reason, sizeof(r->reason));
	while (!err) {
		r->tries++;
		err = run_reps(cfg, pt, name, prog, r);
		if (!err)
			err = summarize(cfg, r);
		if (err || !try_again(cfg, r))
			break;
		progress_retry(prog, name, r, cfg->retry_noisy + 1);
		point_result_reset(r);
	}
	finish_point(cfg, prog, err, r);
	return err;
}

/* A point whose units ran in rounds: one try, summarized unless it failed, then finished. */
static void finish_rounds_point(const struct sweep_cfg *cfg, struct progress *prog, int err,
				struct point_result *r)
{
	r->tries = 1;
	if (err)
		rep_set_reason(r, "rounds", err);
	else
		err = summarize(cfg, r);
	finish_point(cfg, prog, err, r);
}

/*
 * A decision stands on units that a trend, two regimes or a starved
 * worker in either arm make other than the test assumes: it is
 * inconclusive then (the flags, QUALITY_VETO_FLAGS, say why).
 */
static void veto_decisions(const struct arm_set *set, struct point_result *res)
{
	unsigned int base = res[set->base].quality.flags & QUALITY_VETO_FLAGS;

	res[set->base].set_baseline = true;
	for (int i = set->first; i < set->first + set->nr; i++)
		if (res[i].has_decision)
			res[i].decision_veto = base | (res[i].quality.flags & QUALITY_VETO_FLAGS);
}

/*
 * A set of arms in interleaved rounds (rounds.h), then each arm's
 * statistics, ns_per_run pass and status.  No retries: a noisy round
 * falls on every arm, and the decision's interval widens with it.
 */
static void run_set(const struct sweep_cfg *cfg, const struct arm_set *set,
		    struct progress *prog, struct point_result *res)
{
	const struct point *first = res[set->first].pt;
	struct rounds_io io = { .stop_requested = asked_to_stop, .prog = prog };
	int *err = calloc(set->nr, sizeof(*err)), e;

	progress_experiment(prog, first->exp, cfg->nr_exps,
			    experiment_title(cfg, &cfg->exps[first->exp]));
	e = err ? rounds_run(cfg, set, &io, res, err) : -ENOMEM;
	for (int k = 0; k < set->nr; k++)
		finish_rounds_point(cfg, prog, e ?: err[k], &res[set->first + k]);
	veto_decisions(set, res);
	free(err);
}

int runner_stop_signal(void)
{
	return interrupted;
}

static void install_signals(struct sigaction *old)
{
	interrupted = 0;
	/*
	 * SA_RESTART: the handler may stay through the table and charts, whose
	 * writes to a pipe or terminal must not fail with EINTR; the sampler's
	 * clock_nanosleep() is never restarted (signal(7)), so it still wakes.
	 */
	stop_install(on_signal, SA_RESTART, old);
}

/* done() and the progress line of each point of set, in order; the first error of done() stops. */
static int set_done(const struct sweep_cfg *cfg, const struct arm_set *set,
		    struct progress *prog, point_done_fn done, void *ctx,
		    struct point_result *res, int *nr_run)
{
	int err = 0;

	for (int i = set->first; i < set->first + set->nr && !err; i++) {
		char name[256];

		point_name(cfg, res[i].pt, name, sizeof(name));
		err = done ? done(&res[i], ctx) : 0;
		/* after the row is on disk: a line that says "ok" never claims more */
		progress_end(prog, name, &res[i]);
		*nr_run = i + 1;
	}
	return err;
}

/*
 * A point whose units the sweep over kernels runs in rounds with the
 * other kernels' (gate.h): announced, then its units as the sweep says,
 * or on its own when it says so (or its probe ruled it out here).
 */
static void run_gated(const struct sweep_cfg *cfg, const struct plan *plan, struct gate *gate,
		      const char *name, struct progress *prog, struct point_result *r)
{
	char why[8];
	bool runnable = !plan_verdict(plan, r->pt->id, why, sizeof(why));
	int err;

	gate_say_point(gate, r->pt->id, runnable);
	if (!runnable || gate->free) {
		run_point(cfg, plan, r->pt, name, prog, r);
		return;
	}
	progress_experiment(prog, r->pt->exp, cfg->nr_exps,
			    experiment_title(cfg, &cfg->exps[r->pt->exp]));
	err = gate_units(cfg, gate, prog, asked_to_stop, r);
	if (err == GATE_SOLO_POINT) {
		run_point(cfg, plan, r->pt, name, prog, r);
		return;
	}
	finish_rounds_point(cfg, prog, err, r);
}

/* One set: a point on its own (gated or not), or arms in rounds. */
static void run_one_set(const struct sweep_cfg *cfg, const struct plan *plan, struct gate *gate,
			const struct arm_set *set, struct progress *prog, struct point_result *res)
{
	struct point_result *r = &res[set->first];
	char name[256];

	if (set->nr > 1) {
		run_set(cfg, set, prog, res);
		return;
	}
	point_name(cfg, r->pt, name, sizeof(name));
	if (gate)
		run_gated(cfg, plan, gate, name, prog, r);
	else
		run_point(cfg, plan, r->pt, name, prog, r);
}

/* With a gate the sweep orders the units: every point a set of its own, in pts' order. */
static void order_sets(const struct sweep_cfg *cfg, const struct plan *plan, bool gated,
		       const struct point *pts, int nr, int *order, struct arm_set *sets,
		       int *nr_sets)
{
	if (!gated) {
		rounds_order(cfg, plan, pts, nr, order, sets, nr_sets);
		return;
	}
	for (int i = 0; i < nr; i++) {
		order[i] = i;
		sets[i] = (struct arm_set){ .first = i, .nr = 1, .base = -1 };
	}
	*nr_sets = nr;
}

/*
 * The points in the order rounds_order() gives (pts' own without decide):
 * results[i] is the i-th point run, its .pt saying which.
 */
int runner_run(const struct sweep_cfg *cfg, const struct plan *plan, const struct point *pts,
	       int nr, point_done_fn done, void *ctx, struct point_result **results, int *nr_run)
{
	return runner_run_gated(cfg, plan, pts, nr, NULL, done, ctx, results, nr_run);
}

int runner_run_gated(const struct sweep_cfg *cfg, const struct plan *plan,
		     const struct point *pts, int nr, struct gate *gate, point_done_fn done,
		     void *ctx, struct point_result **results, int *nr_run)
{
	struct sigaction old[STOP_NR_SIGNALS];
	int *order = calloc(nr ? nr : 1, sizeof(*order)), nr_sets = 0, err = 0, n = 0;
	struct arm_set *sets = calloc(nr ? nr : 1, sizeof(*sets));
	struct point_result *res = calloc(nr ? nr : 1, sizeof(*res));
	struct progress prog;

	if (!order || !sets || !res) {
		free(order);
		free(sets);
		free(res);
		return -ENOMEM;
	}
	order_sets(cfg, plan, gate, pts, nr, order, sets, &nr_sets);
	for (int i = 0; i < nr; i++)
		res[i].pt = &pts[order[i]];
	progress_init(&prog, nr, plan_runnable(plan, pts, nr), plan_point_min_ns(cfg), NULL);
	install_signals(old);
	for (int s = 0; s < nr_sets && !interrupted && !err; s++) {
		run_one_set(cfg, plan, gate, &sets[s], &prog, res);
		err = set_done(cfg, &sets[s], &prog, done, ctx, res, &n);
	}
	if (gate && !interrupted)
		gate_say_bye(gate);
	rep_profile_close();
	/* interrupted: the copy of the signal may still come, during the table and charts */
	if (!interrupted)
		stop_restore(old);
	progress_finish(&prog);
	free(order);
	free(sets);
	*results = res;
	*nr_run = n;
	if (!err && interrupted)
		err = -EINTR;
	return err;
}

void point_results_free(struct point_result *r, int nr)
{
	for (int i = 0; r && i < nr; i++) {
		point_result_free_intervals(&r[i]);
		free(r[i].cpus);
	}
	free(r);
}
