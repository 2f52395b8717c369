// SPDX-License-Identifier: GPL-2.0
/*
 * viewlabel.c: the label templates a set's stored spec gives its
 * experiments, as compare names its rows by them: an experiment's own
 * [params "title"] label, else an untitled section's, else [report]'s;
 * "label =" is kept as "" (the default
 * asked for); a spec that no longer parses gives none, silently.
 */
#include <stdio.h>

#include "check.h"
#include "viewlabel.h"

static const char spec_text[] =
	"[sweep]\n"
	"workload = null\n"
	"[report]\n"
	"label = {producers}\n"
	"[params \"own\"]\n"
	"producers = 1 2\n"
	"label = p {producers}\n"
	"[params \"bare\"]\n"
	"label =\n"
	"[params \"none\"]\n"
	"producers = 1\n";

TEST(own_then_report)
{
	struct result_set set = { .spec = (char *)spec_text };
	struct view_labels l;

	CHECK_INT(viewlabel_read(&set, &l), 0);
	CHECK_STR(viewlabel_of(&l, "own"), "p {producers}");
	CHECK_STR(viewlabel_of(&l, "bare"), "");
	CHECK_STR(viewlabel_of(&l, "none"), "{producers}");
	CHECK_STR(viewlabel_of(&l, "other"), "{producers}");
	viewlabel_free(&l);
}

TEST(untitled_before_report)
{
	struct result_set set = { .spec = "[report]\nlabel = r\n[params]\nlabel = u\n"
					  "[params \"t\"]\nlabel = t\n" };
	struct view_labels l;

	CHECK_INT(viewlabel_read(&set, &l), 0);
	CHECK_STR(viewlabel_of(&l, "t"), "t");
	CHECK_STR(viewlabel_of(&l, "x"), "u");
	viewlabel_free(&l);
}

TEST(none_without_a_spec)
{
	struct result_set set = { .spec = NULL }, bad = { .spec = "[params\nlabel = x\n" };
	struct view_labels l;

	CHECK_INT(viewlabel_read(&set, &l), 0);
	CHECK(!viewlabel_of(&l, "x"));
	viewlabel_free(&l);
	CHECK_INT(viewlabel_read(&bad, &l), 0);
	CHECK(!viewlabel_of(&l, "x"));
	viewlabel_free(&l);
}

RUN_TESTS(own_then_report, untitled_before_report, none_without_a_spec)
