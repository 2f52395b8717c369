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
#include "view_of.h"

/* The table of hand-made results: table_render() of their view. */
static inline int table_render_results(FILE *f, const struct sweep_cfg *cfg,
				       const struct run_facts *facts,
				       const struct point_result *res, int nr, bool md)
{
	struct view_of vo;
	int err = view_of(cfg, res, nr, &vo);

	if (!err && md)
		err = table_render_markdown(f, vo.v, facts, vo.rows, nr);
	else if (!err)
		err = table_render(f, vo.v, facts, vo.rows, nr);
	view_of_free(&vo);
	return err;
}

/* table_label() of point pt of cfg. */
static inline void table_label_of(const struct sweep_cfg *cfg, const struct point *pt,
				  char *buf, size_t len)
{
	struct point_result pr = { .pt = pt };
	struct view_of vo;

	if (!view_of(cfg, &pr, 1, &vo))
		table_label(vo.v, vo.rows[0], buf, len);
	view_of_free(&vo);
}

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
	err = table_render_results(f, cfg, facts, res, nr, false);
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
