// SPDX-License-Identifier: GPL-2.0
/* The union of CSV headers, in an order that keeps neighbours together: see merge.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

int colset_find(const struct colset *cs, const char *name)
{
	for (int i = 0; i < cs->nr; i++)
		if (!strcmp(cs->names[i], name))
			return i;
	return -1;
}

static int insert_at(struct colset *cs, int at, const char *name)
{
	if (cs->nr == cs->cap) {
		int cap = cs->cap ? 2 * cs->cap : 16;
		const char **n = realloc(cs->names, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		cs->names = n;
		cs->cap = cap;
	}
	memmove(&cs->names[at + 1], &cs->names[at], (cs->nr - at) * sizeof(*cs->names));
	cs->names[at] = name;
	cs->nr++;
	return 0;
}

int colset_merge(struct colset *cs, const char *const *header, int nr)
{
	int prev = -1, err = 0;

	for (int c = 0; !err && c < nr; c++) {
		int at = colset_find(cs, header[c]);

		if (at >= 0) {
			prev = at;
			continue;
		}
		err = insert_at(cs, ++prev, header[c]);
	}
	return err;
}

void colset_free(struct colset *cs)
{
	free(cs->names);
	*cs = (struct colset){ 0 };
}
