// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own measure of a program's cost: run_cnt and run_time_ns
 * of bpf_prog_info, which the kernel counts only while statistics are
 * enabled (it times every run, so they are off by default).
 *
 * BPF_ENABLE_STATS (5.8) keeps them on while its descriptor is open, and
 * nothing is left behind when the process dies.  Where it is refused, the
 * sysctl kernel.bpf_stats_enabled does the same system-wide: we write 1,
 * and the old value back at the end of the statistics pass (statspass.h)
 * or the run, or from the handler of a second Ctrl-C.  The sysctl is written
 * only when it was 0, so that a run never turns off what someone else
 * turned on.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "progstats.h"
#include "workload.h"

#define STATS_SYSCTL	"/proc/sys/kernel/bpf_stats_enabled"

static int stats_fd = -1;	/* BPF_ENABLE_STATS's descriptor */
static volatile sig_atomic_t sysctl_set;	/* we wrote 1 to the sysctl; it was 0 */
static bool stats_on;
static bool force_sysctl;	/* the tests' way to the fallback through the runner */

/* The sysctl's value: 0 or 1, or -errno. */
static int sysctl_read(void)
{
	char c = 0;
	int fd = open(STATS_SYSCTL, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, &c, 1);
	close(fd);
	if (n != 1)
		return n < 0 ? -errno : -EIO;
	return c == '1';
}

static int sysctl_write(int v)
{
	char c = v ? '1' : '0';
	int fd = open(STATS_SYSCTL, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, &c, 1) != 1)
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* The sysctl when BPF_ENABLE_STATS is refused (before 5.8, or by a policy). */
static int sysctl_on(int enable_err, char *how, size_t len)
{
	int old = sysctl_read();
	int err = old < 0 ? old : 0;

	if (old == 0)
		err = sysctl_write(1);
	if (err) {
		snprintf(how, len, "unavailable (BPF_ENABLE_STATS: %s; %s: %s)",
			 strerror(-enable_err), STATS_SYSCTL, strerror(-err));
		return err;
	}
	sysctl_set = old == 0;
	snprintf(how, len, "sysctl kernel.bpf_stats_enabled (%s)",
		 sysctl_set ? "set to 1, restored after" : "already 1");
	return 0;
}

/* use_fd false: the sysctl at once, as where BPF_ENABLE_STATS is refused (the tests' way there). */
static int stats_on_by(bool use_fd, char *how, size_t len)
{
	int fd, err;

	if (stats_on) {
		snprintf(how, len, "already on");
		return 0;
	}
	fd = use_fd ? bpf_enable_stats(BPF_STATS_RUN_TIME) : -EOPNOTSUPP;
	if (fd >= 0) {
		stats_fd = fd;
		snprintf(how, len, "BPF_ENABLE_STATS");
	} else {
		/* libbpf 1.x returns -errno */
		err = sysctl_on(fd, how, len);
		if (err)
			return err;
	}
	stats_on = true;
	return 0;
}

int wl_bpf_stats_on(char *how, size_t len)
{
	return stats_on_by(!force_sysctl, how, len);
}

void progstats_force_sysctl(bool force)
{
	force_sysctl = force;
}

int progstats_on_sysctl(char *how, size_t len)
{
	return stats_on_by(false, how, len);
}

void wl_bpf_stats_off(void)
{
	if (stats_fd >= 0)
		close(stats_fd);
	/* nothing to tell: the run is over, and meta said how it was turned on */
	if (sysctl_set)
		sysctl_write(0);
	stats_fd = -1;
	sysctl_set = false;
	stats_on = false;
}

/* open, write and close only: async-signal-safe, for a handler about to end the process. */
void wl_bpf_stats_off_async(void)
{
	int fd;

	if (!sysctl_set)
		return;
	fd = open(STATS_SYSCTL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "0", 1) == 1)
		sysctl_set = 0;
	close(fd);
}

int wl_prog_stats_sum(const int *fds, int n, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	*run_cnt = *run_time_ns = 0;
	if (!stats_on)
		return -ENODATA;
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info;
		__u32 info_len = sizeof(info);

		int err;

		memset(&info, 0, sizeof(info));
		err = bpf_obj_get_info_by_fd(fds[i], &info, &info_len);
		if (err)
			return err;
		*run_cnt += info.run_cnt;
		*run_time_ns += info.run_time_ns;
	}
	return 0;
}
