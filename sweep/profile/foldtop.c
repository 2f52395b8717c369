// SPDX-License-Identifier: GPL-2.0
/*
 * Shares per symbol (foldtop.h), by sorting rather than hashing: every
 * frame of every line becomes an occurrence (a line's repeats of one
 * symbol dropped for the total), the occurrences are sorted by name and
 * summed.  A profile of a repetition has a few thousand lines at most.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "foldtop.h"
#include "satmath.h"

/* One frame of one line. */
struct occ {
	const char *name;
	size_t len;
	uint64_t self, total;
};

static int occ_cmp(const void *a, const void *b)
{
	const struct occ *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static struct occ *find_in_line(struct occ *line, int nr, const char *name, size_t len)
{
	for (int i = 0; i < nr; i++)
		if (line[i].len == len && !memcmp(line[i].name, name, len))
			return &line[i];
	return NULL;
}

/* The frames of one line, from frame skip on, appended to o[*nr..]; the leaf gets self. */
static void line_occs(const struct folded_line *l, int skip, struct occ *o, int *nr)
{
	const char *s = l->stack, *leaf = NULL;
	size_t leaf_len = 0;
	int first = *nr, frame = 0;

	while (*s) {
		size_t len = strcspn(s, ";");

		if (frame++ >= skip) {
			if (!find_in_line(o + first, *nr - first, s, len))
				o[(*nr)++] = (struct occ){ .name = s, .len = len, .total = l->count };
			leaf = s;
			leaf_len = len;
		}
		s += len + !!s[len];
	}
	if (leaf)
		find_in_line(o + first, *nr - first, leaf, leaf_len)->self = l->count;
}

static int count_frames(const struct folded *f)
{
	int n = 0;

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
static int sum_occs(const struct occ *o, int nr_occ, struct sym_share *s, int *nr)
{
	*nr = 0;
	for (int i = 0; i < nr_occ; i++) {
		if (!i || occ_cmp(&o[i - 1], &o[i])) {
			s[*nr] = (struct sym_share){ .name = strndup(o[i].name, o[i].len) };
			if (!s[(*nr)++].name)
				return -ENOMEM;
		}
		/* saturated as the profile's total is (folded.h): a share stays <= 100 % */
		s[*nr - 1].self = sat_add_u64(s[*nr - 1].self, o[i].self);
		s[*nr - 1].total = sat_add_u64(s[*nr - 1].total, o[i].total);
	}
	return 0;
}

int folded_shares(const struct folded *f, int skip, struct sym_share **out, int *nr)
{
	int nr_occ = 0, max = count_frames(f), err;
	struct occ *o = malloc((max ? max : 1) * sizeof(*o));
	struct sym_share *s = calloc(max ? max : 1, sizeof(*s));

	*out = NULL;
	*nr = 0;
	if (!o || !s) {
		free(o);
		free(s);
		return -ENOMEM;
	}
	for (int i = 0; i < f->nr; i++)
		line_occs(&f->l[i], skip, o, &nr_occ);
	qsort(o, nr_occ, sizeof(*o), occ_cmp);
	err = sum_occs(o, nr_occ, s, nr);
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
