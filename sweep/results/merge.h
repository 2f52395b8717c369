/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The columns of a merged set: the union of the runs' CSV headers, so that
 * runs whose specs differ (a parameter only one of them has) still share
 * one header, every row with every column.
 */
#ifndef SWEEP_MERGE_H
#define SWEEP_MERGE_H

/* A list of column names, pointing into the headers it was made from. */
struct colset {
	const char **names;
	int nr;
	int cap;
};

/*
 * Add the columns of header (nr names) that cs does not have yet, each
 * right after the column that comes before it in header (so a parameter
 * only one run has lands among the parameters, not at the end).  0 or
 * -ENOMEM.
 */
int colset_merge(struct colset *cs, const char *const *header, int nr);

/* Index of name in cs, or -1. */
int colset_find(const struct colset *cs, const char *name);

void colset_free(struct colset *cs);

#endif
