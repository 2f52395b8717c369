// SPDX-License-Identifier: GPL-2.0
/* KVM proven by a stub guest before a VM relies on it: see vm_probe.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "diag.h"
#include "scratch.h"
#include "subproc.h"
#include "vm.h"
#include "vm_cmdline.h"
#include "vm_probe.h"

#define FIRMWARE_SIZE	(64 << 10)	/* qemu's pc machine takes a BIOS in 64 KiB steps */
#define RESET_VECTOR	0xfff0		/* where an x86 CPU starts: 16 bytes below the top */
#define PROBE_MEM	(64LL << 20)
/*
 * qemu's log of the stub's boot is a few lines: one that floods it is
 * killed at this size (RLIMIT_FSIZE, which bounds the guest memory's
 * memfd as well: hence PROBE_MEM and 1 MiB of log).
 */
#define PROBE_LOG_MAX	(PROBE_MEM + (1LL << 20))

/* The verdict of this process's probe: one per bpfsweep run, kept for every VM it boots. */
static struct {
	bool done;
	int err;
	char why[512];
} verdict;

/*
 * Real mode at the reset vector: mov al, VALUE; out PORT, al; then hlt
 * forever (isa-debug-exit ends qemu at the out; the loop is in case not).
 * The rest of the image is hlt too.
 */
static int write_firmware(const char *path)
{
	static const unsigned char code[] = {
		0xb0, VM_PROBE_EXIT_VALUE,	/* mov al, VALUE */
		0xe6, VM_PROBE_EXIT_PORT,	/* out PORT, al */
		0xf4,				/* hlt */
		0xeb, 0xfd,			/* jmp back to the hlt */
	};
	unsigned char *image = malloc(FIRMWARE_SIZE);
	int fd, err = 0;

	if (!image)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		free(image);
		return err;
	}
	memset(image, 0xf4, FIRMWARE_SIZE);
	memcpy(image + RESET_VECTOR, code, sizeof(code));
	if (write(fd, image, FIRMWARE_SIZE) != (ssize_t)FIRMWARE_SIZE)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	free(image);
	return err;
}

/* How qemu ended when it did not run the stub: its last words and its status. */
static void describe_end(const char *log, int status, char *why, size_t len)
{
	char last[400], how[64];

	vm_console_tail(log, 1, last, sizeof(last));
	if (status > 128)
		snprintf(how, sizeof(how), "killed by signal %d, %s", status - 128,
			 strsignal(status - 128));
	else
		snprintf(how, sizeof(how), "exit status %d", status);
	if (last[0])
		snprintf(why, len, "%s (%s)", last, how);
	else
		snprintf(why, len, "qemu said nothing (%s)", how);
}

static int spawn_probe(const struct vm_probe *p, const char *dir, char *why, size_t len)
{
	char firmware[PATH_MAX], log[PATH_MAX];
	struct vm_boot b = {
		.qemu = p->qemu, .machine = p->machine, .accel = p->accel, .cpus = p->cpus,
		.mem = PROBE_MEM,
	};
	struct vm_argv av;
	bool timed_out;
	pid_t pid;
	int err, status;

	snprintf(firmware, sizeof(firmware), "%s/firmware", dir);
	snprintf(log, sizeof(log), "%s/qemu.log", dir);
	err = vm_probe_argv(&b, firmware, &av);
	if (err) {
		snprintf(why, len, "%s", err == -EOPNOTSUPP ? "no stub guest for this machine" :
			 "qemu's command line is too long");
		return err;
	}
	err = write_firmware(firmware);
	if (err) {
		snprintf(why, len, "cannot write %s: %s", firmware, strerror(-err));
		return err;
	}
	/* a group of its own: a Ctrl-C at the terminal is not a verdict on KVM */
	err = spawn((const char *const *)av.argv, &(struct spawn_opts){ .log = log,
			.own_group = true, .keep = true, .file_max = PROBE_LOG_MAX }, &pid);
	if (err) {
		snprintf(why, len, "cannot start %s: %s", p->qemu, strerror(-err));
		return err;
	}
	status = spawn_wait_timed(pid, p->timeout_ms, &timed_out);
	if (status == VM_PROBE_EXIT_STATUS && !timed_out)
		return 0;
	if (timed_out)
		snprintf(why, len, "no answer in %g s", p->timeout_ms / 1000.0);
	else if (status < 0)
		snprintf(why, len, "cannot wait for %s: %s", p->qemu, strerror(-status));
	else
		describe_end(log, status, why, len);
	return -ENODEV;
}

int vm_probe_run(const struct vm_probe *p, char *why, size_t len)
{
	char dir[64];
	int err;

	err = scratch_make(dir, sizeof(dir), "kvm");
	if (err) {
		snprintf(why, len, "mkdtemp: %s", strerror(-err));
		return err;
	}
	err = spawn_probe(p, dir, why, len);
	scratch_remove(dir);	/* the stub's firmware and qemu's log */
	return err;
}

/* The probe, as this host runs it: /dev/kvm first (cheap and clear), then the stub guest. */
static int probe_host(const struct kernel_axis *ka, char *why, size_t len)
{
	struct vm_probe p = { .accel = VM_ACCEL_KVM, .cpus = ka->cpus,
			      .timeout_ms = VM_PROBE_TIMEOUT_MS };
	char qemu[PATH_MAX];
	struct utsname u;
	int fd, err;

	uname(&u);
	p.machine = u.machine;
	p.qemu = getenv(VM_PROBE_ENV);
	if (!p.qemu) {
		fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, len, "/dev/kvm: %s", strerror(errno));
			return -errno;
		}
		close(fd);
		if (vm_qemu_path(u.machine, qemu, sizeof(qemu), why, len))
			return -ENOENT;
		p.qemu = qemu;
	}
	err = vm_probe_run(&p, why, len);
	/* arm64: no stub guest yet, so /dev/kvm that opens is all there is to go by */
	return err == -EOPNOTSUPP ? 0 : err;
}

void vm_pick_accel_forget(void)
{
	verdict.done = false;
}

int vm_pick_accel(const struct kernel_axis *ka, struct vm_accel_pick *pick, char *why,
		  size_t len)
{
	*pick = (struct vm_accel_pick){ .accel = VM_ACCEL_TCG };
	/* emulation asked for: no KVM to prove */
	if (ka->accel == VM_ACCEL_TCG || ka->accel == VM_ACCEL_TCG_ICOUNT) {
		pick->accel = ka->accel;
		return 0;
	}
	if (!verdict.done) {
		verdict.err = probe_host(ka, verdict.why, sizeof(verdict.why));
		verdict.done = true;
		if (verdict.err && ka->accel == VM_ACCEL_AUTO)
			diag_warn("vm_accel = auto: KVM cannot run a guest here (%s): the VM runs "
				  "under TCG, emulated, for function, not performance "
				  "(vm_accel = tcg skips this check)", verdict.why);
	}
	if (!verdict.err) {
		pick->accel = VM_ACCEL_KVM;
		return 0;
	}
	if (ka->accel == VM_ACCEL_AUTO) {
		snprintf(pick->refused, sizeof(pick->refused), "kvm refused: %s", verdict.why);
		return 0;
	}
	snprintf(why, len, "vm_accel = kvm: KVM cannot run a guest here (%s); vm_accel=tcg "
		 "runs it emulated, slowly", verdict.why);
	return -ENODEV;
}
