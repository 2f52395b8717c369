// SPDX-License-Identifier: GPL-2.0
/*
 * bisect SPEC --good K1 --bad K2: the first kernel where a point's status
 * or its number changed (docs/kernel.md, "Bisect").  This file takes the
 * options, checks the spec, opens OUT and gives the exit status; the
 * bisect itself is sweep/executors/bisect_walk.c (its kernels
 * bisect_kernels.c, its rounds bisect_run.c, the driver and the verdicts
 * bisect.c and bisectstep.c, the record bisect_record.c).  bisect --step
 * IMAGE --good DIR --bad DIR is the same verdict of one kernel, as git
 * bisect run's predicate.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_walk.h"
#include "bind.h"
#include "cli.h"
#include "diag.h"
#include "stop.h"
#include "subproc.h"

/* git bisect run's words: 125 skips the commit, 128 and above stop the bisect */
#define EXIT_STEP_SKIP		125
#define EXIT_STEP_STOP		128

_Static_assert(CLI_MAX_ARGS <= BISECT_MAX_SETS, "a round passes on every --set");

struct bisect_cmd {
	const struct bisect_opts *o;
	char self[PATH_MAX];
	struct outdir od;		/* OUT, held and locked to the end */
	struct bisect_walk w;
};

/* The spec as given, checked (spec errors exit 2 here, not in every step): its name, the rule. */
static int load_spec(struct bisect_cmd *c, char *name, size_t len)
{
	struct sweep_cfg *cfg;
	struct spec *spec;
	int err;

	if (cli_load(&c->o->spec, &spec, &cfg))
		return -EINVAL;
	err = only_check(cfg, c->o->only);
	snprintf(name, len, "%s", cfg->name);
	bisect_walk_rule(&c->w, cfg->decide_pct, cfg->kernels.accel == VM_ACCEL_TCG_ICOUNT);
	sweep_cfg_free(cfg);
	spec_free(spec);
	return err;
}

/* What every mode needs: the spec checked, this binary, the runner of rounds. */
static int setup(struct bisect_cmd *c, const struct bisect_opts *o, char *name, size_t len)
{
	int err;

	c->o = o;
	c->w.terms = o->old_new ? (struct bisect_terms){ "old", "new" } :
				  (struct bisect_terms){ "good", "bad" };
	c->w.allow_tcg = o->allow_tcg;
	if (load_spec(c, name, len))
		return -EINVAL;
	err = spawn_self_path(c->self, sizeof(c->self));
	if (err) {
		diag_err("cannot find bpfsweep: %s", strerror(-err));
		return err;
	}
	c->w.br = (struct bisect_runner){ .self = c->self, .spec_path = o->spec.spec_path,
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
		err = bisect_out_reopen(&c->od, o->resume, &c->w.list, &c->w.terms);
	} else if (o->nr_kernels) {
		err = bisect_list_images(o->kernels, o->nr_kernels, o->good, o->bad, &c->w.list);
	} else if (!o->good || !o->bad) {
		diag_err("bisect: give the ends, --good K1 --bad K2 (or --old, --new), or the "
			 "kernels in order with --kernel");
		return -EINVAL;
	} else {
		err = bisect_list_debian(c->self, o->good, o->bad, &c->w.list);
	}
	if (!err && !o->resume)
		err = bisect_out_create(&c->od, o->com.outdir, name, o->com.argv_line, &c->w.terms,
					&c->w.list);
	c->w.out = c->od.path;
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

/* The bisect of the kernels OUT holds: its exit status. */
static int bisect_kernels(struct bisect_cmd *c)
{
	int status;

	stop_catch();
	if (bisect_walk_kernels(&c->w))
		return EXIT_USAGE;
	status = bisect_status(&c->w.bs);
	if (status >= 128)
		fprintf(stderr, "interrupted: bpfsweep bisect SPEC --resume %s goes on from the "
			"steps that finished\n", c->w.out);
	fprintf(stderr, "results: %s\n", c->w.out);
	return status;
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
	err = bisect_walk_step_ends(&c->w, o->good, o->bad, why, sizeof(why));
	if (err) {
		if (err != -EPERM)
			diag_err("bisect --step: %s", why[0] ? why : strerror(-err));
		return EXIT_STEP_STOP;
	}
	c->w.list = (struct bisect_list){ .k = calloc(1, sizeof(*c->w.list.k)), .n = 1 };
	if (!c->w.list.k)
		return EXIT_STEP_STOP;
	snprintf(c->w.list.k[0].label, sizeof(c->w.list.k[0].label), "%s", image);
	snprintf(c->w.list.k[0].image, sizeof(c->w.list.k[0].image), "%s", image);
	if (bisect_out_create(&c->od, o->com.outdir, name, o->com.argv_line, &c->w.terms,
			      &c->w.list))
		return EXIT_STEP_STOP;
	c->w.out = c->od.path;
	stop_catch();
	err = bisect_walk_rounds(&c->w, image, c->w.out, &st);
	if (err == -EINTR)
		return stop_exit_status(stop_requested ? stop_requested : SIGINT);
	if (err)
		return EXIT_STEP_STOP;
	printf("%s: %s: %s\n", image, bisect_term(&c->w.terms, st.verdict), st.why);
	fprintf(stderr, "results: %s\n", c->w.out);
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
	bisect_walk_free(&c->w);
	free(c);
	return status;
}
