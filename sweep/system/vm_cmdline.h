/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command lines that boot a kernel under test: qemu, and the two
 * virtiofsd daemons that export the host's root (read-only in the guest)
 * and the directory the guest writes its results to, and the initramfs
 * beside an image.  String work and one access(), so that it is unit
 * tested without qemu (docs/kernel.md).
 */
#ifndef SWEEP_VM_CMDLINE_H
#define SWEEP_VM_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define VM_ROOT_TAG	"bpfsweep-root"
#define VM_OUT_TAG	"bpfsweep-out"
#define VM_GUEST_DIR	"/run/bpfsweep"		/* where the guest mounts VM_OUT_TAG */

/* the guest's end of a gate (gate.h): a second serial port, x86's legacy UART */
#define VM_GUEST_GATE	"/dev/ttyS1"

#define VM_INITRD_NAME	"initrd.cpio"	/* beside the image: vm_image_initrd() */

#define VM_MAX_ARGS	48

/* An argv and the strings it points to. */
struct vm_argv {
	char *argv[VM_MAX_ARGS + 1];	/* NULL-terminated */
	int argc;
	char store[16384];
	size_t used;
};

struct vm_boot {
	const char *qemu;		/* qemu-system-x86_64 */
	const char *machine;		/* uname -m of the host: x86_64, aarch64 */
	const char *image;		/* bzImage to boot */
	const char *initrd;		/* its initramfs (vm_image_initrd()); NULL: none */
	enum vm_accel accel;		/* kvm, tcg or tcg-icount (auto resolved before) */
	int cpus;
	long long mem;			/* bytes */
	const char *init;		/* absolute path of the guest's PID 1 */
	const char *root_sock;		/* virtiofsd sockets */
	const char *out_sock;
	const char *console;		/* file the serial console goes to */
	int ssh_port;			/* a NIC whose port 22 is 127.0.0.1:ssh_port; 0: none */
	const char *gate;		/* a FIFO pair (gate.h) as VM_GUEST_GATE; NULL: none */
};

/*
 * qemu's argv for b.  -EINVAL with why when a path cannot be passed
 * (an init path with spaces or control characters breaks the kernel's
 * command line), -E2BIG when it does not fit.
 */
/*
 * The initramfs an image boots with: initrd.cpio in the image's directory,
 * what scripts/vm-kernel.sh packs for a kernel whose virtio or virtiofs
 * drivers are modules (6.1).  Into buf when it is there, else "".
 */
void vm_image_initrd(const char *image, char *buf, size_t len);

int vm_qemu_argv(const struct vm_boot *b, struct vm_argv *out, char *why, size_t len);

/*
 * The KVM probe's stub guest (vm_probe.c): its firmware writes
 * VM_PROBE_EXIT_VALUE to the isa-debug-exit port, and qemu exits with
 * VM_PROBE_EXIT_STATUS, (value << 1) | 1, once a vCPU really ran guest code.
 */
#define VM_PROBE_EXIT_PORT	0xf4
#define VM_PROBE_EXIT_VALUE	0x31
#define VM_PROBE_EXIT_STATUS	(VM_PROBE_EXIT_VALUE << 1 | 1)

/*
 * qemu's argv for the probe: b's machine, accelerator, CPUs and memory
 * (b->image, init, sockets and console unused), booting firmware (the
 * stub) with the isa-debug-exit device.  -EOPNOTSUPP on arm64 (no stub
 * for it), -E2BIG when it does not fit.
 */
int vm_probe_argv(const struct vm_boot *b, const char *firmware, struct vm_argv *out);

/* virtiofsd's argv: export dir on sock (cache off for the writable one). */
int vm_virtiofsd_argv(const char *virtiofsd, const char *sock, const char *dir, bool writable,
		      struct vm_argv *out);

/* "a,b" as a qemu option value ("a,,b"): commas separate qemu's suboptions. */
int vm_qemu_escape(const char *s, char *buf, size_t len);

/* "a,b" as a FUSE -o value ("a\,b"): commas separate FUSE's options. */
int vm_fuse_escape(const char *s, char *buf, size_t len);

#endif
