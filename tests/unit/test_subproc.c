// SPDX-License-Identifier: GPL-2.0
/*
 * The one spawner (sweep/util/subproc.c): exit statuses as a shell gives them,
 * the time limit that kills, the wait a stop flag ends, and a program run
 * in a directory of its own.  Real child processes (/bin/sh), no root.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "subproc.h"
#include "textfile.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t start_sh(const char *script)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	pid_t pid = -1;

	if (spawn(argv, NULL, &pid))
		return -1;
	return pid;
}

TEST(exit_status)
{
	pid_t pid = start_sh("exit 3");

	CHECK(pid > 0);
	CHECK_INT(spawn_wait(pid, 10000), 3);
	pid = start_sh("kill -TERM $$");
	CHECK(pid > 0);
	CHECK_INT(spawn_wait(pid, 10000), 128 + SIGTERM);
}

/* A child that exits is reaped when it exits, not at the end of the limit. */
TEST(woken_at_exit)
{
	pid_t pid = start_sh("sleep 0.2");
	double t0 = now_s();

	CHECK(pid > 0);
	CHECK_INT(spawn_wait(pid, 60000), 0);
	CHECK(now_s() - t0 < 5);
}

TEST(timeout_kills)
{
	bool timed_out = false;
	pid_t pid = start_sh("exec sleep 30");
	double t0 = now_s();
	int status = 0;

	CHECK(pid > 0);
	CHECK_INT(spawn_wait_timed(pid, 200, &timed_out), 128 + SIGKILL);
	CHECK(timed_out);
	CHECK(now_s() - t0 < 10);
	/* reaped: no child of that pid is left */
	CHECK(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD);

	pid = start_sh("exec sleep 30");
	CHECK(pid > 0);
	CHECK_INT(spawn_wait_status(pid, 200, &status), -ETIMEDOUT);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	pid = start_sh("exit 0");
	CHECK_INT(spawn_wait_timed(pid, 10000, &timed_out), 0);
	CHECK(!timed_out);
}

/* A stop ends the wait with -EINTR and leaves the child to the caller. */
TEST(stop_leaves_child)
{
	static volatile sig_atomic_t stop = 1;
	pid_t pid = start_sh("exec sleep 30");
	double t0 = now_s();

	CHECK(pid > 0);
	CHECK_INT(spawn_wait_stop(pid, 60000, &stop), -EINTR);
	CHECK(now_s() - t0 < 5);
	CHECK_INT(waitpid(pid, NULL, WNOHANG), 0);
	kill(pid, SIGKILL);
	CHECK_INT(spawn_wait(pid, 10000), 128 + SIGKILL);
}

/* A child already reaped: pidfd_open()'s ESRCH, and no kill sent to whoever has the pid now. */
TEST(reaped_child)
{
	pid_t pid = start_sh("exit 0");
	int status;

	CHECK(pid > 0);
	CHECK_INT(spawn_wait(pid, 10000), 0);
	CHECK_INT(spawn_wait_status(pid, 100, &status), -ESRCH);
}

TEST(runs_in_dir)
{
	char dir[] = "/tmp/test_subproc.XXXXXX", mark[64];
	const char *argv[] = { "touch", "mark", NULL };
	struct stat st;
	pid_t pid;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .dir = dir }, &pid), 0);
	CHECK_INT(spawn_wait(pid, 10000), 0);
	snprintf(mark, sizeof(mark), "%s/mark", dir);
	CHECK_INT(stat(mark, &st), 0);
	unlink(mark);
	rmdir(dir);
	argv[0] = "no-such-program-here";
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .dir = "/" }, &pid), -ENOENT);
	argv[0] = "true";
	CHECK(spawn(argv, &(struct spawn_opts){ .dir = "/no/such/dir" }, &pid) < 0 || spawn_wait(pid, 10000) != 0);
}

