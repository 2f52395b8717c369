// SPDX-License-Identifier: GPL-2.0
/*
 * A bisect walked: see bisect_walk.h.  Each round is a child run
 * (bisect_run.c); what this file adds is the pooling of a kernel's rounds,
 * the ends' judgement, and the driver's callbacks (bisect.h's ops).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_page.h"
#include "bisect_walk.h"
#include "diag.h"

/* rounds a step may take when its metric is timed; icount's are deterministic: one */
#define BISECT_ROUNDS		3
#define BISECT_ALPHA		0.05
/* the ends must differ beyond this, without the spec's decide */
#define BISECT_BOUND_PCT	2.0

void bisect_walk_rule(struct bisect_walk *w, double decide_pct, bool icount)
{
	w->icount = icount;
	w->rule = (struct bisect_rule){ .alpha = BISECT_ALPHA,
					.bound_pct = decide_pct > 0 ? decide_pct : BISECT_BOUND_PCT,
					.max_rounds = icount ? 1 : BISECT_ROUNDS,
					.good = w->terms.good, .bad = w->terms.bad };
}

/* The rounds of kernel image into base, pooled into w->obs: 0, or -errno with why. */
static int pool_round(struct bisect_walk *w, const char *image, const char *base, int r,
		      struct bisect_obs *into, bool *tcg, char *why, size_t len)
{
	struct bisect_obs *round = calloc(w->nr_pts, sizeof(*round));
	struct bisect_round rd;
	bool icount;
	int err = round ? bisect_run_round(&w->br, image, base, r, &rd, why, len) : -ENOMEM;

	err = err ?: bisect_read_obs(rd.dir, w->ids, w->nr_pts, round, tcg, &icount);
	for (int i = 0; !err && i < w->nr_pts; i++) {
		/* a point's status is its first round's; its units pool over the rounds */
		if (r == 1)
			into[i] = round[i];
		else if (!strcmp(round[i].status, "ok"))
			bisect_obs_pool(&into[i], &round[i]);
	}
	free(round);
	return err;
}

/* Did none of the run's points run (its kernel did not boot)?  why: the first reason. */
static bool none_ran(const struct bisect_obs *obs, int nr, char *why, size_t len)
{
	for (int i = 0; i < nr; i++)
		if (strcmp(obs[i].status, "failed"))
			return false;
	snprintf(why, len, "no point ran: %s", nr ? obs[0].reason : "no points");
	return true;
}

/* Kernel k fetched (Debian's) and its step directory: 0, or -errno with why. */
static int prepare_kernel(struct bisect_walk *w, int k, char *base, size_t blen, char *why,
			  size_t len)
{
	int err = bisect_kernel_fetch(w->br.self, &w->list.k[k], why, len);

	if (err)
		return err;
	err = bisect_step_dir(w->out, &w->list, k, base, blen);
	if (err)
		snprintf(why, len, "cannot make %s: %s", base, strerror(-err));
	return err;
}

/* Round r of both ends into each point's good and bad. */
static int ends_round(struct bisect_walk *w, int r, bool *tcg, char *why, size_t len)
{
	struct bisect_obs *g = calloc(w->nr_pts, sizeof(*g)), *b = calloc(w->nr_pts, sizeof(*b));
	char base[2][PATH_MAX + 64];
	int ends[2] = { 0, w->list.n - 1 }, err = g && b ? 0 : -ENOMEM;

	for (int e = 0; e < 2 && !err; e++) {
		err = prepare_kernel(w, ends[e], base[e], sizeof(base[e]), why, len);
		err = err ?: pool_round(w, w->list.k[ends[e]].image, base[e], r, e ? b : g, tcg,
					why, len);
	}
	for (int i = 0; !err && i < w->nr_pts; i++) {
		if (r == 1) {
			w->pts[i].good = g[i];
			w->pts[i].bad = b[i];
		} else {
			bisect_obs_pool(&w->pts[i].good, &g[i]);
			bisect_obs_pool(&w->pts[i].bad, &b[i]);
		}
	}
	free(g);
	free(b);
	return err;
}

/* "producer only, producers=1: unsupported on 6.12.118, ok on 7.3.4" or the metric's gap. */
static void describe_ends(const struct bisect_walk *w, bool by_status, char *why, size_t len)
{
	const struct bisect_point *p = NULL;
	int nr = 0;

	for (int i = 0; i < w->nr_pts; i++)
		if (w->pts[i].by != BB_NONE && nr++ == 0)
			p = &w->pts[i];
	if (by_status)
		snprintf(why, len, "by status, %d point%s: %s: %s on the %s end, %s on the %s end",
			 nr, nr == 1 ? "" : "s", p->name, p->good.status, w->terms.good,
			 p->bad.status, w->terms.bad);
	else
		snprintf(why, len, "by metric, %d point%s: %s: %s %+.1f %% [%+.1f, %+.1f]", nr,
			 nr == 1 ? "" : "s", p->name, w->terms.bad, p->ends.est_pct,
			 p->ends.lo_pct, p->ends.hi_pct);
}

