// SPDX-License-Identifier: GPL-2.0
/*
 * outdir.c: a command's result directory created (its default path, -2
 * in the same second, its spec, meta and folders, locked) or reopened for
 * --resume, and a set-up that fails leaving nothing of a new one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diag_capture.h"
#include "heldir.h"
#include "outdir.h"
#include "textfile.h"

extern const struct workload null_workload;

/* A scratch directory, the working directory of the test (the default path is relative). */
static char base[64], was[PATH_MAX];

static int enter(void)
{
	snprintf(base, sizeof(base), "/tmp/test_outdir.XXXXXX");
	if (!mkdtemp(base) || !getcwd(was, sizeof(was)))
		return -errno;
	return chdir(base) ? -errno : 0;
}

static void leave(void)
{
	if (chdir(was) == 0)
		heldir_remove_tree(base);
}

/* Does another open file of path find it locked? */
static bool locked(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY), busy;

	if (fd < 0)
		return false;
	busy = flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static int failing_more(const struct outdir *od, void *ctx)
{
	(void)od;
	(void)ctx;
	return -EIO;
}

/*
 * The default path is results/<name>/<stamp><suffix>; a second command
 * started in the same second gets -2.  Both hold spec, meta and their
 * folders, and are locked until closed.
 */
TEST(created_at_default_path_then_dash_2)
{
	static const char *const subdirs[] = { "runs", NULL };
	struct sweep_cfg cfg = { .wl = &null_workload, .spec_path = "x.spec", .title = "t",
				 .repeat = 1, .duration_ns = 1000000000 };
	struct run_info info = { .start = 86400 };
	struct outdir a, b;
	struct outdir_how how = { .who = "bpfsweep", .name = "x", .suffix = "-kernels",
				  .subdirs = subdirs, .cfg = &cfg, .info = &info };
	struct spec *spec;
	char *text = NULL;

	CHECK_INT(enter(), 0);
	CHECK_INT(spec_parse_string("x.spec", "[sweep]\nworkload = null\n", &spec), 0);
	how.spec = spec;
	CHECK_INT(outdir_open(&a, &how), 0);
	CHECK_STR(a.path, "results/x/19700102-000000-kernels");
	CHECK(a.made && !a.resumed);
	CHECK_INT(outdir_create(&b, &how), 0);
	CHECK_STR(b.path, "results/x/19700102-000000-kernels-2");
	CHECK(exists("results/x/19700102-000000-kernels/runs"));
	CHECK(exists("results/x/19700102-000000-kernels/meta"));
	CHECK_INT(read_text_file("results/x/19700102-000000-kernels-2/spec", &text), 0);
	CHECK_STR(text, "[sweep]\nworkload = null\n");
	free(text);
	CHECK(locked(a.path) && locked(b.path));
	outdir_close(&a);
	CHECK(!locked(a.path));
	outdir_close(&b);
	outdir_close(&b);	/* a second close does nothing */
	spec_free(spec);
	leave();
}

/* -o at an existing directory: refused with the command's hint, the directory untouched. */
TEST(existing_out_refused_untouched)
{
	struct outdir od = { 0 };
	struct outdir_how how = { .who = "bpfsweep", .out = "old",
				  .exists_hint = " (--resume OUT continues it)" };
	char msg[256];

	CHECK_INT(enter(), 0);
	CHECK_INT(mkdir("old", 0755), 0);
	CHECK_INT(mkdir("old/keep", 0755), 0);
	capture();
	CHECK_INT(outdir_open(&od, &how), -EEXIST);
	snprintf(msg, sizeof(msg), "bpfsweep: error: cannot create result directory old: File "
		 "exists (--resume OUT continues it)\n");
	CHECK_STR(diags(), msg);
	CHECK(!od.made && !od.locked);
	CHECK(exists("old/keep"));
	leave();
}

/* A set-up that fails after the mkdir leaves nothing of the new directory. */
TEST(failed_setup_leaves_nothing)
{
	static const char *const subdirs[] = { "logs", "hosts", NULL };
	struct outdir od;
	struct outdir_how how = { .who = "bpfsweep", .out = "a/new", .subdirs = subdirs,
				  .more = failing_more };

	CHECK_INT(enter(), 0);
	CHECK_INT(outdir_create(&od, &how), -EIO);
	CHECK(!exists("a/new"));
	CHECK(exists("a"));	/* a parent made for it is not the command's to remove */
	CHECK(!od.made && !od.locked);
	how.out = "a/slash/";	/* "DIR/" names DIR, made and removed alike */
	CHECK_INT(outdir_create(&od, &how), -EIO);
	CHECK(!exists("a/slash"));
	leave();
}

/*
 * --resume: refused with -o or --tag (named as the command names its
 * operand), a file refused, a directory another command holds refused.
 */
TEST(reopen_refusals)
{
	struct outdir first, od;
	struct outdir_how make = { .who = "bpfsweep fleet", .out = "out" };
	struct outdir_how how = { .who = "bpfsweep fleet", .resume = "out", .tagged = true,
				  .metavar = "OUT" };

	CHECK_INT(enter(), 0);
	capture();
	CHECK_INT(outdir_reopen(&od, &how), -EINVAL);
	CHECK_STR(diags(), "bpfsweep: error: --resume continues OUT with its own output and "
		  "tags: give neither -o nor --tag\n");
	how.tagged = false;
	how.resume = "file";
	CHECK_INT(close(open("file", O_CREAT | O_WRONLY, 0644)), 0);
	capture();
	CHECK_INT(outdir_reopen(&od, &how), -ENOTDIR);
	CHECK_STR(diags(), "bpfsweep: error: cannot resume file: Not a directory\n");
	CHECK_INT(outdir_create(&first, &make), 0);
	how.resume = "out";
	capture();
	CHECK_INT(outdir_open(&od, &how), -EBUSY);
	CHECK_STR(diags(), "bpfsweep: error: cannot resume out: another bpfsweep fleet is "
		  "running there\n");
	outdir_close(&first);
	CHECK_INT(outdir_open(&od, &how), 0);
	CHECK(od.resumed && !od.made && od.locked);
	/* a reopened directory is the user's: a failed set-up leaves it */
	outdir_discard(&od);
	CHECK(exists("out") && !locked("out"));
	leave();
}

RUN_TESTS(created_at_default_path_then_dash_2, existing_out_refused_untouched,
	  failed_setup_leaves_nothing, reopen_refusals)