/* Does path hold a file named name? */
static bool has_file(const char *dir, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/*
 * A descriptor passed across the exec: the child writes through
 * /proc/self/fd/N into the directory opened, though its path was renamed
 * away and a symlink to another directory put there while it waited (a
 * sub-run of OUT, fleet's scp into OUT/hosts).  Closed for others.
 */
TEST(passed_descriptor_outlives_a_swap)
{
	char base[] = "/tmp/test_subproc.XXXXXX", dir[64], moved[64], other[64], target[96];
	const char *argv[] = { "sh", "-c", "sleep 0.3; : >\"$0\"", target, NULL };
	pid_t pid = -1;
	int fd;

	CHECK(mkdtemp(base));
	snprintf(dir, sizeof(dir), "%s/d", base);
	snprintf(moved, sizeof(moved), "%s/moved", base);
	snprintf(other, sizeof(other), "%s/other", base);
	CHECK_INT(mkdir(dir, 0755), 0);
	CHECK_INT(mkdir(other, 0755), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd > 2);
	snprintf(target, sizeof(target), "/proc/self/fd/%d/made", fd);
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .pass_fd = fd }, &pid), 0);
	close(fd);
	CHECK_INT(rename(dir, moved), 0);
	CHECK_INT(symlink("other", dir), 0);
	CHECK_INT(spawn_wait(pid, 5000), 0);
	CHECK(has_file(moved, "made"));
	CHECK(!has_file(other, "made"));
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .pass_fd = 2 }, &pid), -EBADF);
	unlink(dir);
	snprintf(target, sizeof(target), "%s/made", moved);
	unlink(target);
	rmdir(moved);
	rmdir(other);
	rmdir(base);
}

/*
 * The same with the output to a log (qemu and its console file,
 * virtiofsd and the share it exports): the child opens the file passed
 * as /proc/self/fd/N, not a path that now names another file.
 */
TEST(passed_descriptor_with_a_log)
{
	char base[] = "/tmp/test_subproc.XXXXXX", file[64], log[64], target[96], *text = NULL;
	const char *argv[] = { "sh", "-c", "echo said; echo wrote >\"$0\"", target, NULL };
	pid_t pid = -1;
	size_t len;
	int fd;

	CHECK(mkdtemp(base));
	snprintf(file, sizeof(file), "%s/console", base);
	snprintf(log, sizeof(log), "%s/log", base);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	CHECK(fd > 2);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	CHECK_INT(unlink(file), 0);
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .log = log, .pass_fd = fd }, &pid), 0);
	CHECK_INT(spawn_wait(pid, 5000), 0);
	CHECK(!has_file(base, "console"));
	CHECK_INT(lseek(fd, 0, SEEK_END), 6);
	CHECK_INT(read_text_file_len(log, &text, &len), 0);
	CHECK_STR(text ? text : "", "said\n");
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .log = log, .pass_fd = 2 }, &pid), -EBADF);
	free(text);
	close(fd);
	unlink(log);
	rmdir(base);
}

/*
 * A child that floods its log (the KVM probe's qemu once wrote 512 MiB in
 * 0.4 s): file_max stops it at the bound, killed by SIGXFSZ, the log no
 * larger than the bound.
 */
TEST(file_max_bounds_a_flooding_log)
{
	char base[] = "/tmp/test_subproc.XXXXXX", log[64];
	const char *argv[] = { "sh", "-c", "exec yes flood", NULL };
	struct stat st;
	pid_t pid = -1;
	int status;

	CHECK(mkdtemp(base));
	snprintf(log, sizeof(log), "%s/log", base);
	CHECK_INT(spawn(argv, &(struct spawn_opts){ .log = log, .file_max = 1 << 16 }, &pid), 0);
	status = spawn_wait(pid, 10000);
	CHECK_INT(stat(log, &st), 0);
	CHECK(st.st_size > 0 && st.st_size <= 1 << 16);
	/* killed by SIGXFSZ, as a shell would say it */
	CHECK_INT(status, 128 + SIGXFSZ);
	unlink(log);
	rmdir(base);
}

RUN_TESTS(file_max_bounds_a_flooding_log, exit_status, woken_at_exit, timeout_kills, stop_leaves_child, reaped_child,
	  runs_in_dir, passed_descriptor_outlives_a_swap, passed_descriptor_with_a_log)
