// SPDX-License-Identifier: GPL-2.0
/*
 * --shard I/N (shard.h): the N shards of a selection hold every point
 * exactly once, within one point of each other; more shards than points
 * leave the last ones empty; only "I/N" with 1 <= I <= N parses.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "shard.h"

/* How many shards of n hold position k: must be exactly one. */
static int owners(int k, int n)
{
	int nr = 0;

	for (int i = 1; i <= n; i++)
		nr += shard_has(&(struct shard){ i, n }, k);
	return nr;
}

TEST(every_point_in_exactly_one_shard)
{
	for (int n = 1; n <= 9; n++)
		for (int k = 0; k < 100; k++)
			CHECK_INT(owners(k, n), 1);
}

TEST(shares_within_one_point)
{
	for (int nr = 0; nr <= 50; nr++) {
		for (int n = 1; n <= 7; n++) {
			int min = nr, max = 0, sum = 0;

			for (int i = 1; i <= n; i++) {
				struct shard sh = { i, n };
				int size = 0;

				for (int k = 0; k < nr; k++)
					size += shard_has(&sh, k);
				CHECK_INT(shard_size(&sh, nr), size);
				min = size < min ? size : min;
				max = size > max ? size : max;
				sum += size;
			}
			CHECK_INT(sum, nr);
			CHECK(max - min <= 1);
		}
	}
}

TEST(more_shards_than_points)
{
	/* 3 points, 5 shards: the first three hold one each, the others none */
	for (int i = 1; i <= 5; i++)
		CHECK_INT(shard_size(&(struct shard){ i, 5 }, 3), i <= 3);
	CHECK(shard_has(&(struct shard){ 3, 5 }, 2));
	CHECK(!shard_has(&(struct shard){ 4, 5 }, 2));
}

TEST(no_shard_holds_everything)
{
	struct shard none = { 0, 0 };

	CHECK(shard_has(&none, 0) && shard_has(&none, 12345));
	CHECK_INT(shard_size(&none, 48), 48);
}

/*
 * The case shard.h chose round-robin for: ringbuf_overwrite.spec's 48
 * points on a kernel without overwrite mode measure ids 0..15 only.
 */
TEST(round_robin_spreads_a_block_of_unsupported_points)
{
	for (int i = 1; i <= 2; i++) {
		struct shard sh = { i, 2 };
		int measured = 0;

		for (int k = 0; k < 48; k++)
			measured += shard_has(&sh, k) && k < 16;
		CHECK_INT(measured, 8);
	}
}

TEST(parses_i_of_n)
{
	struct shard sh = { 0, 0 };
	char why[160];

	CHECK_INT(shard_parse("1/2", &sh, why, sizeof(why)), 0);
	CHECK_INT(sh.index, 1);
	CHECK_INT(sh.count, 2);
	CHECK_INT(shard_parse("7/7", &sh, why, sizeof(why)), 0);
	CHECK_INT(sh.index, 7);
	CHECK_INT(shard_parse("1/1", &sh, why, sizeof(why)), 0);
	CHECK_INT(shard_parse("1000000/1000000", &sh, why, sizeof(why)), 0);
}

TEST(refuses_what_is_not_i_of_n)
{
	static const char *const bad[] = {
		"", "1", "1/", "/2", "0/2", "3/2", "1/0", "-1/2", "+1/2", " 1/2", "1/2 ", "1/2/3",
		"a/b", "1.0/2", "1000001/1000001", "99999999999999999999/2", "1 / 2",
	};
	struct shard sh = { 0, 0 };
	char why[160];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CHECK_INT(shard_parse(bad[i], &sh, why, sizeof(why)), -EINVAL);
		CHECK(why[0] != '\0');
		CHECK_INT(sh.count, 0);
	}
}

RUN_TESTS(every_point_in_exactly_one_shard, shares_within_one_point, more_shards_than_points,
	  no_shard_holds_everything, round_robin_spreads_a_block_of_unsupported_points,
	  parses_i_of_n, refuses_what_is_not_i_of_n);
