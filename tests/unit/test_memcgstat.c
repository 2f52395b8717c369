// SPDX-License-Identifier: GPL-2.0
/*
 * memcg_stat_value(): one line of a cgroup v2 memory.stat, where the
 * cgroup's kernel memory is "kernel N" among lines that begin alike
 * ("kernel_stack N").
 */
#include <errno.h>
#include <stdint.h>

#include "check.h"
#include "memcg.h"

/* The start of a 6.x memory.stat, "kernel" after a line it prefixes. */
static const char stat_text[] =
	"anon 1048576\n"
	"file 0\n"
	"kernel_stack 32768\n"
	"kernel 761856\n"
	"percpu 4096\n"
	"sock 0\n";

TEST(finds_the_whole_key)
{
	uint64_t v = 0;

	CHECK_INT(memcg_stat_value(stat_text, "kernel", &v), 0);
	CHECK_INT(v, 761856);
	CHECK_INT(memcg_stat_value(stat_text, "kernel_stack", &v), 0);
	CHECK_INT(v, 32768);
	CHECK_INT(memcg_stat_value(stat_text, "anon", &v), 0);
	CHECK_INT(v, 1048576);
}

TEST(last_line_without_newline)
{
	uint64_t v = 0;

	CHECK_INT(memcg_stat_value("anon 1\nkernel 42", "kernel", &v), 0);
	CHECK_INT(v, 42);
}

/* Older kernels' memory.stat has no "kernel" line: unknown, not 0. */
TEST(missing_or_bad)
{
	uint64_t v = 7;

	CHECK_INT(memcg_stat_value("anon 1\nkernel_stack 2\n", "kernel", &v), -ENOENT);
	CHECK_INT(memcg_stat_value("", "kernel", &v), -ENOENT);
	CHECK_INT(memcg_stat_value("kernel x\n", "kernel", &v), -EINVAL);
	CHECK_INT(memcg_stat_value("kernel 12k\n", "kernel", &v), -EINVAL);
}

RUN_TESTS(finds_the_whole_key, last_line_without_newline, missing_or_bad);
