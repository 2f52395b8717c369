// SPDX-License-Identifier: GPL-2.0
/* qemu's and virtiofsd's command lines for a kernel under test: see vm_cmdline.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm_cmdline.h"

/* Append one argument, formatted; -E2BIG when out is full. */
static int add(struct vm_argv *out, const char *fmt, ...)
{
	size_t room = sizeof(out->store) - out->used;
	va_list ap;
	int n;

	if (out->argc == VM_MAX_ARGS)
		return -E2BIG;
	va_start(ap, fmt);
	n = vsnprintf(out->store + out->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return -E2BIG;
	out->argv[out->argc++] = out->store + out->used;
	out->argv[out->argc] = NULL;
	out->used += n + 1;
	return 0;
}

static int escape(const char *s, char *buf, size_t len, const char *with)
{
	size_t o = 0;

	for (; *s; s++) {
		const char *w = *s == ',' ? with : NULL;
		size_t need = w ? strlen(w) : 1;

		if (o + need >= len)
			return -E2BIG;
		if (w) {
			memcpy(buf + o, w, need);
		} else {
			buf[o] = *s;
		}
		o += need;
	}
	buf[o] = '\0';
	return 0;
}

int vm_qemu_escape(const char *s, char *buf, size_t len)
{
	return escape(s, buf, len, ",,");
}

int vm_fuse_escape(const char *s, char *buf, size_t len)
{
	char tmp[4096];
	size_t o = 0;

	/* a backslash is FUSE's escape character: escape it first */
	for (; *s; s++) {
		if (o + 2 >= sizeof(tmp))
			return -E2BIG;
		if (*s == '\\')
			tmp[o++] = '\\';
		tmp[o++] = *s;
	}
	tmp[o] = '\0';
	return escape(tmp, buf, len, "\\,");
}

/*
 * The kernel splits its command line at spaces and has no quoting for
 * init=: a path with a space or a control character cannot be passed.
 */
static int check_init(const char *init, char *why, size_t len)
{
	if (init[0] != '/') {
		snprintf(why, len, "the guest's init %s is not an absolute path", init);
		return -EINVAL;
	}
	for (const char *p = init; *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f) {
			snprintf(why, len, "bpfsweep's path %s has a space or control character; "
				 "the kernel command line cannot pass it as init=", init);
			return -EINVAL;
		}
	}
	return 0;
}

/* x86 has a legacy serial port; arm64's virt machine a PL011. */
static bool is_arm64(const struct vm_boot *b)
{
	return !strcmp(b->machine, "aarch64");
}

static int add_machine(const struct vm_boot *b, struct vm_argv *out)
{
	bool kvm = b->accel == VM_ACCEL_KVM;
	int err = 0;

	if (is_arm64(b))
		err = add(out, "-machine") ?: add(out, "virt");
	/*
	 * One host thread for all vCPUs under TCG: with thread=multi, the 7.3
	 * guest took int3 oopses in patched kernel text (sched_clock_cpu, a
	 * syscall tracepoint) in about 1 boot of 10 on a loaded 2-CPU host;
	 * with thread=single, none in 20.  Its figures are not for performance.
	 */
	err = err ?: add(out, "-accel") ?: add(out, kvm ? "kvm" : "tcg,thread=single");
	/*
	 * The guest's clock counts its instructions, 2^0 ns each, and skips
	 * idle time (sleep=off) rather than waiting for the host's: its rates
	 * are path length, unmoved by a busy host.  One vCPU only (kernels.c).
	 */
	if (b->accel == VM_ACCEL_TCG_ICOUNT)
		err = err ?: add(out, "-icount") ?: add(out, "shift=0,sleep=off");
	err = err ?: add(out, "-cpu") ?: add(out, kvm ? "host" : "max");
	err = err ?: add(out, "-smp") ?: add(out, "%d", b->cpus);
	/* vhost-user-fs needs the guest's memory shared with virtiofsd */
	err = err ?: add(out, "-m") ?: add(out, "%lldM", b->mem >> 20);
	err = err ?: add(out, "-object") ?:
	      add(out, "memory-backend-memfd,id=mem,size=%lldM,share=on", b->mem >> 20);
	return err ?: add(out, "-numa") ?: add(out, "node,memdev=mem");
}

/* qemu, no device nor window of its own, off when the guest reboots; the machine */
static int add_head(const struct vm_boot *b, struct vm_argv *out)
{
	return add(out, "%s", b->qemu) ?: add(out, "-nodefaults") ?: add(out, "-no-user-config") ?:
	       add(out, "-display") ?: add(out, "none") ?: add(out, "-no-reboot") ?:
	       add_machine(b, out);
}

