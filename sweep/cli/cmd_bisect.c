// SPDX-License-Identifier: GPL-2.0
/*
 * bisect SPEC --good K1 --bad K2: the first kernel where a point's status
 * or its number changed (docs/kernel.md, "Bisect").  The kernels come from
 * bisect_kernels.c, each step's rounds are runs of the spec in a guest of
 * that kernel (bisect_run.c), the driver and the verdicts are pure
 * (sweep/executors/bisect.c, bisectstep.c), the record is bisect_record.c.
 * bisect --step IMAGE --good DIR --bad DIR is the same verdict of one
 * kernel, as git bisect run's predicate.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "bisect_kernels.h"
#include "bisect_record.h"
#include "bisect_run.h"
#include "bisectstep.h"
#include "bind.h"
#include "cli.h"
#include "diag.h"
#include "resultdir.h"
#include "stop.h"
#include "subproc.h"

/* git bisect run's words: 125 skips the commit, 128 and above stop the bisect */
#define EXIT_STEP_SKIP		125
#define EXIT_STEP_STOP		128
/* rounds a step may take when its metric is timed; icount's are deterministic: one */
#define BISECT_ROUNDS		3
#define BISECT_ALPHA		0.05
/* the ends must differ beyond this, without the spec's decide */
#define BISECT_BOUND_PCT	2.0

_Static_assert(CLI_MAX_ARGS <= BISECT_MAX_SETS, "a round passes on every --set");

struct bisect_cmd {
	const struct bisect_opts *o;
	struct bisect_runner br;
	char self[PATH_MAX];
	char out[PATH_MAX];		/* od's path */
	struct outdir od;		/* OUT, held and locked to the end */
	struct bisect_list list;
	struct bisect_terms terms;
	struct bisect_rule rule;
	bool icount;			/* the spec asks for vm_accel = tcg-icount */
	/* the points, as the ends measured them */
	struct bisect_point *pts;
	long long *ids;
	int nr_pts;
	struct bisect_obs *obs;		/* a step's, pooled over its rounds */
	struct bisect bs;
};

/* The spec as given, checked (spec errors exit 2 here, not in every step): its name, bound, accel. */
static int load_spec(struct bisect_cmd *c, char *name, size_t len)
{
	struct sweep_cfg *cfg;
	struct spec *spec;
	int err;

	if (cli_load(&c->o->spec, &spec, &cfg))
		return -EINVAL;
	err = cli_check_only(cfg, c->o->only);
	snprintf(name, len, "%s", cfg->name);
	c->icount = cfg->kernels.accel == VM_ACCEL_TCG_ICOUNT;
	c->rule = (struct bisect_rule){ .alpha = BISECT_ALPHA,
					.bound_pct = cfg->decide_pct > 0 ? cfg->decide_pct :
						     BISECT_BOUND_PCT,
					.max_rounds = c->icount ? 1 : BISECT_ROUNDS,
					.good = c->terms.good, .bad = c->terms.bad };
	sweep_cfg_free(cfg);
	spec_free(spec);
	return err;
}

/* The rounds of kernel image into base, pooled into c->obs: 0, or -errno with why. */
static int pool_round(struct bisect_cmd *c, const char *image, const char *base, int r,
		      struct bisect_obs *into, bool *tcg, char *why, size_t len)
{
	struct bisect_obs *round = calloc(c->nr_pts, sizeof(*round));
	struct bisect_round rd;
	bool icount;
	int err = round ? bisect_run_round(&c->br, image, base, r, &rd, why, len) : -ENOMEM;

