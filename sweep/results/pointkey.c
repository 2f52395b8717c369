// SPDX-License-Identifier: GPL-2.0
/* "The same point", defined once (pointkey.h). */
#include <stdio.h>
#include <string.h>

#include "pointkey.h"

#define VALUE_LEN 256

/* b's parameter that is a's p (by name, tried at p's own place first), or -1. */
static int param_in(const struct point_key *a, int p, const struct point_key *b)
{
	const char *name;

	if (!a->name || !b->name)
		return p < b->nr ? p : -1;
	name = a->name(a, p);
	if (p < b->nr && !strcmp(b->name(b, p), name))
		return p;
	for (int q = 0; q < b->nr; q++)
		if (!strcmp(b->name(b, q), name))
			return q;
	return -1;
}

int point_key_diff(const struct point_key *a, const struct point_key *b, int skip)
{
	char va[VALUE_LEN], vb[VALUE_LEN];
	int shared = 0;

	if (a->experiment && b->experiment && strcmp(a->experiment, b->experiment))
		return POINT_KEY_EXPERIMENT;
	for (int p = 0; p < a->nr; p++) {
		int q = param_in(a, p, b);

		shared += q >= 0;
		if (p == skip)
			continue;
		if (q < 0 || strcmp(a->value(a, p, va, sizeof(va)), b->value(b, q, vb, sizeof(vb))))
			return p;
	}
	/* names are unique within a key: b has none that a lacks when all of b's are shared */
	return shared == b->nr ? POINT_KEY_SAME : a->nr;
}

bool point_same(const struct point_key *a, const struct point_key *b, int skip)
{
	return point_key_diff(a, b, skip) == POINT_KEY_SAME;
}

static const char *row_name(const struct point_key *k, int p)
{
	return ((char *const *)k->with)[k->col[p]];
}

static const char *row_value(const struct point_key *k, int p, char *buf, size_t len)
{
	return ((char *const *)k->of)[k->col[p]];
}

struct point_key point_key_of_row(const char *experiment, char *const *header, char *const *row,
				  const int *col, int nr)
{
	return (struct point_key){ .experiment = experiment, .nr = nr, .name = row_name,
				   .value = row_value, .of = row, .with = header, .col = col };
}

static const char *values_value(const struct point_key *k, int p, char *buf, size_t len)
{
	snprintf(buf, len, "%lld", ((const long long *)k->of)[p]);
	return buf;
}

struct point_key point_key_of_values(const long long *v, int nr)
{
	return (struct point_key){ .nr = nr, .value = values_value, .of = v };
}