/*
 * How the ends judge the steps; a functional bisect (a point's status
 * differs) leaves the metrics out.  0, -ENODATA (nothing to bisect) or
 * -EPERM (a timed metric under plain TCG, refused: said).
 */
static int judge_ends(struct bisect_walk *w, bool tcg, char *why, size_t len)
{
	bool by_status, by_metric;

	for (int i = 0; i < w->nr_pts; i++)
		bisect_point_ends(&w->rule, &w->pts[i]);
	if (!bisect_points_judge(w->pts, w->nr_pts, &by_status, &by_metric)) {
		snprintf(why, len, "the %s and %s ends do not differ: no point's status, and no "
			 "headline metric beyond \xc2\xb1%g %%", w->terms.good, w->terms.bad,
			 w->rule.bound_pct);
		return -ENODATA;
	}
	for (int i = 0; by_status && i < w->nr_pts; i++)
		if (w->pts[i].by == BB_METRIC)
			w->pts[i].by = BB_NONE;
	if (!by_status && tcg && !w->icount && !w->allow_tcg) {
		diag_err("bisect: the ends differ only in a timed metric, and the guests ran under "
			 "plain TCG: its numbers are the emulator's time, not the kernels' (--set "
			 "vm_accel=tcg-icount measures instruction path length, --allow-tcg bisects "
			 "anyway)");
		return -EPERM;
	}
	describe_ends(w, by_status, why, len);
	return 0;
}

/* The ends' points: the good end's first round names them. */
static int read_points(struct bisect_walk *w, char *why, size_t len)
{
	char base[PATH_MAX + 64];
	struct bisect_round rd;
	int err = prepare_kernel(w, 0, base, sizeof(base), why, len);

	err = err ?: bisect_run_round(&w->br, w->list.k[0].image, base, 1, &rd, why, len);
	err = err ?: bisect_read_points(rd.dir, &w->pts, &w->ids, &w->nr_pts);
	w->obs = err ? NULL : calloc(w->nr_pts ? w->nr_pts : 1, sizeof(*w->obs));
	return err ?: w->obs ? 0 : -ENOMEM;
}

/* An end that did not run: -ENODATA, why naming it. */
static int end_ran(struct bisect_walk *w, char *why, size_t len)
{
	struct bisect_obs *o = calloc(w->nr_pts ? w->nr_pts : 1, sizeof(*o));
	char reason[200];
	int err = o ? 0 : -ENOMEM;

	for (int e = 0; e < 2 && !err; e++) {
		for (int i = 0; i < w->nr_pts; i++)
			o[i] = e ? w->pts[i].bad : w->pts[i].good;
		if (none_ran(o, w->nr_pts, reason, sizeof(reason))) {
			snprintf(why, len, "the %s end %s did not run: %s", e ? w->terms.bad :
				 w->terms.good, w->list.k[e ? w->list.n - 1 : 0].label, reason);
			err = -ENODATA;
		}
	}
	free(o);
	return err;
}

/* bisect_ops.ends: both ends run, judged; a timed metric's ends run the whole budget. */
static int run_ends(void *arg, char *why, size_t len)
{
	struct bisect_walk *w = arg;
	bool tcg = false;
	int err;

	fprintf(stderr, "bisect: the ends: %s (%s) and %s (%s)\n", w->list.k[0].label,
		w->terms.good, w->list.k[w->list.n - 1].label, w->terms.bad);
	err = read_points(w, why, len) ?: ends_round(w, 1, &tcg, why, len) ?: end_ran(w, why, len);
	err = err ?: judge_ends(w, tcg, why, len);
	/* every step is judged against the ends: a metric's run the whole budget */
	for (int r = 2; !err && w->pts && r <= w->rule.max_rounds && !strncmp(why, "by metric", 9);
	     r++) {
		err = ends_round(w, r, &tcg, why, len) ?: judge_ends(w, tcg, why, len);
	}
	return err;
}

int bisect_walk_rounds(struct bisect_walk *w, const char *image, const char *base,
		       struct bisect_step *st)
{
	bool tcg;

	for (int r = 1;; r++) {
		int err = pool_round(w, image, base, r, w->obs, &tcg, st->why, sizeof(st->why));

		st->rounds = r;
		if (err == -EINTR || err == -EINVAL)
			return err;
		/* not run, or its kernel did not boot: skipped, never guessed */
		if (err || none_ran(w->obs, w->nr_pts, st->why, sizeof(st->why))) {
			st->verdict = BV_SKIP;
			return 0;
		}
		if (!bisect_classify(&w->rule, w->pts, w->obs, w->nr_pts, r, st))
			return 0;
	}
}

