// SPDX-License-Identifier: GPL-2.0
/* The `cpus` column, compact but complete; format in cpulist.h. */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cpulist.h"

/* Smallest p with cpu[i] == cpu[i - p] for every i >= p (n when none). */
static int period_of(const int *cpu, int n)
{
	for (int p = 1; p < n; p++) {
		int i = p;

		while (i < n && cpu[i] == cpu[i - p])
			i++;
		if (i == n)
			return p;
	}
	return n;
}

static void put_list(FILE *f, const int *cpu, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", cpu[i]);
}

/* "prod 0,1,0" or "prod (0,1)x511,0" */
static void put_kind(FILE *f, const char *kind, const int *cpu, int n, bool first)
{
	int p = period_of(cpu, n);

	if (!n)
		return;
	fprintf(f, "%s%s ", first ? "" : " ", kind);
	if (n / p < CPULIST_MIN_REPEATS) {
		put_list(f, cpu, n);
		return;
	}
	fputc('(', f);
	put_list(f, cpu, p);
	fprintf(f, ")x%d", n / p);
	if (n % p) {
		fputc(',', f);
		put_list(f, cpu, n % p);
	}
}

int cpulist_describe(const int *cpu, int nr_cons, int nr_prod, char **out)
{
	size_t len = 0;
	FILE *f;

	*out = NULL;
	f = open_memstream(out, &len);
	if (!f)
		return -ENOMEM;
	put_kind(f, "cons", cpu, nr_cons, true);
	put_kind(f, "prod", cpu + nr_cons, nr_prod, !nr_cons);
	if (fclose(f) || !*out) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}