	err = err ?: bisect_read_obs(rd.dir, c->ids, c->nr_pts, round, tcg, &icount);
	for (int i = 0; !err && i < c->nr_pts; i++) {
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
static int prepare_kernel(struct bisect_cmd *c, int k, char *base, size_t blen, char *why,
			  size_t len)
{
	int err = bisect_kernel_fetch(c->self, &c->list.k[k], why, len);

	if (err)
		return err;
	err = bisect_step_dir(c->out, &c->list, k, base, blen);
	if (err)
		snprintf(why, len, "cannot make %s: %s", base, strerror(-err));
	return err;
}

/* Round r of both ends into each point's good and bad. */
static int ends_round(struct bisect_cmd *c, int r, bool *tcg, char *why, size_t len)
{
	struct bisect_obs *g = calloc(c->nr_pts, sizeof(*g)), *b = calloc(c->nr_pts, sizeof(*b));
	char base[2][PATH_MAX + 64];
	int ends[2] = { 0, c->list.n - 1 }, err = g && b ? 0 : -ENOMEM;

	for (int e = 0; e < 2 && !err; e++) {
		err = prepare_kernel(c, ends[e], base[e], sizeof(base[e]), why, len);
		err = err ?: pool_round(c, c->list.k[ends[e]].image, base[e], r, e ? b : g, tcg,
					why, len);
	}
	for (int i = 0; !err && i < c->nr_pts; i++) {
		if (r == 1) {
			c->pts[i].good = g[i];
			c->pts[i].bad = b[i];
		} else {
			bisect_obs_pool(&c->pts[i].good, &g[i]);
			bisect_obs_pool(&c->pts[i].bad, &b[i]);
		}
	}
	free(g);
	free(b);
	return err;
}

/* "producer only, producers=1: unsupported on 6.12.118, ok on 7.3.4" or the metric's gap. */
static void describe_ends(const struct bisect_cmd *c, bool by_status, char *why, size_t len)
{
	const struct bisect_point *p = NULL;
	int nr = 0;

	for (int i = 0; i < c->nr_pts; i++)
		if (c->pts[i].by != BB_NONE && nr++ == 0)
			p = &c->pts[i];
	if (by_status)
		snprintf(why, len, "by status, %d point%s: %s: %s on the %s end, %s on the %s end",
			 nr, nr == 1 ? "" : "s", p->name, p->good.status, c->terms.good,
			 p->bad.status, c->terms.bad);
	else
		snprintf(why, len, "by metric, %d point%s: %s: %s %+.1f %% [%+.1f, %+.1f]", nr,
			 nr == 1 ? "" : "s", p->name, c->terms.bad, p->ends.est_pct,
			 p->ends.lo_pct, p->ends.hi_pct);
}

/*
 * How the ends judge the steps; a functional bisect (a point's status
 * differs) leaves the metrics out.  0, -ENODATA (nothing to bisect) or
 * -EPERM (a timed metric under plain TCG, refused: said).
 */
static int judge_ends(struct bisect_cmd *c, bool tcg, char *why, size_t len)
{
	bool by_status, by_metric;

	for (int i = 0; i < c->nr_pts; i++)
		bisect_point_ends(&c->rule, &c->pts[i]);
	if (!bisect_points_judge(c->pts, c->nr_pts, &by_status, &by_metric)) {
		snprintf(why, len, "the %s and %s ends do not differ: no point's status, and no "
			 "headline metric beyond \xc2\xb1%g %%", c->terms.good, c->terms.bad,
			 c->rule.bound_pct);
		return -ENODATA;
	}
	for (int i = 0; by_status && i < c->nr_pts; i++)
		if (c->pts[i].by == BB_METRIC)
			c->pts[i].by = BB_NONE;
	if (!by_status && tcg && !c->icount && !c->o->allow_tcg) {
		diag_err("bisect: the ends differ only in a timed metric, and the guests ran under "
			 "plain TCG: its numbers are the emulator's time, not the kernels' (--set "
			 "vm_accel=tcg-icount measures instruction path length, --allow-tcg bisects "
			 "anyway)");
		return -EPERM;
	}
	describe_ends(c, by_status, why, len);
	return 0;
}

/* The ends' points: the good end's first round names them. */
static int read_points(struct bisect_cmd *c, char *why, size_t len)
{
	char base[PATH_MAX + 64];
	struct bisect_round rd;
	int err = prepare_kernel(c, 0, base, sizeof(base), why, len);

	err = err ?: bisect_run_round(&c->br, c->list.k[0].image, base, 1, &rd, why, len);
	err = err ?: bisect_read_points(rd.dir, &c->pts, &c->ids, &c->nr_pts);
	c->obs = err ? NULL : calloc(c->nr_pts ? c->nr_pts : 1, sizeof(*c->obs));
	return err ?: c->obs ? 0 : -ENOMEM;
}

/* An end that did not run: -ENODATA, why naming it. */
static int end_ran(struct bisect_cmd *c, char *why, size_t len)
{
	struct bisect_obs *o = calloc(c->nr_pts ? c->nr_pts : 1, sizeof(*o));
	char reason[200];
	int err = o ? 0 : -ENOMEM;

	for (int e = 0; e < 2 && !err; e++) {
		for (int i = 0; i < c->nr_pts; i++)
			o[i] = e ? c->pts[i].bad : c->pts[i].good;
		if (none_ran(o, c->nr_pts, reason, sizeof(reason))) {
			snprintf(why, len, "the %s end %s did not run: %s", e ? c->terms.bad :
				 c->terms.good, c->list.k[e ? c->list.n - 1 : 0].label, reason);
			err = -ENODATA;
		}
	}
	free(o);
	return err;
}

/* bisect_ops.ends: both ends run, judged; a timed metric's ends run the whole budget. */
static int run_ends(void *arg, char *why, size_t len)
{
	struct bisect_cmd *c = arg;
	bool tcg = false;
	int err;

	fprintf(stderr, "bisect: the ends: %s (%s) and %s (%s)\n", c->list.k[0].label,
		c->terms.good, c->list.k[c->list.n - 1].label, c->terms.bad);
	err = read_points(c, why, len) ?: ends_round(c, 1, &tcg, why, len) ?: end_ran(c, why, len);
	err = err ?: judge_ends(c, tcg, why, len);
	/* every step is judged against the ends: a metric's run the whole budget */
	for (int r = 2; !err && c->pts && r <= c->rule.max_rounds && !strncmp(why, "by metric", 9);
	     r++) {
		err = ends_round(c, r, &tcg, why, len) ?: judge_ends(c, tcg, why, len);
	}
	return err;
}

/* Kernel k's rounds into base until its verdict or the budget: 0, or -EINTR / -EINVAL. */
static int step_rounds(struct bisect_cmd *c, const char *image, const char *base,
		       struct bisect_step *st)
{
	bool tcg;

	for (int r = 1;; r++) {
		int err = pool_round(c, image, base, r, c->obs, &tcg, st->why, sizeof(st->why));

		st->rounds = r;
		if (err == -EINTR || err == -EINVAL)
			return err;
		/* not run, or its kernel did not boot: skipped, never guessed */
		if (err || none_ran(c->obs, c->nr_pts, st->why, sizeof(st->why))) {
			st->verdict = BV_SKIP;
			return 0;
		}
		if (!bisect_classify(&c->rule, c->pts, c->obs, c->nr_pts, r, st))
			return 0;
	}
}

/* bisect_ops.step: kernel k fetched and run, its verdict said. */
static int run_step(void *arg, int k, struct bisect_step *st)
{
	struct bisect_cmd *c = arg;
	char base[PATH_MAX + 64];
	int err;

	bisect_write_steps(c->out, &c->bs, &c->list, &c->terms);
	fprintf(stderr, "bisect: step %d: %s (%d kernels left between %s and %s)\n",
		c->bs.nr_steps + 1, c->list.k[k].label, c->bs.first_bad - c->bs.last_good - 1,
		c->list.k[c->bs.last_good].label, c->list.k[c->bs.first_bad].label);
	err = prepare_kernel(c, k, base, sizeof(base), st->why, sizeof(st->why));
	if (err == -EINTR)
		return err;
	err = err ? 0 : step_rounds(c, c->list.k[k].image, base, st);
	if (err)
		return err;
	fprintf(stderr, "bisect: %s: %s: %s\n", c->list.k[k].label,
		bisect_term(&c->terms, st->verdict), st->why);
	return 0;
}

static const struct bisect_ops bisect_cmd_ops = { .ends = run_ends, .step = run_step };

/* What every mode needs: the spec checked, this binary, the runner of rounds. */
static int setup(struct bisect_cmd *c, const struct bisect_opts *o, char *name, size_t len)
{
	int err;

	c->o = o;
	c->terms = o->old_new ? (struct bisect_terms){ "old", "new" } :
				(struct bisect_terms){ "good", "bad" };
	if (load_spec(c, name, len))
		return -EINVAL;
	err = spawn_self_path(c->self, sizeof(c->self));
	if (err) {
		diag_err("cannot find bpfsweep: %s", strerror(-err));
		return err;
	}
	c->br = (struct bisect_runner){ .self = c->self, .spec_path = o->spec.spec_path,
					.sets = o->spec.sets, .nr_sets = o->spec.nr_sets,
					.only = o->only, .quick = o->spec.quick };
	return 0;
}

/* The kernels and OUT: --resume's, the user's images, or Debian's between the ends. */
static int open_out(struct bisect_cmd *c, const char *name)
{
	const struct bisect_opts *o = c->o;
	int err;

	if (o->resume) {
		if (o->com.outdir || o->nr_kernels || o->good || o->bad) {
			diag_err("bisect --resume OUT walks OUT's kernels again: give neither -o, "
				 "--kernel nor the ends");
			return -EINVAL;
		}
		err = bisect_out_reopen(&c->od, o->resume, &c->list, &c->terms);
	} else if (o->nr_kernels) {
		err = bisect_list_images(o->kernels, o->nr_kernels, o->good, o->bad, &c->list);
	} else if (!o->good || !o->bad) {
		diag_err("bisect: give the ends, --good K1 --bad K2 (or --old, --new), or the "
			 "kernels in order with --kernel");
		return -EINVAL;
	} else {
		err = bisect_list_debian(c->self, o->good, o->bad, &c->list);
	}
	if (!err && !o->resume)
		err = bisect_out_create(&c->od, o->com.outdir, name, o->com.argv_line, &c->terms,
					&c->list);
	snprintf(c->out, sizeof(c->out), "%s", c->od.path);
	return err;
}

/* The exit status of a bisect that ended as b did. */
static int bisect_status(const struct bisect *b)
{
	if (stop_requested || b->err == -EINTR)
		return stop_exit_status(stop_requested ? stop_requested : SIGINT);
	if (b->outcome == BO_FOUND)
		return EXIT_OK;
	if (b->outcome == BO_ERROR && (b->err == -EPERM || b->err == -EINVAL))
		return EXIT_USAGE;
	return EXIT_POINTS_FAILED;
}

/*
 * Debian's releases that cannot be fetched (their modules left the
 * archive) are skipped before the bisect starts: never run, never
 * guessed; a bracket that closes on them names them.
 */
static void skip_incomplete(struct bisect_cmd *c)
{
	int nr = 0;

	for (int k = 1; k < c->list.n - 1; k++) {
		if (!c->list.k[k].incomplete)
			continue;
		c->bs.state[k] = BV_SKIP;
		fprintf(stderr, "%s%s", nr++ ? ", " : "bisect: skipped, Debian keeps no modules "
			"for them (vm-kernel.sh --list: incomplete): ", c->list.k[k].label);
	}
	if (nr)
		fprintf(stderr, "\n");
}

static int bisect_kernels(struct bisect_cmd *c)
{
	int status;

	/* --resume's terms are OUT's */
	c->rule.good = c->terms.good;
	c->rule.bad = c->terms.bad;
	fprintf(stderr, "bisect: %d kernels from %s to %s: about %d steps with none skipped, "
		"into %s\n", c->list.n, c->list.k[0].label, c->list.k[c->list.n - 1].label,
		bisect_steps_needed(c->list.n), c->out);
	if (bisect_init(&c->bs, c->list.n))
		return EXIT_USAGE;
	skip_incomplete(c);
	stop_catch();
	bisect_run(&c->bs, &bisect_cmd_ops, c);
	/* the ends' failure has its why; a step's is its errno (the step's log says more) */
	if (c->bs.outcome == BO_ERROR && c->bs.err != -EPERM && c->bs.err != -EINTR)
		diag_err("bisect: %s", c->bs.state[0] == BV_UNTESTED && c->bs.ends_why[0] ?
			 c->bs.ends_why : strerror(-c->bs.err));
	bisect_write_steps(c->out, &c->bs, &c->list, &c->terms);
	bisect_print(stdout, &c->bs, &c->list, &c->terms);
	if (bisect_write_result(c->out, &c->bs, &c->list, &c->terms))
		diag_err("cannot write %s/bisect.txt", c->out);
	status = bisect_status(&c->bs);
	if (status >= 128)
		fprintf(stderr, "interrupted: bpfsweep bisect SPEC --resume %s goes on from the "
			"steps that finished\n", c->out);
	fprintf(stderr, "results: %s\n", c->out);
	return status;
}

/* --step's ends: --good DIR and --bad DIR as runs of the spec read them. */
static int step_ends(struct bisect_cmd *c, char *why, size_t len)
{
	struct bisect_obs *g, *b;
	bool tcg = false, t2, icount;
	int err = bisect_read_points(c->o->good, &c->pts, &c->ids, &c->nr_pts);

	if (err)
		return err;
	g = calloc(c->nr_pts ? c->nr_pts : 1, sizeof(*g));
	b = calloc(c->nr_pts ? c->nr_pts : 1, sizeof(*b));
	c->obs = calloc(c->nr_pts ? c->nr_pts : 1, sizeof(*c->obs));
	err = g && b && c->obs ? 0 : -ENOMEM;
	err = err ?: bisect_read_obs(c->o->good, c->ids, c->nr_pts, g, &tcg, &icount);
	err = err ?: bisect_read_obs(c->o->bad, c->ids, c->nr_pts, b, &t2, &icount);
	for (int i = 0; !err && i < c->nr_pts; i++) {
		c->pts[i].good = g[i];
		c->pts[i].bad = b[i];
	}
	free(g);
	free(b);
	return err ?: judge_ends(c, tcg || t2, why, len);
}

/*
 * git bisect run's predicate: IMAGE run (rounds into OUT/<r>) and judged
 * against the two result directories; 0 good, 1 bad, 125 skip, 128 stop.
 */
static int step_main(struct bisect_cmd *c, const char *name)
{
	const struct bisect_opts *o = c->o;
	const char *image = o->step;
	struct bisect_step st = { .verdict = BV_SKIP };
	char why[512] = "";
	int err;

	if (!o->good || !o->bad || o->nr_kernels || o->resume) {
		diag_err("bisect --step IMAGE judges IMAGE against --good DIR and --bad DIR, the "
			 "result directories of the spec run on the ends; no --kernel, no --resume");
		return EXIT_STEP_STOP;
	}
	err = step_ends(c, why, sizeof(why));
	if (err) {
		if (err != -EPERM)
			diag_err("bisect --step: %s", why[0] ? why : strerror(-err));
		return EXIT_STEP_STOP;
	}
	c->list = (struct bisect_list){ .k = calloc(1, sizeof(*c->list.k)), .n = 1 };
	if (!c->list.k)
		return EXIT_STEP_STOP;
	snprintf(c->list.k[0].label, sizeof(c->list.k[0].label), "%s", image);
	snprintf(c->list.k[0].image, sizeof(c->list.k[0].image), "%s", image);
	if (bisect_out_create(&c->od, o->com.outdir, name, o->com.argv_line, &c->terms,
			      &c->list))
		return EXIT_STEP_STOP;
	snprintf(c->out, sizeof(c->out), "%s", c->od.path);
	stop_catch();
	err = step_rounds(c, image, c->out, &st);
	if (err == -EINTR)
		return stop_exit_status(stop_requested ? stop_requested : SIGINT);
	if (err)
		return EXIT_STEP_STOP;
	printf("%s: %s: %s\n", image, bisect_term(&c->terms, st.verdict), st.why);
	fprintf(stderr, "results: %s\n", c->out);
	return st.verdict == BV_GOOD ? EXIT_OK : st.verdict == BV_BAD ? 1 : EXIT_STEP_SKIP;
}

/*
 * Is word --step, or getopt_long's abbreviation of it (--st, --ste, with
 * =IMAGE or without)?  Looked for before the options are parsed, so that
 * an error before --step is the predicate's too.
 */
static bool is_step_opt(const char *word)
{
	size_t n;

	if (strncmp(word, "--", 2))
		return false;
	word += 2;
	n = strcspn(word, "=");
	return n >= 2 && !strncmp(word, "step", n) && n <= 4;
}

int cmd_bisect_usage_status(int argc, char *const *argv)
{
	/* argv[0] is the command's name; "--" ends the options */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (is_step_opt(argv[i]))
			return EXIT_STEP_STOP;
	return EXIT_USAGE;
}

int cmd_bisect(const struct bisect_opts *o)
{
	struct bisect_cmd *c = calloc(1, sizeof(*c));
	char name[256];
	int status = EXIT_USAGE;

	if (!c)
		return EXIT_USAGE;
	if (setup(c, o, name, sizeof(name)))
		status = o->step ? EXIT_STEP_STOP : EXIT_USAGE;
	else if (o->step)
		status = step_main(c, name);
	else if (!open_out(c, name))
		status = bisect_kernels(c);
	outdir_close(&c->od);
	bisect_free(&c->bs);
	bisect_list_free(&c->list);
	free(c->pts);
	free(c->ids);
	free(c->obs);
	free(c);
	return status;
}
