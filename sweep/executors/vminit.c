// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep as PID 1 of a kernel under test.  The guest's root is the
 * host's, read-only over virtiofs, so the same binary boots as init
 * (init= on the kernel command line): it mounts what a BPF benchmark
 * needs, mounts the writable export at VM_GUEST_DIR, says it booted, runs
 * the job the host left there (a working directory and an argv, no shell)
 * with the console as its terminal, writes the job's exit status and
 * powers the VM off.  The protocol is in docs/kernel.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "textfile.h"
#include "vm_cmdline.h"
#include "vminit.h"

#define JOB_MAX_BYTES	65536
#define JOB_MAX_ARGS	256
/*
 * The host's /tmp stays visible (read-only): a job's files may be there.
 * Scratch space is a tmpfs under /run.
 */
#define GUEST_TMP	"/run/tmp"
#define GUEST_HOSTNAME	"bpfsweep-vm"

/*
 * The guest settles before its job: until a window of guest time in which
 * its CPUs did (almost) nothing.  Debian's kernels test each crypto
 * algorithm as it registers (CONFIG_CRYPTO_SELFTESTS, cryptomgr_test
 * threads), and that ran until about 3.2 s of guest time after boot under
 * TCG icount, all of the one vCPU, while the job's first point measured
 * (docs/kernel.md, "The guest's first seconds").  /proc/stat counts in
 * USER_HZ (100) ticks, so a 200 ms window is 20 ticks a CPU; sampled
 * accounting may charge a stray tick to an idle window.  Under icount
 * (sleep=off) idle guest time costs no host time, so the wait costs only
 * the boot's own work; SETTLE_MAX_S bounds it everywhere (guest seconds
 * from the wait's start: under icount a boot that waited for a device may
 * have passed minutes of guest time already).
 */
#define SETTLE_WINDOW_NS	200000000L
#define SETTLE_IDLE_TICKS	1
#define SETTLE_MAX_S		60

struct guest_mount {
	const char *source, *target, *type;
	unsigned long flags;
	bool needed;		/* the job cannot run without it */
};

/* In order: later targets live on earlier mounts. */
static const struct guest_mount guest_mounts[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, true },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, true },
	{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, true },
	{ "devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, false },
	{ "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, false },
	{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, true },
	{ "tmpfs", GUEST_TMP, "tmpfs", MS_NOSUID | MS_NODEV, false },
	{ "tracefs", "/sys/kernel/tracing", "tracefs", 0, false },
	{ "debugfs", "/sys/kernel/debug", "debugfs", 0, false },
	{ "bpf", "/sys/fs/bpf", "bpf", 0, false },
	{ "securityfs", "/sys/kernel/security", "securityfs", 0, false },
	{ "cgroup2", "/sys/fs/cgroup", "cgroup2", 0, false },
	{ VM_OUT_TAG, VM_GUEST_DIR, "virtiofs", 0, true },
};

/* The console is the job's terminal, and where the host reads what went wrong. */
static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* What udev would make: bash's <(...) needs /dev/fd. */
static void link_std_fds(void)
{
	static const char *const links[][2] = {
		{ "/proc/self/fd", "/dev/fd" }, { "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" },
	};

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		symlink(links[i][0], links[i][1]);
}

static int mount_all(void)
{
	int err = 0;

	for (size_t i = 0; i < sizeof(guest_mounts) / sizeof(guest_mounts[0]); i++) {
		const struct guest_mount *m = &guest_mounts[i];

		mkdir(m->target, 0755);		/* on a tmpfs or devtmpfs; exists elsewhere */
		if (mount(m->source, m->target, m->type, m->flags, NULL)) {
			fprintf(stderr, "bpfsweep-init: mount %s on %s: %s\n", m->type,
				m->target, strerror(errno));
			if (m->needed && !err)
				err = -errno;
		} else if (!strcmp(m->target, "/dev")) {
			open_console();	/* the root's /dev may have had no console node */
			link_std_fds();
		}
	}
	return err;
}

/* A small file in the export, written whole and synced: the host reads it after power-off. */
static void put_file(const char *name, const char *text)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", VM_GUEST_DIR, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "bpfsweep-init: %s: %s\n", path, strerror(errno));
	fsync(fd);
	close(fd);
}

