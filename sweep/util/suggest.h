/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean ...?": the closest of a set of names to a misspelt one.
 * Candidates come from tables of different shapes (parameter tables,
 * choice lists, the workload registry), so they are fed one at a time.
 *
 * A candidate is close when its edit distance (Levenshtein, counting a
 * swap of two neighbours as one edit, ignoring case) is at most
 * max(1, strlen(word) / 3), or, failing that, when it shares a prefix of
 * at least 4 characters covering half of the word ("batchsz" →
 * "batch_cnt").  The nearest wins; on a tie, the first one fed.
 */
#ifndef SWEEP_SUGGEST_H
#define SWEEP_SUGGEST_H

#include <stddef.h>

/* Candidates kept for suggest_hint_or_list(); a longer list says "...". */
#define SUGGEST_MAX_CANDS	32

struct suggest {
	const char *word;
	const char *best;	/* NULL until a close candidate is fed */
	int best_score;		/* lower is closer */
	const char *cands[SUGGEST_MAX_CANDS];	/* as fed: they must outlive sg */
	int nr_cands;
};

void suggest_init(struct suggest *sg, const char *word);
void suggest_add(struct suggest *sg, const char *cand);

/* The closest candidate fed so far, or NULL if none was close. */
const char *suggest_best(const struct suggest *sg);

/* The closest of a NULL-terminated list, or NULL. */
const char *suggest_list(const char *word, const char *const *cands);

/*
 * " (did you mean 'best'?)" into buf, or "" when best is NULL; returns
 * buf so it can be the argument of a "%s".
 */
const char *suggest_hint(char *buf, size_t len, const char *best);

/*
 * " (did you mean 'best'?)" when a candidate was close, else the choices:
 * " (expected a, b or c)"; "" when none was fed.  Returns buf.
 */
const char *suggest_hint_or_list(const struct suggest *sg, char *buf, size_t len);

#endif
