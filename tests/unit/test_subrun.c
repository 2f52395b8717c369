// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel sweep's sub-runs (subrun.c): each kernel of the axis runs the
 * spec as the sweep resolved it (a file: no --set words, they are in it)
 * once, with --kernel host and which kernel it is for; a new directory
 * gets the tags, a resumed one not.
 */
#include <string.h>

#include "check.h"
#include "subrun.h"

/* The argv joined with spaces, for whole-line comparisons. */
static const char *joined(const struct subrun_argv *a)
{
	static char buf[2048];
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n && off < sizeof(buf); i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? " " : "", a->argv[i]);
	return buf;
}

TEST(host_kernel_runs_here)
{
	const char *tags[] = { "machine=a", NULL };
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .quick = true,
			    .only = "first", .tags = tags, .nr_tags = 1 };
	struct subrun_argv a;

	subrun_argv(&s, "host", NULL, NULL, &a);
	subrun_dir(&s, "OUT/runs/1", false, &a);
	/* --set is in the resolved spec, x.spec: struct subrun has no field for it */
	CHECK_STR(joined(&a), "/b/bpfsweep run /s/x.spec --quick --only first --kernel host "
		  "--guest-of host --no-plots --tag machine=a -o OUT/runs/1");
	CHECK(a.argv[a.n] == NULL);
}

TEST(vm_kernel_says_which_and_how)
{
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec" };
	struct subrun_argv a;

	subrun_argv(&s, "/k/bzImage", "tcg", NULL, &a);
	subrun_dir(&s, "/run/bpfsweep/result", true, &a);
	CHECK_STR(joined(&a), "/b/bpfsweep run /s/x.spec --kernel host --guest-of /k/bzImage "
		  "--guest-accel tcg --no-plots --resume /run/bpfsweep/result");
}

TEST(failed_rows_of_a_kernel)
{
	const char *tags[] = { "a=b", "c=d", NULL };
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .tags = tags,
			    .nr_tags = 2 };
	struct subrun_argv a;

	subrun_argv(&s, "/k/bzImage", NULL, NULL, &a);
	subrun_arg(&a, "--fail-all");
	subrun_arg(&a, "the kernel did not boot");
	subrun_dir(&s, "OUT/runs/2", false, &a);
	CHECK_INT(a.n, 16);
	CHECK_STR(a.argv[8], "--fail-all");
	CHECK_STR(a.argv[9], "the kernel did not boot");	/* one argument, spaces and all */
	CHECK_STR(joined(&a), "/b/bpfsweep run /s/x.spec --kernel host --guest-of /k/bzImage "
		  "--no-plots --fail-all the kernel did not boot --tag a=b --tag c=d -o OUT/runs/2");
}

TEST(argv_is_bounded)
{
	struct subrun_argv a = { .n = 0 };

	for (int i = 0; i < SUBRUN_MAX_ARGS + 10; i++)
		subrun_arg(&a, "x");
	CHECK_INT(a.n, SUBRUN_MAX_ARGS);
	CHECK(a.argv[SUBRUN_MAX_ARGS] == NULL);
}

RUN_TESTS(host_kernel_runs_here, vm_kernel_says_which_and_how, failed_rows_of_a_kernel,
	  argv_is_bounded)
