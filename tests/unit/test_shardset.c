// SPDX-License-Identifier: GPL-2.0
/*
 * Shards of one run (shardset.h): which sets of shares are one run, and
 * the facts of the whole: the machine only when every shard ran on the
 * same one, --tag values only when all have the same.
 */
#include <string.h>

#include "check.h"
#include "shardset.h"

#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))

TEST(shares_of_one_n_each_once_are_one_run)
{
	struct shard two[] = { { 2, 2 }, { 1, 2 } };
	struct shard part[] = { { 1, 3 }, { 3, 3 } };	/* 2/3 failed: still one run */

	CHECK(shardset_whole(two, NR(two)));
	CHECK(shardset_whole(part, NR(part)));
}

TEST(anything_else_is_several_runs)
{
	struct shard one[] = { { 1, 2 } };
	struct shard twice[] = { { 1, 2 }, { 1, 2 } };
	struct shard other_n[] = { { 1, 2 }, { 2, 3 } };
	struct shard whole[] = { { 1, 2 }, { 0, 0 } };	/* a run of every point */

	CHECK(!shardset_whole(one, NR(one)));
	CHECK(!shardset_whole(twice, NR(twice)));
	CHECK(!shardset_whole(other_n, NR(other_n)));
	CHECK(!shardset_whole(whole, NR(whole)));
}

TEST(one_machine_is_named_once)
{
	struct run_facts f[] = {
		{ .arch = "x86_64", .cpu_model = "AMD EPYC 9654", .kernel_release = "6.18.0",
		  .tags = "fleet_host=a", .quick = true, .tcg = false },
		{ .arch = "x86_64", .cpu_model = "AMD EPYC 9654", .kernel_release = "6.18.0",
		  .tags = "fleet_host=b", .quick = false, .tcg = true },
	};
	struct run_facts w = shardset_facts(f, NR(f));

	CHECK(shardset_same_machine(&f[0], &f[1]));
	CHECK_STR(w.arch, "x86_64");
	CHECK_STR(w.cpu_model, "AMD EPYC 9654");
	CHECK_STR(w.kernel_release, "6.18.0");
	/* the hosts' tags differ: the whole has none, each shard's line names its host */
	CHECK_STR(w.tags, "");
	CHECK(w.quick && w.tcg);
}

TEST(machines_that_differ_are_not_named_for_the_whole)
{
	struct run_facts f[] = {
		{ .arch = "x86_64", .cpu_model = "AMD EPYC 9654", .kernel_release = "6.18.0",
		  .tags = "note=x", .quick = false, .tcg = false },
		{ .arch = "x86_64", .cpu_model = "AMD EPYC 9654", .kernel_release = "6.18.0",
		  .tags = "note=x", .quick = false, .tcg = false },
		{ .arch = "x86_64", .cpu_model = "Intel Xeon", .kernel_release = "6.18.0",
		  .tags = "note=x", .quick = false, .tcg = false },
	};
	struct run_facts w = shardset_facts(f, NR(f));

	CHECK(!shardset_same_machine(&f[0], &f[2]));
	CHECK(w.arch == NULL && w.cpu_model == NULL && w.kernel_release == NULL);
	CHECK_STR(w.tags, "note=x");
	/* a kernel the meta does not say is not the same as one it says */
	f[1].kernel_release = NULL;
	CHECK(!shardset_same_machine(&f[0], &f[1]));
}

RUN_TESTS(shares_of_one_n_each_once_are_one_run, anything_else_is_several_runs,
	  one_machine_is_named_once, machines_that_differ_are_not_named_for_the_whole);
