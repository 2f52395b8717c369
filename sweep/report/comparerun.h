/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compare command's run (cli/cmd_compare.c parses its options): the
 * result directories read under shared locks, each NEW paired with BASE
 * (or each round's NEW with its BASE), compared, printed in the format
 * asked or as an HTML page (htmlcompare.h), and gated.
 */
#ifndef SWEEP_COMPARERUN_H
#define SWEEP_COMPARERUN_H

#include <stdbool.h>

#include "compare_build.h"
#include "outfmt.h"

struct compare_request {
	struct compare_rule rule;	/* alpha, the "same" bound, --ignore, --allow-tcg, -e */
	enum out_format fmt;
	double fail_above;		/* percent; < 0: not given */
	bool paired;			/* --paired: BASE NEW of each round, NEW / BASE over them */
	bool profile;			/* --profile: per point, the symbols whose share moved */
	bool html;			/* --html: one HTML page instead of fmt */
};

/*
 * dirs[0] against dirs[1..nr), or (paired) dirs[2i+1] against dirs[2i],
 * or one OUT of kernels in rounds (nr 1: their decisions, compare_rounds.h).
 * An exit status: 1 when --fail-above finds a regression or stdout could
 * not be written (*stdout_failed then, said), 3 when the gate cannot pass
 * every point, 2 when a set cannot be read or compared.
 */
int compare_run(const struct compare_request *rq, const char *const *dirs, int nr,
		bool *stdout_failed);

#endif
