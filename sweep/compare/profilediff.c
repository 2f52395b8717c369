// SPDX-License-Identifier: GPL-2.0
/*
 * Two profiles' self shares joined by symbol name and tested
 * (profilediff.h): both sides' shares sorted by name and walked together.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "foldtop.h"
#include "profilediff.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sym_share *)a)->name, ((const struct sym_share *)b)->name);
}

static int by_move(const void *a, const void *b)
{
	const struct sym_move *x = a, *y = b;
	double dx = fabs(x->delta_pp), dy = fabs(y->delta_pp);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The pooled two-proportion test of m's counts out of nb and nn samples. */
static void test_move(struct sym_move *m, uint64_t nb, uint64_t nn, double alpha)
{
	double pool, se, z, least;

	if (!nb || !nn) {
		m->p = NAN;
		m->too_few = true;
		return;
	}
	/* in doubles: two counts near 2^64 (saturated, folded.h) would wrap as integers */
	pool = ((double)m->base + (double)m->new) / ((double)nb + (double)nn);
	least = fmin(pool, 1 - pool) * (double)(nb < nn ? nb : nn);
	se = sqrt(pool * (1 - pool) * (1.0 / nb + 1.0 / nn));
	z = se > 0 ? (m->new_pct - m->base_pct) / 100 / se : 0;
	m->p = se > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(z))) : 1;
	m->too_few = least < PROFILE_DIFF_MIN_EXPECTED || !(m->p < alpha);
}

static int add_move(struct sym_move *m, const char *name, uint64_t base, uint64_t new,
		    uint64_t nb, uint64_t nn, double alpha)
{
	*m = (struct sym_move){ .name = strdup(name), .base = base, .new = new };
	if (!m->name)
		return -ENOMEM;
	m->base_pct = nb ? 100.0 * base / nb : 0;
	m->new_pct = nn ? 100.0 * new / nn : 0;
	m->delta_pp = m->new_pct - m->base_pct;
	m->rel_pct = m->base_pct > 0 ? 100 * m->delta_pp / m->base_pct : NAN;
	test_move(m, nb, nn, alpha);
	return 0;
}

/* The leaves of b[0..nb) and n[0..nn) (sorted by name) joined into m; 0 or -ENOMEM. */
static int join(const struct sym_share *b, int nb, const struct sym_share *n, int nn,
		uint64_t tb, uint64_t tn, double alpha, struct sym_move *m, int *nr)
{
	int i = 0, j = 0, err = 0;

	while (!err && (i < nb || j < nn)) {
		int c = i == nb ? 1 : j == nn ? -1 : strcmp(b[i].name, n[j].name);
		const char *name = c <= 0 ? b[i].name : n[j].name;
		uint64_t sb = c <= 0 ? b[i++].self : 0, sn = c >= 0 ? n[j++].self : 0;

		if (sb || sn)
			err = add_move(&m[(*nr)++], name, sb, sn, tb, tn, alpha);
	}
	return err;
}

int profile_diff(const struct folded *base, const struct folded *new, int skip, double alpha,
		 struct sym_move **out, int *nr)
{
	struct sym_share *b = NULL, *n = NULL;
	int nb = 0, nn = 0, err;

	*out = NULL;
	*nr = 0;
	err = folded_shares(base, skip, &b, &nb) ?: folded_shares(new, skip, &n, &nn);
	if (!err) {
		*out = calloc(nb + nn + 1, sizeof(**out));
		err = *out ? 0 : -ENOMEM;
	}
	if (!err) {
		qsort(b, nb, sizeof(*b), by_name);
		qsort(n, nn, sizeof(*n), by_name);
		err = join(b, nb, n, nn, base->total, new->total, alpha, *out, nr);
	}
	sym_shares_free(b, nb);
	sym_shares_free(n, nn);
	if (err) {
		sym_moves_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		return err;
	}
	qsort(*out, *nr, sizeof(**out), by_move);
	return 0;
}

void sym_moves_free(struct sym_move *m, int nr)
{
	for (int i = 0; m && i < nr; i++)
		free(m[i].name);
	free(m);
}