static int add_fs(struct vm_argv *out, const char *id, const char *sock, const char *tag)
{
	char esc[4200];
	int err = vm_qemu_escape(sock, esc, sizeof(esc));

	err = err ?: add(out, "-chardev") ?: add(out, "socket,id=%s,path=%s", id, esc);
	return err ?: add(out, "-device") ?:
	       add(out, "vhost-user-fs-pci,chardev=%s,tag=%s", id, tag);
}

/*
 * qemu's user-mode network, restricted: the guest reaches neither this
 * machine nor beyond, and the one way in is the forward of 127.0.0.1:PORT
 * to its port 22 (its default address, 10.0.2.15), for an sshd the job
 * starts.  No option ROM: the guest boots from -kernel, not the network.
 */
static int add_net(const struct vm_boot *b, struct vm_argv *out)
{
	if (!b->ssh_port)
		return 0;
	return add(out, "-netdev") ?:
	       add(out, "user,id=net,restrict=on,hostfwd=tcp:127.0.0.1:%d-:22", b->ssh_port) ?:
	       add(out, "-device") ?: add(out, "virtio-net-pci,netdev=net,romfile=");
}

void vm_image_initrd(const char *image, char *buf, size_t len)
{
	const char *slash = strrchr(image, '/');
	int dir = slash ? (int)(slash - image) + 1 : 0;
	int n = snprintf(buf, len, "%.*s%s", dir, image, VM_INITRD_NAME);

	if (n < 0 || (size_t)n >= len || access(buf, R_OK))
		buf[0] = '\0';
}

/*
 * The gate: qemu's pipe chardev (it reads <gate>.in, writes <gate>.out)
 * as the second serial port, the guest's VM_GUEST_GATE.
 */
static int add_gate(const struct vm_boot *b, struct vm_argv *out, char *why, size_t len)
{
	char gate[4200];
	int err;

	/* the virt machine has one PL011: the gate would need a virtio console */
	if (is_arm64(b)) {
		snprintf(why, len, "rounds across kernels need a second serial port: x86_64 only");
		return -EOPNOTSUPP;
	}
	err = vm_qemu_escape(b->gate, gate, sizeof(gate));
	err = err ?: add(out, "-chardev") ?: add(out, "pipe,id=gate,path=%s", gate);
	return err ?: add(out, "-serial") ?: add(out, "chardev:gate");
}

int vm_qemu_argv(const struct vm_boot *b, struct vm_argv *out, char *why, size_t len)
{
	char console[4200];
	int err;

	out->argc = 0;
	out->used = 0;
	err = check_init(b->init, why, len);
	if (err)
		return err;
	err = vm_qemu_escape(b->console, console, sizeof(console));
	err = err ?: add_head(b, out);
	err = err ?: add(out, "-kernel") ?: add(out, "%s", b->image);
	if (b->initrd)
		err = err ?: add(out, "-initrd") ?: add(out, "%s", b->initrd);
	err = err ?: add(out, "-append") ?:
	      add(out, "console=%s rootfstype=virtiofs root=%s ro init=%s panic=-1 quiet",
		  is_arm64(b) ? "ttyAMA0" : "ttyS0", VM_ROOT_TAG, b->init);
	err = err ?: add_fs(out, "root", b->root_sock, VM_ROOT_TAG);
	err = err ?: add_fs(out, "out", b->out_sock, VM_OUT_TAG);
	err = err ?: add_net(b, out);
	err = err ?: add(out, "-chardev") ?: add(out, "file,id=con,path=%s", console);
	err = err ?: add(out, "-serial") ?: add(out, "chardev:con");
	if (!err && b->gate)
		err = add_gate(b, out, why, len);
	if (err && err != -EOPNOTSUPP)
		snprintf(why, len, "qemu's command line is too long");
	return err;
}

int vm_probe_argv(const struct vm_boot *b, const char *firmware, struct vm_argv *out)
{
	int err;

	out->argc = 0;
	out->used = 0;
	if (is_arm64(b))
		return -EOPNOTSUPP;
	err = add_head(b, out);
	err = err ?: add(out, "-bios") ?: add(out, "%s", firmware);
	return err ?: add(out, "-device") ?:
	       add(out, "isa-debug-exit,iobase=0x%x,iosize=0x04", VM_PROBE_EXIT_PORT);
}

int vm_virtiofsd_argv(const char *virtiofsd, const char *sock, const char *dir, bool writable,
		      struct vm_argv *out)
{
	char esc[4200];
	int err = vm_fuse_escape(dir, esc, sizeof(esc));

	out->argc = 0;
	out->used = 0;
	err = err ?: add(out, "%s", virtiofsd) ?: add(out, "--socket-path=%s", sock);
	err = err ?: add(out, "-o") ?: add(out, "source=%s", esc);
	/* the results must be on the host's disk when the guest says it wrote them */
	err = err ?: add(out, "-o") ?: add(out, writable ? "cache=none" : "cache=always");
	return err ?: add(out, "-o") ?: add(out, "sandbox=chroot");
}
