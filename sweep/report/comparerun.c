// SPDX-License-Identifier: GPL-2.0
/*
 * compare's run (comparerun.h): each NEW result set against BASE, built by
 * compare_build.c (points matched by parameter values, per metric Welch's
 * test and the decision on the independent units), printed by
 * compare_print.c or htmlcompare.c, gated by compare_gate.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_gate.h"
#include "compare_profile.h"
#include "compare_print.h"
#include "compare_rounds.h"
#include "comparerun.h"
#include "diag.h"
#include "exitcode.h"
#include "htmlcompare.h"
#include "readlock.h"

static int compare_all(struct comparison *cs, int nr, const struct compare_request *o,
		       bool rounds, bool *stdout_failed)
{
	double alpha = o->rule.alpha;
	int err = 0;

	for (int i = 0; !err && i < nr; i++) {
		err = comparison_build(&cs[i], &o->rule);
		if (!err && rounds)
			compare_take_rounds(&cs[i]);
	}
	if (err)
		return EXIT_USAGE;
	if (o->paired)
		err = compare_paired_print(stdout, o->fmt, cs, nr, alpha, o->rule.bound_pct);
	else if (o->html)
		err = html_compare(stdout, cs, nr, alpha);
	else
		err = compare_print(stdout, o->fmt, cs, nr, alpha);
	if (!err && o->profile)
		err = compare_profiles_print(stdout, cs, nr, alpha);
	if (err || fflush(stdout)) {
		diag_err("writing the comparison: %s", strerror(err ? -err : errno));
		*stdout_failed = true;
		return EXIT_POINTS_FAILED;
	}
	if (!o->paired)
		compare_advise_units(cs, nr);
	return o->fail_above >= 0 ? compare_gate_all(cs, nr, o->fail_above) : EXIT_OK;
}

int compare_run(const struct compare_request *rq, const char *const *dirs, int nr_sets,
		bool *stdout_failed)
{
	struct compare_set *sets;
	struct comparison *cs;
	struct read_locks locks = { 0 };
	struct rounds_dirs rd;
	bool rounds = nr_sets == 1;
	int status, nr_cs = 0, err = 0;

	*stdout_failed = false;
	if (rounds) {
		if (compare_rounds_dirs(dirs[0], &rd))
			return EXIT_USAGE;
		dirs = rd.names;
		nr_sets = rd.nr;
	}
	sets = calloc(nr_sets, sizeof(*sets));
	cs = calloc(nr_sets, sizeof(*cs));
	if (!sets || !cs)
		err = -ENOMEM;
	/* read under shared locks: a set a run is writing is refused (readlock.h) */
	if (!err)
		err = read_locks_take(&locks, dirs, nr_sets);
	for (int i = 0; !err && i < nr_sets; i++)
		err = compare_set_load(dirs[i], &sets[i]);
	read_locks_release(&locks);
	/* each NEW against the one BASE, or (--paired) each round's NEW against its BASE */
	nr_cs = rq->paired ? nr_sets / 2 : nr_sets - 1;
	for (int i = 0; !err && i < nr_cs; i++)
		comparison_pair(&cs[i], &sets[rq->paired ? 2 * i : 0],
				&sets[rq->paired ? 2 * i + 1 : i + 1]);
	status = err ? EXIT_USAGE : compare_all(cs, nr_cs, rq, rounds, stdout_failed);
	for (int i = 0; cs && i < nr_cs; i++)
		comparison_free(&cs[i]);
	for (int i = 0; sets && i < nr_sets; i++)
		compare_set_free(&sets[i]);
	free(cs);
	free(sets);
	return status;
}
