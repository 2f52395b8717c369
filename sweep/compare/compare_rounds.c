// SPDX-License-Identifier: GPL-2.0
/* compare OUT of a sweep over kernels that ran in rounds: see compare_rounds.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_rounds.h"
#include "diag.h"
#include "precision.h"
#include "results_read.h"

int compare_rounds_dirs(const char *out, struct rounds_dirs *rd)
{
	struct result_set *meta = NULL;
	const char *sweep, *rounds;
	int nr;

	*rd = (struct rounds_dirs){ 0 };
	if (results_read_meta(out, &meta)) {
		diag_err("%s: no meta to read: compare takes BASE NEW, or one directory of a "
			 "sweep over kernels that ran in rounds", out);
		return -EINVAL;
	}
	sweep = result_meta(meta, "kernel_sweep");
	rounds = result_meta(meta, "kernel_rounds");
	nr = sweep ? atoi(sweep) : 0;
	if (!result_meta(meta, "start")) {
		result_set_free(meta);
		diag_err("%s: not a result directory (no meta): compare takes BASE NEW", out);
		return -EINVAL;
	}
	result_set_free(meta);
	if (!sweep || !rounds || nr < 2 || nr > MAX_KERNELS) {
		diag_err("%s: compare of one directory is of a sweep over kernels run with decide "
			 "(--kernel A --kernel B --set decide=2%%); this one %s: give BASE NEW, or "
			 "see its decisions with bpfsweep report", out,
			 sweep ? "ran its kernels one after another" : "is a single run");
		return -EINVAL;
	}
	for (int k = 0; k < nr; k++) {
		snprintf(rd->dir[k], sizeof(rd->dir[k]), "%s/runs/%d", out, k + 1);
		rd->names[k] = rd->dir[k];
	}
	rd->nr = nr;
	return 0;
}

/* A cell of NEW's summary row of p, "" where the column is not there. */
static const char *new_cell(const struct comparison *c, const struct point_cmp *p,
			    const char *name)
{
	return result_summary_cell(c->new, p->new_row, name);
}

/* The word of a decision's text, after an "inconclusive (FLAGS): " it may lead with. */
static enum decision word_of(const char *text, bool *inconclusive)
{
	const char *colon = strstr(text, "): ");

	*inconclusive = !strncmp(text, "inconclusive (", 14) && colon;
	if (*inconclusive)
		text = colon + 3;
	if (!strncmp(text, "different", 9))
		return DECIDE_DIFFERENT;
	if (!strncmp(text, "same", 4))
		return DECIDE_SAME;
	if (!strncmp(text, "undecided", 9))
		return DECIDE_UNDECIDED;
	return DECIDE_NO_TEST;
}

/* The note decide_text() ends a decision of deterministic units with, back into d. */
static void stored_exact(const char *text, struct decide_result *d)
{
	static const char agree[] = " (exact: rounds agree within ", vary[] = " (rounds vary beyond ";
	const char *a = strstr(text, agree), *v = strstr(text, vary);

	if (a) {
		d->exact = true;
		d->level = 1;
		d->exact_pct = strtod(a + strlen(agree), NULL);
	} else if (v) {
		d->exact_pct = strtod(v + strlen(vary), NULL);
	}
}

/*
 * The run's decision of p from NEW's row: its word, its interval of NEW /
 * BASE - 1 in percent, and the point of it (the interval is symmetric in
 * the log of the ratio: its centre there).
 */
static bool stored_decision(const struct comparison *c, const struct point_cmp *p,
			    struct decide_result *d, bool *inconclusive)
{
	const char *text = new_cell(c, p, "decision");
	double lo = strtod(new_cell(c, p, "decision_lo_pct"), NULL);
	double hi = strtod(new_cell(c, p, "decision_hi_pct"), NULL);

	if (!*text || !strcmp(text, "baseline"))
		return false;
	*d = (struct decide_result){ .word = word_of(text, inconclusive),
				     .n = atoi(new_cell(c, p, "rounds")), .lo_pct = lo,
				     .hi_pct = hi, .paired = true, .level = 1 - DECIDE_ALPHA,
				     .final = strstr(text, " after ") != NULL };
	d->est_pct = expm1((log1p(lo / 100) + log1p(hi / 100)) / 2) * 100;
	d->far_pct = fmax(fabs(lo), fabs(hi));
	stored_exact(text, d);
	if (d->word == DECIDE_NO_TEST)
		d->est_pct = d->lo_pct = d->hi_pct = d->far_pct = NAN;
	return true;
}

/* What compare calls a decision of a metric that gets better in direction dir. */
static enum cmp_verdict verdict_of(const struct decide_result *d, enum cmp_better dir)
{
	switch (d->word) {
	case DECIDE_SAME:
		return CMP_SAME;
	case DECIDE_UNDECIDED:
		return CMP_UNDECIDED;
	case DECIDE_NO_TEST:
		return CMP_UNTESTED;
	default:
		break;
	}
	if (dir != CMP_HIGHER_BETTER && dir != CMP_LOWER_BETTER)
		return CMP_CHANGED;
	return (d->est_pct > 0) == (dir == CMP_HIGHER_BETTER) ? CMP_IMPROVED : CMP_REGRESSED;
}

void compare_take_rounds(struct comparison *c)
{
	int taken = 0;

	for (int i = 0; i < c->nr_pts; i++) {
		struct point_cmp *p = &c->pts[i];
		struct metric_cmp *m = p->state == PS_COMPARED ? &p->m[0] : NULL;
		bool inconclusive;

		if (!m || !stored_decision(c, p, &m->decision, &inconclusive))
			continue;
		m->tested = verdict_of(&m->decision, m->info->dir);
		m->verdict = inconclusive ? CMP_INCONCLUSIVE : m->tested;
		taken++;
	}
	if (taken)
		compare_note(c, "the verdicts of %s are the rounds' own: paired round by round "
			     "and decided as they ran (docs/kernel.md), for %d point%s",
			     c->metrics[0], taken, taken == 1 ? "" : "s");
}
