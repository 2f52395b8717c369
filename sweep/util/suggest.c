// SPDX-License-Identifier: GPL-2.0
/* "Did you mean ...?" for misspelt keys, parameters, values and names. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* Longer words are not names anyone misspells; they get no suggestion. */
#define SUGGEST_MAX_LEN	64

/* Scores of prefix matches rank after every edit-distance match. */
#define PREFIX_SCORE	1000

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Optimal string alignment distance: Levenshtein plus adjacent swaps. */
static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b);
	int rows[3][SUGGEST_MAX_LEN + 1];
	int *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *tmp;

	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int cost = !same(a[i - 1], b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) &&
			    same(a[i - 2], b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		tmp = prev2;
		prev2 = prev;
		prev = cur;
		cur = tmp;
	}
	return prev[lb];
}

static int common_prefix(const char *a, const char *b)
{
	int n = 0;

	while (a[n] && b[n] && same(a[n], b[n]))
		n++;
	return n;
}

/* Score of cand against word, or -1 when it is not close enough. */
static int score(const char *word, const char *cand)
{
	int len = strlen(word), limit = len / 3 > 1 ? len / 3 : 1;
	int d, p;

	if (len > SUGGEST_MAX_LEN || strlen(cand) > SUGGEST_MAX_LEN)
		return -1;
	d = edit_distance(word, cand);
	if (d <= limit)
		return d;
	p = common_prefix(word, cand);
	if (p >= 4 && 2 * p >= len)
		return PREFIX_SCORE - p;
	return -1;
}

void suggest_init(struct suggest *sg, const char *word)
{
	sg->word = word;
	sg->best = NULL;
	sg->best_score = 0;
	sg->nr_cands = 0;
}

void suggest_add(struct suggest *sg, const char *cand)
{
	int s = score(sg->word, cand);

	/* one more than fits: the list then ends in "..." */
	if (sg->nr_cands <= SUGGEST_MAX_CANDS) {
		if (sg->nr_cands < SUGGEST_MAX_CANDS)
			sg->cands[sg->nr_cands] = cand;
		sg->nr_cands++;
	}
	if (s < 0 || (sg->best && s >= sg->best_score))
		return;
	sg->best = cand;
	sg->best_score = s;
}

const char *suggest_best(const struct suggest *sg)
{
	return sg->best;
}

const char *suggest_list(const char *word, const char *const *cands)
{
	struct suggest sg;

	suggest_init(&sg, word);
	for (; cands && *cands; cands++)
		suggest_add(&sg, *cands);
	return suggest_best(&sg);
}

const char *suggest_hint(char *buf, size_t len, const char *best)
{
	if (best)
		snprintf(buf, len, " (did you mean '%s'?)", best);
	else if (len)
		buf[0] = '\0';
	return buf;
}

const char *suggest_hint_or_list(const struct suggest *sg, char *buf, size_t len)
{
	int n = sg->nr_cands < SUGGEST_MAX_CANDS ? sg->nr_cands : SUGGEST_MAX_CANDS;
	size_t off;

	if (sg->best || !n || !len)
		return suggest_hint(buf, len, sg->best);
	off = snprintf(buf, len, " (expected ");
	for (int i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", !i ? "" :
				i < n - 1 || sg->nr_cands > n ? ", " : " or ", sg->cands[i]);
	if (off < len)
		snprintf(buf + off, len - off, "%s)", sg->nr_cands > n ? ", ..." : "");
	return buf;
}
