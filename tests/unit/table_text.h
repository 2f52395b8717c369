/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cover-letter table as a string, for the tests that compare it with
 * what it must read: table_text() renders it, CHECK_TEXT() compares and
 * frees it.
 */
#ifndef TESTS_TABLE_TEXT_H
#define TESTS_TABLE_TEXT_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "table.h"

/* table_render() into a new string (caller frees); NULL on error. */
static inline char *table_text(const struct sweep_cfg *cfg, const struct run_facts *facts,
			       const struct point_result *res, int nr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return NULL;
	err = table_render(f, cfg, facts, res, nr);
	fclose(f);
	if (err) {
		free(text);
		return NULL;
	}
	return text;
}

/* CHECK_STR, freeing the text either way. */
#define CHECK_TEXT(text, want) do {						\
	char *t_ = (text);							\
	int ok_ = t_ && !strcmp(t_, want);					\
	if (!ok_)								\
		printf("got:\n%s\nwant:\n%s\n", t_ ? t_ : "(null)", want);	\
	free(t_);								\
	CHECK(ok_);								\
} while (0)

#endif
