// SPDX-License-Identifier: GPL-2.0
/*
 * --shard I/N parsed (shard.h); which points a shard holds is shard_has(),
 * and which a run selects, with --only, shard_selects().
 */
#include <errno.h>
#include <stdio.h>

#include "matrix.h"
#include "shard.h"

/* Digits only, no more than SHARD_MAX; the end of them into *end. */
static long take_number(const char *s, const char **end)
{
	long v = 0;

	*end = s;
	while (**end >= '0' && **end <= '9') {
		v = v * 10 + (**end - '0');
		if (v > SHARD_MAX)
			return -1;
		(*end)++;
	}
	return *end == s ? -1 : v;
}

int shard_parse(const char *arg, struct shard *sh, char *why, size_t len)
{
	const char *p;
	long i, n;

	i = take_number(arg, &p);
	n = i >= 0 && *p == '/' ? take_number(p + 1, &p) : -1;
	if (i < 0 || n < 0 || *p) {
		snprintf(why, len, "expects I/N, the I-th of N shares (1/2, 2/2), each at most %d, "
			 "not '%s'", SHARD_MAX, arg);
		return -EINVAL;
	}
	if (n < 1 || i < 1 || i > n) {
		snprintf(why, len, "'%s': I must be 1 to N, and N at least 1", arg);
		return -EINVAL;
	}
	sh->index = i;
	sh->count = n;
	return 0;
}

bool shard_selects(const struct sweep_cfg *cfg, const char *only, const struct shard *sh,
		   const struct point *pt, int *nr_sel)
{
	if (!point_in_only(cfg, pt, only))
		return false;
	return shard_has(sh, (*nr_sel)++);
}
