// SPDX-License-Identifier: GPL-2.0
/*
 * Shares per symbol (foldtop.h), by sorting rather than hashing: every
 * frame of every line becomes an occurrence, the occurrences are sorted by
 * name, then line, and summed, a line's repeats of one symbol (recursion)
 * counted once towards its total.  n log n in the frames: a line of 100k
 * distinct frames took 17 s when each frame was looked for among the
 * line's before it, and a sort needs no hash a hostile name could collide.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "foldtop.h"
#include "satmath.h"

/* One frame of one line. */
struct occ {
	const char *name;
	size_t len;
	size_t line;		/* of the profile: a symbol's total counts each line once */
	uint64_t self, total;
};

static int name_cmp(const struct occ *x, const struct occ *y)
{
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int occ_cmp(const void *a, const void *b)
{
	const struct occ *x = a, *y = b;
	int c = name_cmp(x, y);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The frames of line `line`, from frame skip on, appended to o[*nr..]; the leaf gets self. */
static void line_occs(const struct folded_line *l, size_t line, int skip, struct occ *o,
		      size_t *nr)
{
	const char *s = l->stack;
	size_t first = *nr;
	int frame = 0;

	while (*s) {
		size_t len = strcspn(s, ";");

		if (frame++ >= skip)
			o[(*nr)++] = (struct occ){ .name = s, .len = len, .line = line,
						   .total = l->count };
		s += len + !!s[len];
	}
	if (*nr > first)
		o[*nr - 1].self = l->count;
}

static size_t count_frames(const struct folded *f)
{
	size_t n = 0;

	for (int i = 0; i < f->nr; i++) {
		n++;
		for (const char *s = f->l[i].stack; *s; s++)
			n += *s == ';';
	}
	return n;
}

static int share_cmp(const void *a, const void *b)
{
	const struct sym_share *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Sorted occurrences summed into one share per name. */
static int sum_occs(const struct occ *o, size_t nr_occ, struct sym_share *s, int *nr)
{
	*nr = 0;
	for (size_t i = 0; i < nr_occ; i++) {
		bool new_name = !i || name_cmp(&o[i - 1], &o[i]);
		struct sym_share *sh = &s[*nr - !new_name];

		if (new_name) {
			*sh = (struct sym_share){ .name = strndup(o[i].name, o[i].len) };
			if (!sh->name)
				return -ENOMEM;
			(*nr)++;
		}
		/* saturated as the profile's total is (folded.h): a share stays <= 100 % */
		sh->self = sat_add_u64(sh->self, o[i].self);
		if (new_name || o[i - 1].line != o[i].line)
			sh->total = sat_add_u64(sh->total, o[i].total);
	}
	return 0;
}

int folded_shares(const struct folded *f, int skip, struct sym_share **out, int *nr)
{
	size_t nr_occ = 0, max = count_frames(f);
	struct occ *o = calloc(max ? max : 1, sizeof(*o));
	struct sym_share *s = calloc(max ? max : 1, sizeof(*s));
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (max > INT_MAX)	/* *nr is an int: 2^31 symbols is no profile */
		err = -E2BIG;
	else if (!o || !s)
		err = -ENOMEM;
	for (int i = 0; !err && i < f->nr; i++)
		line_occs(&f->l[i], i, skip, o, &nr_occ);
	if (!err) {
		qsort(o, nr_occ, sizeof(*o), occ_cmp);
		err = sum_occs(o, nr_occ, s, nr);
	}
	free(o);
	if (err) {
		sym_shares_free(s, *nr);
		*nr = 0;
		return err;
	}
	qsort(s, *nr, sizeof(*s), share_cmp);
	*out = s;
	return 0;
}

void sym_shares_free(struct sym_share *s, int nr)
{
	for (int i = 0; s && i < nr; i++)
		free(s[i].name);
	free(s);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

int folded_write_top(FILE *out, const struct folded *f, int skip, int n)
{
	struct sym_share *s;
	int nr, err = folded_shares(f, skip, &s, &nr);

	if (err)
		return err;
	if (fprintf(out, "%7s %7s %9s  %s\n", "self", "total", "samples", "symbol") < 0)
		err = -EIO;
	for (int i = 0; !err && i < nr && i < n; i++)
		if (fprintf(out, "%6.2f%% %6.2f%% %9" PRIu64 "  %s\n", pct(s[i].self, f->total),
			    pct(s[i].total, f->total), s[i].self, s[i].name) < 0)
			err = -EIO;
	sym_shares_free(s, nr);
	return err;
}
