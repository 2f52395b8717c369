// SPDX-License-Identifier: GPL-2.0
/*
 * Rounds across kernels (conductor.h).  The sub-runs announce each point
 * in the same order (one spec, one --only); a point runs in rounds when
 * the baseline kernel and at least one other can run it, else each that
 * can runs it on its own ("solo").  A sub-run that stops speaking (its
 * guest gone, a line that makes no sense) is let go, and the others run
 * the rest on their own ("free"): no point waits forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "conductor.h"
#include "diag.h"
#include "precision.h"
#include "quality.h"
#include "scratch.h"
#include "stop.h"

#define WAIT_TICK_MS	200

/* One point's rounds: the arms (kernels that run it) and what their units measured. */
struct point_rounds {
	int id;
	int arms[MAX_KERNELS];		/* kernel indexes, arms[0] == 0, the baseline */
	int nr_arms;
	double *values[MAX_KERNELS];	/* per arm, each round's unit */
	unsigned int flags[MAX_KERNELS];
	struct decide_result d[MAX_KERNELS];	/* per arm but the baseline's */
	bool decided;			/* d[] were made */
	int rounds;			/* complete rounds */
	char stop[GATE_STOP_MAX];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(struct conductor *c, int k, const struct gate_line *l)
{
	if (c->live[k] && gate_write(c->to[k], l))
		c->live[k] = false;
}

/* Sub-run k's next line: 0 with l, -EINTR on a stop, or why k is lost. */
static int hear(struct conductor *c, int k, struct gate_line *l)
{
	for (;;) {
		int got = gate_read(c->from[k], &c->readers[k], WAIT_TICK_MS, l);

		if (got)
			return got < 0 ? got : 0;
		if (stop_requested)
			return -EINTR;
		/* after its run returned, nothing more will come */
		if (__atomic_load_n(&c->slots[k].ended, __ATOMIC_ACQUIRE))
			return -EPIPE;
	}
}

/* Every sub-run's announcement of its next point into pts; false when none is left. */
static bool next_point(struct conductor *c, struct gate_line *pts)
{
	int id = -1;

	for (int k = 0; k < c->nr; k++) {
		if (!c->live[k])
			continue;
		if (hear(c, k, &pts[k]) || pts[k].kind != GATE_POINT) {
			c->live[k] = false;	/* a bye, or gone */
			continue;
		}
		/* the same spec, in the same order: a mismatch lets every one go */
		if (id >= 0 && pts[k].id != id)
			return false;
		id = pts[k].id;
	}
	return id >= 0;
}

static void let_go(struct conductor *c)
{
	for (int k = 0; k < c->nr; k++)
		say(c, k, &(struct gate_line){ .kind = GATE_FREE });
}

/* Arm a's log ratios to the baseline over rounds 0..n-1; false when a round has none. */
static bool log_ratios(const struct point_rounds *pr, int a, int n, double *lr)
{
	for (int r = 0; r < n; r++)
		if (!decide_log_ratio(pr->values[a][r], pr->values[0][r], &lr[r]))
			return false;
	return true;
}

/* Every arm's decision after n rounds: true when each is different or the same. */
static bool decide_arms(const struct sweep_cfg *cfg, struct point_rounds *pr, int n, bool last,
			double *lr)
{
	struct decide_rule rule;
	bool all = true;

	precision_decide_rule(cfg, &rule);
	pr->decided = true;
	for (int a = 1; a < pr->nr_arms; a++) {
		struct decide_result *d = &pr->d[a];

		if (!log_ratios(pr, a, n, lr) || decide_paired(&rule, lr, n, last, d)) {
			decide_no_test(d, n, NAN);
			d->paired = true;
			continue;
		}
		all &= d->word == DECIDE_DIFFERENT || d->word == DECIDE_SAME;
	}
	return all;
}

/* One round in shuffled order: 0, or -errno when an arm failed or was lost. */
static int run_round(struct conductor *c, struct point_rounds *pr, gsl_rng *g, int *perm)
{
	gsl_ran_shuffle(g, perm, pr->nr_arms, sizeof(*perm));
	for (int s = 0; s < pr->nr_arms; s++) {
		int a = perm[s], k = pr->arms[a], err;
		struct gate_line l;

		say(c, k, &(struct gate_line){ .kind = GATE_RUN, .round = pr->rounds, .slot = s });
		err = hear(c, k, &l);
		if (!err && (l.kind != GATE_UNIT || l.id != pr->id || l.round != pr->rounds))
			err = l.kind == GATE_FAIL ? -EIO : -EPROTO;
		if (err) {
			/* a failed unit ended its point there: it waits for no end */
			if (err != -EIO)
				c->live[k] = false;
			pr->arms[a] = -1 - k;
			return err;
		}
		pr->values[a][pr->rounds] = l.value;
		pr->flags[a] = l.flags;
	}
	pr->rounds++;
	return 0;
}

/* Would one more round pass max_time, at the pace of the n so far since start? */
static bool over_time(const struct sweep_cfg *cfg, int n, double start)
{
	return precision_past_time(cfg, n, (uint64_t)((now_s() - start) * 1e9));
}

/* The rounds until every arm is decided, the budget ends, or one stops. */
static void rounds_loop(struct conductor *c, struct point_rounds *pr, gsl_rng *g, int *perm,
			double *lr)
{
	struct decide_rule rule;
	double start = now_s();
	int err = 0;

	precision_decide_rule(c->cfg, &rule);
	while (!(err = run_round(c, pr, g, perm))) {
		int n = pr->rounds;
		bool last = n >= rule.max_rounds || over_time(c->cfg, n, start);

		if ((decide_is_look(&rule, n) || last) && decide_arms(c->cfg, pr, n, last, lr)) {
			snprintf(pr->stop, sizeof(pr->stop), "decided");
			return;
		}
		if (last) {
			snprintf(pr->stop, sizeof(pr->stop), "budget");
			return;
		}
	}
	/* cut short: what the complete rounds say, as the last look */
	pr->decided = false;
	if (pr->rounds >= DECIDE_MIN_UNITS)
		decide_arms(c->cfg, pr, pr->rounds, true, lr);
	snprintf(pr->stop, sizeof(pr->stop), "%s", err == -EINTR ? "interrupted" :
		 err == -EIO ? "failed" : "lost");
}

/* The end of the point to each arm still waiting for it. */
static void end_point(struct conductor *c, const struct point_rounds *pr)
{
	for (int a = 0; a < pr->nr_arms; a++) {
		struct gate_line l = { .kind = GATE_END, .baseline = !a,
				       .decided = a && pr->decided };

		if (pr->arms[a] < 0)
			continue;
		snprintf(l.stop, sizeof(l.stop), "%s", pr->stop);
		if (l.decided) {
			l.d = pr->d[a];
			l.veto = (pr->flags[0] | pr->flags[a]) & QUALITY_VETO_FLAGS;
		}
		say(c, pr->arms[a], &l);
	}
}

/*
 * "rounds: TITLE {VARYING}: run 2 against run 1: different: ... (5 rounds,
 * decided)" for each arm but the baseline, runs numbered as the table's.
 */
static void report_point(struct conductor *c, const struct point_rounds *pr)
{
	const struct point *pt = NULL;
	char name[512] = "", varying[256] = "", text[256];

	for (int i = 0; i < c->plan->nr_pts && !pt; i++)
		if (c->plan->pts[i].id == pr->id)
			pt = &c->plan->pts[i];
	if (pt && point_varying(c->cfg, pt, " ", varying, sizeof(varying)))
		snprintf(name, sizeof(name), "%s {%s}",
			 experiment_title(c->cfg, &c->cfg->exps[pt->exp]), varying);
	else if (pt)
		snprintf(name, sizeof(name), "%s", experiment_title(c->cfg, &c->cfg->exps[pt->exp]));
	for (int a = 1; a < pr->nr_arms; a++) {
		int k = pr->arms[a] < 0 ? -1 - pr->arms[a] : pr->arms[a];

		if (pr->decided)
			decide_text(&pr->d[a], NULL, text, sizeof(text));
		else
			snprintf(text, sizeof(text), "no decision");
		fprintf(stderr, "rounds: %s: run %d against run 1: %s (%d round%s, %s)\n", name,
			k + 1, text, pr->rounds, pr->rounds == 1 ? "" : "s", pr->stop);
	}
}

/* The point's arms: the kernels that can run it, the baseline first; false: not a set. */
static bool gather_arms(struct conductor *c, const struct gate_line *pts, struct point_rounds *pr)
{
	pr->nr_arms = 0;
	for (int k = 0; k < c->nr; k++)
		if (c->live[k] && pts[k].runnable)
			pr->arms[pr->nr_arms++] = k;
	return pr->nr_arms >= 2 && pr->arms[0] == 0;
}

/* One point: in rounds across its arms, or on its own on each kernel that runs it. */
static void conduct_point(struct conductor *c, const struct gate_line *pts, gsl_rng *g)
{
	int max = precision_max_reps(c->cfg), perm[MAX_KERNELS];
	struct point_rounds pr = { .id = pts[0].id };
	double *lr = calloc(max + 1, sizeof(*lr));
	bool set = gather_arms(c, pts, &pr);

	for (int a = 0; set && a < pr.nr_arms; a++) {
		pr.values[a] = calloc(max + 1, sizeof(double));
		set = pr.values[a] != NULL;
		perm[a] = a;
	}
	for (int k = 0; k < c->nr; k++)
		pr.id = c->live[k] ? pts[k].id : pr.id;
	if (!set || !lr) {
		for (int a = 0; a < pr.nr_arms; a++)
			say(c, pr.arms[a], &(struct gate_line){ .kind = GATE_SOLO });
	} else {
		gsl_rng_set(g, pr.id + 1);
		rounds_loop(c, &pr, g, perm, lr);
		end_point(c, &pr);
		report_point(c, &pr);
		c->nr_points++;
		c->nr_decided += !strcmp(pr.stop, "decided");
	}
	for (int a = 0; a < MAX_KERNELS; a++)
		free(pr.values[a]);
	free(lr);
}

static void *conduct(void *arg)
{
	struct conductor *c = arg;
	struct gate_line pts[MAX_KERNELS];
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	while (g && !stop_requested && next_point(c, pts))
		conduct_point(c, pts, g);
	let_go(c);
	if (g)
		gsl_rng_free(g);
	return NULL;
}

/* Pair k: <dir>/<k>.in and .out, each held open both ways, so no open of theirs waits. */
static int open_pair(struct conductor *c, int k)
{
	char in[128], out[128];

	snprintf(c->pipes[k], sizeof(c->pipes[k]), "%s/%d", c->dir, k + 1);
	snprintf(in, sizeof(in), "%s.in", c->pipes[k]);
	snprintf(out, sizeof(out), "%s.out", c->pipes[k]);
	if (mkfifo(in, 0600) || mkfifo(out, 0600))
		return -errno;
	c->to[k] = open(in, O_RDWR | O_CLOEXEC);
	c->from[k] = open(out, O_RDWR | O_CLOEXEC);
	if (c->to[k] < 0 || c->from[k] < 0)
		return -errno;
	c->live[k] = true;
	return 0;
}

int conductor_open(struct conductor *c, const struct sweep_cfg *cfg, const struct plan *plan,
		   int nr)
{
	int err;

	*c = (struct conductor){ .cfg = cfg, .plan = plan, .nr = nr };
	for (int k = 0; k < MAX_KERNELS; k++)
		c->to[k] = c->from[k] = -1;
	err = scratch_make(c->dir, sizeof(c->dir), "gate");
	for (int k = 0; !err && k < nr; k++)
		err = open_pair(c, k);
	if (err) {
		diag_err("cannot make the kernels' gates in %s: %s", c->dir, strerror(-err));
		conductor_finish(c);
	}
	return err;
}

int conductor_start(struct conductor *c, struct subrun_slot *slots)
{
	sigset_t stop_sigs, old;
	int err;

	c->slots = slots;
	/* the main thread takes the stop signals (stop.h), as orch_parallel()'s threads leave them */
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, &old);
	err = -pthread_create(&c->thread, NULL, conduct, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	c->started = !err;
	return err;
}

void conductor_finish(struct conductor *c)
{
	if (c->started)
		pthread_join(c->thread, NULL);
	c->started = false;
	for (int k = 0; k < MAX_KERNELS; k++) {
		if (c->to[k] >= 0)
			close(c->to[k]);
		if (c->from[k] >= 0)
			close(c->from[k]);
		c->to[k] = c->from[k] = -1;
	}
	if (c->dir[0])
		scratch_remove(c->dir);
	c->dir[0] = '\0';
}
