// SPDX-License-Identifier: GPL-2.0
/*
 * A parameter's zero word: an integer parameter that a spec may also set
 * to a word ("workers = all"), held as 0, shown as the word, where the
 * number 0 stays out of bounds.  (The other types: test_bind.c.)
 */
#include <stdio.h>
#include <string.h>

#include "bind.h"
#include "check.h"
#include "diag_capture.h"
#include "param.h"
#include "spec.h"
#include "workload.h"

static const struct param_def workers = {
	.name = "workers", .type = PT_INT, .def = "all", .min = 1, .max = 64, .zero_word = "all",
};
static const struct param_def plain = {
	.name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 64,
};

/* param_parse_scalar's value, or its message. */
static const char *scalar(const struct param_def *p, const char *text)
{
	static char buf[256];
	long long v;

	if (param_parse_scalar(p, text, strlen(text), &v, buf, sizeof(buf)))
		return buf;
	snprintf(buf, sizeof(buf), "%lld", v);
	return buf;
}

static const char *format(const struct param_def *p, long long v)
{
	static char buf[64];

	param_format(p, v, buf, sizeof(buf));
	return buf;
}

TEST(zero_word_parses)
{
	CHECK_STR(scalar(&workers, "all"), "0");
	CHECK_STR(scalar(&workers, "8"), "8");
	/* the number 0 is still below the bounds: only the word means 0 */
	CHECK_STR(scalar(&workers, "0"), "value 0 out of range for 'workers' (1..64)");
	CHECK_STR(scalar(&workers, "65"), "value 65 out of range for 'workers' (1..64)");
	CHECK_STR(scalar(&workers, "All"), "invalid integer 'All' (expected a number or 'all')");
	CHECK_STR(scalar(&workers, "al"), "invalid integer 'al' (expected a number or 'all')");
	CHECK_STR(scalar(&workers, "alll"), "invalid integer 'alll' (expected a number or 'all')");
	/* without a zero word, the word is no integer */
	CHECK_STR(scalar(&plain, "all"), "invalid integer 'all'");
}

TEST(zero_word_shows)
{
	char buf[64];

	CHECK_STR(format(&workers, 0), "all");
	CHECK_STR(format(&workers, 3), "3");
	CHECK_STR(format(&plain, 0), "0");
	param_type_text(&workers, buf, sizeof(buf));
	CHECK_STR(buf, "int|all");
	param_type_text(&plain, buf, sizeof(buf));
	CHECK_STR(buf, "int");
}

/* map_perf's workers: its default is the word, and the CSV cell parses back. */
TEST(map_perf_workers)
{
	const struct workload *wl = workload_find("map_perf");
	const struct param_def *p;
	long long v = -1;
	char err[128];
	int i;

	CHECK(wl != NULL);
	i = param_index(wl->params, wl->nr_params, "workers");
	CHECK(i >= 0);
	p = &wl->params[i];
	CHECK_STR(p->def, "all");
	CHECK_INT(param_parse_scalar(p, p->def, strlen(p->def), &v, err, sizeof(err)), 0);
	CHECK_INT(v, 0);
	CHECK_STR(format(p, v), p->def);
	CHECK(p->min > 0);
}

/* Bind a map_perf spec whose [params] has `line`: its errors, or "(bound)". */
static const char *bind_workers(const char *line)
{
	struct sweep_cfg *cfg = NULL;
	struct spec *s;
	char text[256];

	snprintf(text, sizeof(text), "[sweep]\nworkload = map_perf\n[params]\n%s\n", line);
	capture();
	if (spec_parse_string("w.spec", text, &s))
		return diags();
	bind_spec(s, &workloads_catalog, &cfg);
	spec_free(s);
	if (!cfg)
		return diags();
	sweep_cfg_free(cfg);
	return "(bound)";
}

/* In a spec the word is one more value; a range counts numbers only. */
TEST(zero_word_in_spec)
{
	CHECK_STR(bind_workers("workers = all 1 2"), "(bound)");
	CHECK_STR(bind_workers("workers = 1..2"), "(bound)");
	CHECK_STR(bind_workers("workers = all..2"),
		  "w.spec:4:11: error: invalid range 'all..2': a range takes numbers\n");
	CHECK_STR(bind_workers("workers = 1..all"),
		  "w.spec:4:14: error: invalid range '1..all': a range takes numbers\n");
	CHECK_STR(bind_workers("workers = 2 all all"),
		  "w.spec:4:17: error: duplicate value 'all' for 'workers'\n");
}

RUN_TESTS(zero_word_parses, zero_word_shows, map_perf_workers, zero_word_in_spec)