/* bisect_ops.step: kernel k fetched and run, its verdict said. */
static int run_step(void *arg, int k, struct bisect_step *st)
{
	struct bisect_walk *w = arg;
	char base[PATH_MAX + 64];
	int err;
	int left = w->bs.first_bad - w->bs.last_good - 1;

	bisect_write_steps(w->out, &w->bs, &w->list, &w->terms);
	fprintf(stderr, "bisect: step %d: %s (%d kernel%s left between %s and %s)\n",
		w->bs.nr_steps + 1, w->list.k[k].label, left, left == 1 ? "" : "s",
		w->list.k[w->bs.last_good].label, w->list.k[w->bs.first_bad].label);
	err = prepare_kernel(w, k, base, sizeof(base), st->why, sizeof(st->why));
	if (err == -EINTR)
		return err;
	err = err ? 0 : bisect_walk_rounds(w, w->list.k[k].image, base, st);
	if (err)
		return err;
	fprintf(stderr, "bisect: %s: %s: %s\n", w->list.k[k].label,
		bisect_term(&w->terms, st->verdict), st->why);
	return 0;
}

static const struct bisect_ops walk_ops = { .ends = run_ends, .step = run_step };


/*
 * Debian's releases that cannot be fetched (their linux-binary, the image,
 * left the archive) are skipped before the bisect starts: never run, never
 * guessed; a bracket that closes on them names them.
 */
static void skip_incomplete(struct bisect_walk *w)
{
	int nr = 0;

	for (int k = 1; k < w->list.n - 1; k++) {
		if (!w->list.k[k].incomplete)
			continue;
		w->bs.state[k] = BV_SKIP;
		fprintf(stderr, "%s%s", nr++ ? ", " : "bisect: skipped, Debian keeps no image "
			"for them (vm-kernel.sh --list: incomplete): ", w->list.k[k].label);
	}
	if (nr)
		fprintf(stderr, "\n");
}

int bisect_walk_step_ends(struct bisect_walk *w, const char *good, const char *bad, char *why,
			  size_t len)
{
	struct bisect_obs *g, *b;
	bool tcg = false, t2, icount;
	int err = bisect_read_points(good, &w->pts, &w->ids, &w->nr_pts);

	if (err)
		return err;
	g = calloc(w->nr_pts ? w->nr_pts : 1, sizeof(*g));
	b = calloc(w->nr_pts ? w->nr_pts : 1, sizeof(*b));
	w->obs = calloc(w->nr_pts ? w->nr_pts : 1, sizeof(*w->obs));
	err = g && b && w->obs ? 0 : -ENOMEM;
	err = err ?: bisect_read_obs(good, w->ids, w->nr_pts, g, &tcg, &icount);
	err = err ?: bisect_read_obs(bad, w->ids, w->nr_pts, b, &t2, &icount);
	for (int i = 0; !err && i < w->nr_pts; i++) {
		w->pts[i].good = g[i];
		w->pts[i].bad = b[i];
	}
	free(g);
	free(b);
	return err ?: judge_ends(w, tcg || t2, why, len);
}

int bisect_walk_kernels(struct bisect_walk *w)
{
	int steps = bisect_steps_needed(w->list.n);
	int err;

	/* --resume's terms are OUT's */
	w->rule.good = w->terms.good;
	w->rule.bad = w->terms.bad;
	fprintf(stderr, "bisect: %d kernels from %s to %s: about %d step%s with none skipped, "
		"into %s\n", w->list.n, w->list.k[0].label, w->list.k[w->list.n - 1].label,
		steps, steps == 1 ? "" : "s", w->out);
	err = bisect_init(&w->bs, w->list.n);
	if (err)
		return err;
	skip_incomplete(w);
	bisect_run(&w->bs, &walk_ops, w);
	/* the ends' failure has its why; a step's is its errno (the step's log says more) */
	if (w->bs.outcome == BO_ERROR && w->bs.err != -EPERM && w->bs.err != -EINTR)
		diag_err("bisect: %s", w->bs.state[0] == BV_UNTESTED && w->bs.ends_why[0] ?
			 w->bs.ends_why : strerror(-w->bs.err));
	bisect_write_steps(w->out, &w->bs, &w->list, &w->terms);
	bisect_print(stdout, &w->bs, &w->list, &w->terms);
	if (bisect_write_result(w->out, &w->bs, &w->list, &w->terms))
		diag_err("cannot write %s/bisect.txt", w->out);
	if (bisect_page_write(w->out, &(struct bisect_page){ .b = &w->bs, .l = &w->list,
							      .t = &w->terms, .pts = w->pts,
							      .nr_pts = w->nr_pts }))
		diag_err("cannot write %s/bisect.html", w->out);
	return 0;
}

void bisect_walk_free(struct bisect_walk *w)
{
	bisect_free(&w->bs);
	bisect_list_free(&w->list);
	free(w->pts);
	free(w->ids);
	free(w->obs);
	w->pts = NULL;
	w->ids = NULL;
	w->obs = NULL;
}
