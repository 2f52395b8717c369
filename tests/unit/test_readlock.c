// SPDX-License-Identifier: GPL-2.0
/*
 * readlock.c: a reader's directory held from before its lock, so that a
 * symlink swapped in at its path mid-read is not what is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "heldir.h"
#include "readlock.h"
#include "textfile.h"

static char base[64];

/* base/name/summary.csv holding text. */
static int make_set(const char *name, const char *text)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, name);
	if (mkdir(path, 0755))
		return -errno;
	snprintf(path, sizeof(path), "%s/%s/summary.csv", base, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* Is base/name locked by another open file than one of its own? */
static bool locked(const char *name)
{
	char path[160];
	int fd, busy;

	snprintf(path, sizeof(path), "%s/%s", base, name);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return false;
	busy = flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

/*
 * The set read is the set locked: after set renamed away and a symlink to
 * another set put at its path, its files still read as the locked one's
 * (they read as the other set's before the directory was held).
 */
TEST(swapped_path_reads_the_locked_set)
{
	char set[128], file[160];
	const char *dirs[1] = { set };
	struct read_locks rl;
	char *text = NULL;

	snprintf(base, sizeof(base), "/tmp/test_readlock.XXXXXX");
	CHECK(mkdtemp(base));
	CHECK_INT(make_set("set", "point\n1\n"), 0);
	CHECK_INT(make_set("other", "point\n2\n"), 0);
	snprintf(set, sizeof(set), "%s/set", base);
	snprintf(file, sizeof(file), "%s/summary.csv", set);
	CHECK_INT(read_locks_take(&rl, dirs, 1), 0);
	CHECK(locked("set"));
	snprintf(file, sizeof(file), "%s/moved", base);
	CHECK_INT(rename(set, file), 0);
	CHECK_INT(symlink("other", set), 0);
	CHECK(locked("moved"));
	CHECK(!locked("other"));
	snprintf(file, sizeof(file), "%s/summary.csv", set);
	CHECK_INT(read_text_file(file, &text), 0);
	CHECK_STR(text, "point\n1\n");
	free(text);
	read_locks_release(&rl);
	CHECK(!locked("moved"));
	/* released: the path is a path again */
	CHECK_INT(read_text_file(file, &text), 0);
	CHECK_STR(text, "point\n2\n");
	free(text);
	CHECK_INT(heldir_remove_tree(base), 0);
}

RUN_TESTS(swapped_path_reads_the_locked_set)