/* The CPUs' busy ticks so far: /proc/stat's "cpu" user, nice, system, irq, softirq; or -1. */
static long long busy_ticks(void)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq;
	char *line = read_first_line("/proc/stat");
	int n = line ? sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys,
			      &idle, &iowait, &irq, &softirq) : 0;

	free(line);
	return n == 7 ? (long long)(user + nice + sys + irq + softirq) : -1;
}

static double boot_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait until a window passes with the CPUs idle (see SETTLE_WINDOW_NS), and say when. */
static void settle(void)
{
	const struct timespec window = { 0, SETTLE_WINDOW_NS };
	long long before = busy_ticks(), now;
	/* from now: an initramfs that waited for devices may have spent minutes of guest time */
	double end = boot_s() + SETTLE_MAX_S;

	while (before >= 0 && boot_s() < end) {
		nanosleep(&window, NULL);
		now = busy_ticks();
		if (now >= 0 && now - before <= SETTLE_IDLE_TICKS) {
			fprintf(stderr, "bpfsweep-init: settled %.1f s after boot (%.1f s "
				"waited)\n", boot_s(), boot_s() - end + SETTLE_MAX_S);
			return;
		}
		before = now;
	}
	fprintf(stderr, "bpfsweep-init: still busy %.1f s after boot (%d s waited); the job runs "
		"anyway\n", boot_s(), SETTLE_MAX_S);
}

/* The job: NUL-separated fields, the working directory first, then the argv. */
static int read_job(char **text, char **argv, int *argc, const char **cwd)
{
	size_t len, at = 0;
	int err = read_text_file_max(VM_GUEST_DIR "/job", JOB_MAX_BYTES, text, &len);

	if (err)
		return err;
	*argc = -1;
	while (at < len && *argc < JOB_MAX_ARGS) {
		char *field = *text + at;

		at += strnlen(field, len - at) + 1;
		if (*argc < 0)
			*cwd = field;
		else
			argv[*argc] = field;
		(*argc)++;
	}
	if (*argc < 1)
		return -EINVAL;
	argv[*argc] = NULL;
	return 0;
}

static void exec_job(const char *cwd, char **argv)
{
	static char *const env[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/root", "TERM=linux", "LC_ALL=C", "TMPDIR=" GUEST_TMP, NULL,
	};

	if (chdir(cwd)) {
		fprintf(stderr, "bpfsweep-init: cd %s: %s\n", cwd, strerror(errno));
		_exit(127);
	}
	execve(argv[0], argv, env);
	fprintf(stderr, "bpfsweep-init: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Run the job; its status as a shell would say it (128 + signal). */
static int run_job(void)
{
	char *text = NULL, *argv[JOB_MAX_ARGS + 1];
	const char *cwd = "/";
	int argc, st, status = 127;
	pid_t pid, w;
	int err = read_job(&text, argv, &argc, &cwd);

	if (err) {
		fprintf(stderr, "bpfsweep-init: no job in %s: %s\n", VM_GUEST_DIR, strerror(-err));
		free(text);
		return 127;
	}
	pid = fork();
	if (pid == 0)
		exec_job(cwd, argv);
	/* PID 1 reaps every orphan until the job itself ends */
	while (pid > 0 && (w = wait(&st)) >= 0) {
		if (w != pid)
			continue;
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		break;
	}
	free(text);
	return status;
}

int vminit_main(void)
{
	char text[300];
	struct utsname u;
	int status = 127;

	open_console();
	/* meta's host: not the host's name, nor the kernel's "(none)" */
	sethostname(GUEST_HOSTNAME, strlen(GUEST_HOSTNAME));
	if (!mount_all()) {
		uname(&u);
		snprintf(text, sizeof(text), "%s\n", u.release);
		put_file("booted", text);
		settle();
		status = run_job();
		snprintf(text, sizeof(text), "%d\n", status);
		put_file("status", text);
	}
	sync();
	reboot(RB_POWER_OFF);
	/* PID 1 must not return: the kernel would panic over it */
	for (;;)
		pause();
}
