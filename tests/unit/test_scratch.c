// SPDX-License-Identifier: GPL-2.0
/*
 * scratch.c: where scratch directories go.  A $TMPDIR another user owns,
 * or one others can write without the sticky bit, would let that user
 * swap root's fresh directory for one of links (issue 34, N3): such a
 * TMPDIR is passed over for /tmp.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "scratch.h"

/* A scratch directory made with TMPDIR=tmpdir: is it beneath tmpdir? */
static int made_beneath(const char *tmpdir, bool *beneath)
{
	char dir[SCRATCH_BASE_MAX + 64];
	int err;

	setenv("TMPDIR", tmpdir, 1);
	err = scratch_make(dir, sizeof(dir), "test");
	unsetenv("TMPDIR");
	if (err)
		return err;
	*beneath = !strncmp(dir, tmpdir, strlen(tmpdir)) && dir[strlen(tmpdir)] == '/';
	scratch_remove(dir);
	return 0;
}

TEST(tmpdir_of_another_user_is_passed_over)
{
	char own[] = "/tmp/scratch-test.XXXXXX";
	bool beneath = true;

	if (geteuid())
		SKIP("chown needs root");
	CHECK(mkdtemp(own));
	/* ours, private: used */
	CHECK_INT(made_beneath(own, &beneath), 0);
	CHECK(beneath);
	/* writable by others, no sticky bit: not used */
	CHECK(!chmod(own, 0777));
	CHECK_INT(made_beneath(own, &beneath), 0);
	CHECK(!beneath);
	/* with the sticky bit, as /tmp: used */
	CHECK(!chmod(own, 01777));
	CHECK_INT(made_beneath(own, &beneath), 0);
	CHECK(beneath);
	/* another user's, private to that user: not used */
	CHECK(!chmod(own, 0755) && !chown(own, 65534, 65534));
	CHECK_INT(made_beneath(own, &beneath), 0);
	CHECK(!beneath);
	rmdir(own);
}

RUN_TESTS(tmpdir_of_another_user_is_passed_over)
