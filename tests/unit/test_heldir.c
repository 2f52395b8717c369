// SPDX-License-Identifier: GPL-2.0
/* heldir.c: paths beneath a held directory resolved from its descriptor. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "heldir.h"

static char base[64];

/* A fresh temporary directory in base, and in it the paths of a run and a victim. */
static int setup(char *run, char *victim, size_t len)
{
	snprintf(base, sizeof(base), "/tmp/test_heldir.XXXXXX");
	if (!mkdtemp(base))
		return -errno;
	snprintf(run, len, "%s/run", base);
	snprintf(victim, len, "%s/victim", base);
	return mkdir(victim, 0755) ? -errno : 0;
}

static void cleanup(void)
{
	int err = heldir_remove_tree(base);	/* no shell: by descriptor, no symlink followed */

	if (err)
		fprintf(stderr, "cannot remove %s: %s\n", base, strerror(-err));
}

static bool exists(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/* The run's directory renamed away, a symlink to the victim in its place. */
static void swap(const char *run, char *moved, size_t len)
{
	snprintf(moved, len, "%s/moved", base);
	if (rename(run, moved) || symlink("victim", run))
		perror("swap");
}

TEST(files_follow_the_moved_directory)
{
	char run[128], victim[128], moved[128], path[160], to[160];
	FILE *f;
	int fd;

	CHECK_INT(setup(run, victim, sizeof(run)), 0);
	CHECK_INT(heldir_create(run, 0755), 0);
	CHECK(!heldir_moved(run));
	swap(run, moved, sizeof(moved));
	CHECK(heldir_moved(run));
	snprintf(path, sizeof(path), "%s/meta", run);
	fd = heldir_open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	CHECK(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/plots", run);
	CHECK_INT(heldir_mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/plots/a.dat", run);
	f = heldir_fopen(path, "w");
	CHECK(f != NULL);
	fclose(f);
	snprintf(to, sizeof(to), "%s/plots/b.dat", run);
	CHECK_INT(heldir_rename(path, to, 0), 0);
	CHECK(exists(moved, "meta") && exists(moved, "plots/b.dat"));
	CHECK(!exists(victim, "meta") && !exists(victim, "plots"));
	/* what is there is looked for where the run is, not where its path points */
	CHECK_INT(heldir_access(to), 0);
	snprintf(path, sizeof(path), "%s/victims-own", victim);
	CHECK(!mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/victims-own", run);
	CHECK_INT(heldir_access(path), -ENOENT);
	CHECK(access(path, F_OK) == 0);
	/* the held directory emptied and left where it went; the symlink stays */
	CHECK_INT(heldir_remove_tree(run), -ESTALE);
	CHECK(!exists(moved, "meta") && exists(base, "moved") && exists(base, "victim"));
	cleanup();
}

TEST(nothing_leaves_the_held_directory)
{
	char run[128], victim[128], path[160];
	int fd;

	CHECK_INT(setup(run, victim, sizeof(run)), 0);
	CHECK_INT(heldir_create(run, 0755), 0);
	snprintf(path, sizeof(path), "%s/plots", run);
	CHECK(!symlink("../victim", path));
	CHECK_INT(heldir_open_dir(path), -EXDEV);
	snprintf(path, sizeof(path), "%s/plots/a.dat", run);
	CHECK_INT(heldir_open(path, O_WRONLY | O_CREAT, 0644), -EXDEV);
	CHECK_INT(heldir_mkdir(path, 0755), -EXDEV);
	snprintf(path, sizeof(path), "%s/../victim/x", run);
	CHECK_INT(heldir_open(path, O_WRONLY | O_CREAT, 0644), -EXDEV);
	CHECK(!exists(victim, "a.dat") && !exists(victim, "x"));
	/* a symlink that stays inside (fleet's runs/<n>) is followed */
	snprintf(path, sizeof(path), "%s/hosts", run);
	CHECK_INT(heldir_mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/runs", run);
	CHECK(!symlink("hosts", path));
	snprintf(path, sizeof(path), "%s/runs/y", run);
	fd = heldir_open(path, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK(exists(run, "hosts/y"));
	/* removed as a tree: a symlink goes, not what it points to */
	CHECK_INT(heldir_remove_tree(run), 0);
	CHECK(!exists(base, "run") && exists(base, "victim"));
	cleanup();
}

TEST(a_symlink_swapped_at_creation_is_refused)
{
	char run[128], victim[128];

	CHECK_INT(setup(run, victim, sizeof(run)), 0);
	CHECK(!symlink("victim", run));
	CHECK_INT(heldir_create(run, 0755), -EEXIST);
	cleanup();
}

TEST(trailing_slashes_and_unheld_paths)
{
	char run[128], victim[128], path[160];
	int fd;

	CHECK_INT(setup(run, victim, sizeof(run)), 0);
	snprintf(path, sizeof(path), "%s/", run);
	CHECK_INT(heldir_create(path, 0755), 0);
	snprintf(path, sizeof(path), "%s//x", run);
	fd = heldir_open(path, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK(exists(run, "x"));
	/* a path under no held directory is used as given, symlinks and all */
	snprintf(path, sizeof(path), "%s/link", base);
	CHECK(!symlink("victim", path));
	snprintf(path, sizeof(path), "%s/link/y", base);
	fd = heldir_open(path, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK(exists(victim, "y"));
	heldir_release(run);
	CHECK(!heldir_moved(run));
	cleanup();
}

RUN_TESTS(files_follow_the_moved_directory, nothing_leaves_the_held_directory,
	  a_symlink_swapped_at_creation_is_refused, trailing_slashes_and_unheld_paths)
