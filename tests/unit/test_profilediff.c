// SPDX-License-Identifier: GPL-2.0
/*
 * compare --profile's arithmetic (profilediff.c): two synthetic folded
 * profiles of 100 samples each give exact shares, moves and two-proportion
 * p values (checked against the formula computed apart), BPF programs of
 * different tags meet by name, and the caution where samples are few.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "folded.h"
#include "profilediff.h"
#include "symname.h"

static const char base_text[] =
	"t;k;a 30\n"
	"t;k;b 20\n"
	"t;bpf_prog_34a21376cd98fc2a_run 30\n"
	"t;e 2\n"
	"u;[user] 18\n";
static const char new_text[] =
	"t;k;a 15\n"
	"t;k;c 20\n"
	"t;bpf_prog_0123456789abcdef_run 30\n"
	"t;e 3\n"
	"u;[user] 32\n";

static const struct sym_move *find(const struct sym_move *m, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

static void parse(const char *text, struct folded *f)
{
	char why[128];

	CHECK_INT(folded_parse(text, strlen(text), f, why, sizeof(why)), 0);
	folded_untag(f);
}

TEST(diff_exact_shares_and_order)
{
	struct folded b, n;
	struct sym_move *m;
	const struct sym_move *x;
	int nr;

	parse(base_text, &b);
	parse(new_text, &n);
	CHECK_INT(profile_diff(&b, &n, 1, 0.05, &m, &nr), 0);
	CHECK_INT(nr, 6);
	/* |moved| descending, ties by name */
	CHECK_STR(m[0].name, "b");
	CHECK_STR(m[1].name, "c");
	CHECK_STR(m[2].name, "a");
	CHECK_STR(m[3].name, "[user]");
	CHECK_STR(m[4].name, "e");
	CHECK_STR(m[5].name, "bpf_prog_run");

	x = &m[2];
	CHECK_INT(x->base, 30);
	CHECK_INT(x->new, 15);
	CHECK_NEAR(x->base_pct, 30.0, 1e-12);
	CHECK_NEAR(x->new_pct, 15.0, 1e-12);
	CHECK_NEAR(x->delta_pp, -15.0, 1e-12);
	CHECK_NEAR(x->rel_pct, -50.0, 1e-12);
	CHECK_NEAR(x->p, 0.011085166380602722, 1e-9);
	CHECK(!x->too_few);

	x = &m[0];
	CHECK_NEAR(x->delta_pp, -20.0, 1e-12);
	CHECK_NEAR(x->rel_pct, -100.0, 1e-12);
	CHECK_NEAR(x->p, 2.428467472975848e-06, 1e-12);
	CHECK(!x->too_few);
	x = &m[1];
	CHECK_INT(x->base, 0);
	CHECK_INT(x->new, 20);
	CHECK(isnan(x->rel_pct));
	CHECK(!x->too_few);
	CHECK_NEAR(m[3].p, 0.022243120591349974, 1e-9);

	/* 2 and 3 of 100: 2.5 expected, too few whatever p says */
	x = find(m, nr, "e");
	CHECK(x && x->too_few);
	CHECK_NEAR(x->p, 0.6506129639327538, 1e-9);
	/* the same program under two tags: one symbol, unmoved, p = 1 */
	x = find(m, nr, "bpf_prog_run");
	CHECK(x && x->base == 30 && x->new == 30 && x->too_few);
	CHECK_NEAR(x->p, 1.0, 1e-12);
	CHECK(!find(m, nr, "k"));	/* never a leaf */
	sym_moves_free(m, nr);
	folded_free(&b);
	folded_free(&n);
}

TEST(diff_side_without_samples)
{
	struct folded b = { 0 }, n;
	struct sym_move *m;
	int nr;

	parse(new_text, &n);
	CHECK_INT(profile_diff(&b, &n, 1, 0.05, &m, &nr), 0);
	CHECK_INT(nr, 5);
	for (int i = 0; i < nr; i++)
		CHECK(m[i].too_few && isnan(m[i].p) && m[i].base_pct == 0);
	sym_moves_free(m, nr);
	folded_free(&n);
}

RUN_TESTS(diff_exact_shares_and_order, diff_side_without_samples)
