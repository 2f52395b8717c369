// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's pure parts (sweep/profile/): kallsyms parsed and looked
 * up (ksyms.c), synthetic counted stacks folded (stackfold.c), folded
 * files written and parsed back (folded.c), and the shares per symbol
 * (foldtop.c), all with exact counts.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "folded.h"
#include "foldtop.h"
#include "ksyms.h"
#include "stackfold.h"

/* text into a new temporary file; its path in path (PATH_MAX). */
static int write_temp(const char *text, char *path)
{
	int fd;

	snprintf(path, 64, "/tmp/test_profile.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t do_csum\n"
	"ffffffff81000200 D some_data\n"
	"ffffffff81000300 T csum_partial\n"
	"ffffffff81000400 W weak_fn\n"
	"ffffffffa0001000 t bpf_prog_34a21376cd98fc2a_csum_run\t[bpf]\n"
	"ffffffff81000050 T entry_SYSCALL_64\n";

static int load_fixture(const char *text, struct ksyms *ks)
{
	char path[64];
	int err;

	if (write_temp(text, path))
		return -EIO;
	err = ksyms_load(path, ks);
	unlink(path);
	return err;
}

TEST(ksyms_text_symbols_sorted_and_looked_up)
{
	struct ksyms ks;

	CHECK_INT(load_fixture(kallsyms, &ks), 0);
	CHECK(!ks.hidden);
	CHECK_INT(ks.nr, 6);		/* the data symbol left out */
	CHECK(!ksyms_name(&ks, 0xffffffff80ffffffULL));
	CHECK_STR(ksyms_name(&ks, 0xffffffff81000000ULL), "_stext");
	CHECK_STR(ksyms_name(&ks, 0xffffffff81000060ULL), "entry_SYSCALL_64");
	CHECK_STR(ksyms_name(&ks, 0xffffffff81000123ULL), "do_csum");
	/* past the data symbol: still do_csum's, data is not text */
	CHECK_STR(ksyms_name(&ks, 0xffffffff81000250ULL), "do_csum");
	CHECK_STR(ksyms_name(&ks, 0xffffffff81000400ULL), "weak_fn");
	CHECK_STR(ksyms_name(&ks, 0xffffffffa0001010ULL), "bpf_prog_34a21376cd98fc2a_csum_run");
	ksyms_free(&ks);
}

TEST(ksyms_all_zero_is_hidden)
{
	struct ksyms ks;

	CHECK_INT(load_fixture("0000000000000000 T _stext\n0000000000000000 t do_csum\n",
			       &ks), 0);
	CHECK(ks.hidden);
	CHECK_INT(ks.nr, 0);
	CHECK(!ksyms_name(&ks, 0x1234));
	ksyms_free(&ks);
	CHECK_INT(ksyms_load("/nonexistent/kallsyms", &ks), -ENOENT);
}

static struct stack_sample sample(const char *comm, uint64_t count, bool user, int nr,
				  const uint64_t *kips)
{
	struct stack_sample s = { .count = count, .user = user, .nr_kips = nr };

	snprintf(s.comm, sizeof(s.comm), "%s", comm);
	if (nr)
		memcpy(s.kips, kips, nr * sizeof(*kips));
	return s;
}

/* Leaf first, as the kernel gives them. */
static const uint64_t csum_stack[] = { 0xffffffff81000310ULL, 0xffffffffa0001010ULL,
				       0xffffffff81000060ULL };
static const uint64_t csum_stack2[] = { 0xffffffff81000120ULL, 0xffffffff81000310ULL,
					0xffffffffa0001010ULL, 0xffffffff81000060ULL };
static const uint64_t odd_stack[] = { 0x10ULL };

TEST(stacks_fold_root_first_and_merge)
{
	struct stack_sample s[] = {
		sample("bpfsweep", 7, true, 3, csum_stack),
		sample("bpfsweep", 5, true, 4, csum_stack2),
		/* another task of the same name and stack: one line */
		sample("bpfsweep", 3, true, 3, csum_stack),
		sample("bpfsweep", 4, true, 0, NULL),
		sample("a;b c", 1, false, 1, odd_stack),
	};
	struct stack_counts c = { .s = s, .nr = 5 };
	struct folded f = { 0 };
	struct ksyms ks;

	CHECK_INT(load_fixture(kallsyms, &ks), 0);
	CHECK_INT(stack_fold(&c, &ks, false, &f), 0);
	ksyms_free(&ks);
	CHECK_INT(f.nr, 4);
	CHECK_INT(f.total, 20);
	CHECK_STR(f.l[0].stack, "a_b_c;[unknown]");
	CHECK_INT(f.l[0].count, 1);
	CHECK_STR(f.l[1].stack, "bpfsweep;[user]");
	CHECK_INT(f.l[1].count, 4);
	CHECK_STR(f.l[2].stack,
		  "bpfsweep;entry_SYSCALL_64;bpf_prog_34a21376cd98fc2a_csum_run;csum_partial");
	CHECK_INT(f.l[2].count, 10);
	CHECK_STR(f.l[3].stack, "bpfsweep;entry_SYSCALL_64;bpf_prog_34a21376cd98fc2a_csum_run;"
		  "csum_partial;do_csum");
	CHECK_INT(f.l[3].count, 5);
	folded_free(&f);
}

TEST(stacks_fold_hidden_symbols)
{
	struct stack_sample s[] = { sample("bpfsweep", 2, true, 3, csum_stack) };
	struct stack_counts c = { .s = s, .nr = 1 };
	struct ksyms ks = { 0 };
	struct folded f = { 0 };

	CHECK_INT(stack_fold(&c, &ks, true, &f), 0);
	CHECK_INT(f.nr, 1);
	CHECK_STR(f.l[0].stack, "bpfsweep;[kernel]");
	folded_free(&f);
}

static const char folded_text[] =
	"t;a;b;c 10\n"
	"t;a;b 5\n"
	"\n"
	"u;a;x;a 3\n"
	"t;a;b;c 2\n";

TEST(folded_parses_merges_and_writes_back)
{
	struct folded f, g;
	char why[128], *buf = NULL;
	size_t len = 0;
	FILE *out;

	CHECK_INT(folded_parse(folded_text, strlen(folded_text), &f, why, sizeof(why)), 0);
	CHECK_INT(f.nr, 3);
	CHECK_INT(f.total, 20);
	CHECK_STR(f.l[0].stack, "t;a;b");
	CHECK_STR(f.l[1].stack, "t;a;b;c");
	CHECK_INT(f.l[1].count, 12);
	out = open_memstream(&buf, &len);
	CHECK(out);
	CHECK_INT(folded_write(out, &f), 0);
	fclose(out);
	CHECK_STR(buf, "t;a;b 5\nt;a;b;c 12\nu;a;x;a 3\n");
	CHECK_INT(folded_parse(buf, len, &g, why, sizeof(why)), 0);
	CHECK_INT(g.nr, f.nr);
	for (int i = 0; i < g.nr; i++) {
		CHECK_STR(g.l[i].stack, f.l[i].stack);
		CHECK_INT(g.l[i].count, f.l[i].count);
	}
	free(buf);
	folded_free(&f);
	folded_free(&g);
}

static void bad(const char *text, const char *expect)
{
	struct folded f;
	char why[128] = "";

	if (folded_parse(text, strlen(text), &f, why, sizeof(why)) != -EINVAL)
		CHECK_FAIL_("'%s' parsed", text);
	CHECK_STR(why, expect);
}

TEST(folded_refuses_bad_lines)
{
	bad("a;b 1\nab\n", "line 2: no count after the stack");
	bad("a;b x\n", "line 1: the count is not a number below 2^63");
	bad("a;b -1\n", "line 1: the count is not a number");
	bad("a;b 9223372036854775808\n", "line 1: the count is not a number below 2^63");
	bad("a;;b 1\n", "line 1: an empty frame");
	bad(";a 1\n", "line 1: an empty frame");
	bad(" 1\n", "line 1: an empty frame");
	bad("a;b 1\n\n\nc;d \n", "line 4: the count is not a number");
}

TEST(shares_self_and_total_exact)
{
	struct folded f;
	struct sym_share *s;
	char why[128];
	int nr;

	CHECK_INT(folded_parse(folded_text, strlen(folded_text), &f, why, sizeof(why)), 0);
	/* the task frame skipped; "a" twice in "u;a;x;a": its total counts 3 once */
	CHECK_INT(folded_shares(&f, 1, &s, &nr), 0);
	CHECK_INT(nr, 4);
	CHECK_STR(s[0].name, "c");
	CHECK_INT(s[0].self, 12);
	CHECK_INT(s[0].total, 12);
	CHECK_STR(s[1].name, "b");
	CHECK_INT(s[1].self, 5);
	CHECK_INT(s[1].total, 17);
	CHECK_STR(s[2].name, "a");
	CHECK_INT(s[2].self, 3);
	CHECK_INT(s[2].total, 20);
	CHECK_STR(s[3].name, "x");
	CHECK_INT(s[3].self, 0);
	CHECK_INT(s[3].total, 3);
	sym_shares_free(s, nr);
	folded_free(&f);
}

TEST(top_table_shares)
{
	struct folded f;
	char why[128], *buf = NULL;
	size_t len = 0;
	FILE *out;

	CHECK_INT(folded_parse(folded_text, strlen(folded_text), &f, why, sizeof(why)), 0);
	out = open_memstream(&buf, &len);
	CHECK(out);
	CHECK_INT(folded_write_top(out, &f, 1, 2), 0);
	fclose(out);
	CHECK_STR(buf, "   self   total   samples  symbol\n"
		       " 60.00%  60.00%        12  c\n"
		       " 25.00%  85.00%         5  b\n");
	free(buf);
	folded_free(&f);
}

#define NEAR_MAX	9223372036854775807ULL	/* 2^63 - 1: the most a line may count */

/*
 * Counts near the limit summed over lines (a symbol in several stacks)
 * and over repetitions (one stack in several files): the sums stop at
 * UINT64_MAX rather than wrap, so that no symbol has more samples than
 * the profile and no share is over 100 % (they wrapped: "self share
 * 200.0%").
 */
TEST(counts_near_the_limit_saturate)
{
	struct folded f = { 0 };
	struct sym_share *s;
	int nr;

	CHECK_INT(folded_add(&f, "t;a", NEAR_MAX), 0);
	CHECK_INT(folded_add(&f, "t;a;c", NEAR_MAX), 0);
	CHECK_INT(folded_add(&f, "t;a;e", NEAR_MAX), 0);
	CHECK_INT(folded_add(&f, "t;b", NEAR_MAX), 0);
	CHECK(f.total == UINT64_MAX);
	CHECK_INT(folded_shares(&f, 1, &s, &nr), 0);
	CHECK_INT(nr, 4);
	for (int i = 0; i < nr; i++)
		CHECK(s[i].self <= s[i].total && s[i].total <= f.total);
	CHECK_STR(s[0].name, "a");
	CHECK(s[0].total == UINT64_MAX);
	sym_shares_free(s, nr);
	folded_free(&f);

	/* one stack in three repetitions: merged, not wrapped to 2^63 - 3 */
	for (int i = 0; i < 3; i++)
		CHECK_INT(folded_add(&f, "t;a", NEAR_MAX), 0);
	folded_merge(&f);
	CHECK_INT(f.nr, 1);
	CHECK(f.l[0].count == UINT64_MAX && f.total == UINT64_MAX);
	folded_free(&f);
}

/* A file's counts may each be below 2^63 and add up past it: refused, with the line. */
TEST(folded_refuses_counts_that_add_up_past_the_limit)
{
	bad("a;b 9223372036854775807\na;c 0\na;d 1\n",
	    "line 3: the counts add up past 2^63 - 1");
	bad("a;b 4611686018427387904\na;b 4611686018427387904\n",
	    "line 2: the counts add up past 2^63 - 1");
}

/* "t;f0;f1;...;f<n-1>" (distinct, or all "f" with same) and its count, in f. */
static int long_stack(struct folded *f, int n, bool same, uint64_t count)
{
	char *s = malloc((size_t)n * 8 + 2), *p = s;
	int err;

	if (!s)
		return -ENOMEM;
	p += sprintf(p, "t");
	for (int i = 0; i < n; i++)
		p += same ? sprintf(p, ";f") : sprintf(p, ";f%d", i);
	err = folded_add(f, s, count);
	free(s);
	return err;
}

/*
 * One stack of 100,000 distinct frames, and one of 100,000 of one frame
 * (recursion): summed in n log n (each frame was looked for among the
 * line's before it: 17-22 s for 100k frames, 77 s for 200k).
 */
TEST(shares_of_a_long_stack_fast)
{
	struct folded f = { 0 };
	struct sym_share *s;
	struct timespec t0;
	int nr;

	CHECK_INT(long_stack(&f, 100000, false, 3), 0);
	CHECK_INT(long_stack(&f, 100000, true, 2), 0);
	cpu_start(&t0);
	CHECK_INT(folded_shares(&f, 1, &s, &nr), 0);
	CHECK(cpu_secs_since(&t0) < 2);
	CHECK_INT(nr, 100001);
	/* the leaves first; f counts the recursive line once in its total */
	CHECK_STR(s[0].name, "f99999");
	CHECK_INT(s[0].self, 3);
	CHECK_INT(s[0].total, 3);
	CHECK_STR(s[1].name, "f");
	CHECK_INT(s[1].self, 2);
	CHECK_INT(s[1].total, 2);
	CHECK_STR(s[2].name, "f0");
	CHECK_INT(s[2].self, 0);
	CHECK_INT(s[2].total, 3);
	sym_shares_free(s, nr);
	folded_free(&f);
}

RUN_TESTS(ksyms_text_symbols_sorted_and_looked_up, ksyms_all_zero_is_hidden,
	  stacks_fold_root_first_and_merge, stacks_fold_hidden_symbols,
	  folded_parses_merges_and_writes_back, folded_refuses_bad_lines,
	  shares_self_and_total_exact, top_table_shares, counts_near_the_limit_saturate,
	  folded_refuses_counts_that_add_up_past_the_limit, shares_of_a_long_stack_fast)
