// SPDX-License-Identifier: GPL-2.0
/* The kernel axis and the VM settings of [sweep]: see kernels.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bindval.h"
#include "kconfig.h"
#include "kernels.h"
#include "param.h"
#include "vm_cmdline.h"

#define NSEC_PER_SEC	1000000000ULL

const char *const vm_accel_names[] = { "auto", "kvm", "tcg", "tcg-icount", NULL };

static const struct param_def accel_def = {
	.name = "vm_accel", .type = PT_ENUM, .def = "auto", .choices = vm_accel_names,
};
static const struct param_def cpus_def = {
	.name = "vm_cpus", .type = PT_INT, .def = "2", .min = 1, .max = 256,
};
/* below 256 MiB a distribution kernel and bpfsweep's maps do not fit */
static const struct param_def mem_def = {
	.name = "vm_mem", .type = PT_SIZE, .def = "2G", .min = 256LL << 20, .max = 1LL << 40,
};

/* a port of 127.0.0.1 here forwarded to the guest's port 22; 0: the guest has no NIC */
static const struct param_def ssh_port_def = {
	.name = "vm_ssh_port", .type = PT_INT, .def = "0", .min = 0, .max = 65535,
};

void kernel_axis_init(struct kernel_axis *ka)
{
	*ka = (struct kernel_axis){
		.accel = VM_ACCEL_AUTO, .cpus = 2, .mem = 2LL << 30,
		.boot_timeout_ns = 120 * NSEC_PER_SEC,
	};
}

void kernel_axis_free(struct kernel_axis *ka)
{
	kernel_list_free(&ka->list);
}

bool kernel_axis_has_vm(const struct kernel_axis *ka)
{
	return kernel_list_has_vm(&ka->list);
}

/* Where a kernel build tree keeps the image qemu boots, for this machine. */
static const char *tree_image(void)
{
	struct utsname u;

	if (uname(&u) || strcmp(u.machine, "aarch64"))
		return "arch/x86/boot/bzImage";
	return "arch/arm64/boot/Image";
}

/*
 * qemu boots an x86 kernel from its bzImage: the boot protocol's "HdrS"
 * at 0x202 tells one from a vmlinux, a module or a mistyped file, which
 * qemu would otherwise sit on until the boot timeout.
 */
static int check_bzimage(const char *path, char *why, size_t whylen)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, magic, sizeof(magic), 0x202);

	if (fd >= 0)
		close(fd);
	if (n == sizeof(magic) && !memcmp(magic, "HdrS", 4))
		return 0;
	if (fd < 0) {
		snprintf(why, whylen, "kernel image %s: %s", path, strerror(errno));
		return -errno;
	}
	snprintf(why, whylen, "%s is not a bootable x86 kernel image (no bzImage header; "
		 "give arch/x86/boot/bzImage or /boot/vmlinuz-*, not vmlinux)", path);
	return -ENOEXEC;
}

/*
 * The image's config, where one can be found beside it (a build tree's
 * .config, Debian's config-<ver>): a guest without virtiofs or the BPF
 * syscall built in is refused before it boots.  Without a config the boot
 * itself tells, through the console.
 */
static int check_config(const char *image, char *why, size_t whylen)
{
	char path[4096], missing[512], initrd[4096];
	struct kconfig *kc;
	int nr;

	if (kconfig_for_image(image, path, sizeof(path)) || kconfig_open(path, &kc))
		return 0;
	vm_image_initrd(image, initrd, sizeof(initrd));
	nr = kconfig_guest_missing(kc, initrd[0], missing, sizeof(missing));
	kconfig_free(kc);
	if (!nr)
		return 0;
	snprintf(why, whylen, "%s cannot boot as a bpfsweep guest: %s lacks %s (docs/kernel.md)",
		 image, path, missing);
	return -ENOEXEC;
}

static int check_image(const char *path, char *why, size_t whylen)
{
	struct utsname u;
	int err = 0;

	if (!uname(&u) && !strcmp(u.machine, "x86_64"))
		err = check_bzimage(path, why, whylen);
	return err ?: check_config(path, why, whylen);
}

int kernel_image(const char *value, char *path, size_t len, char *why, size_t whylen)
{
	struct stat st;

	if (stat(value, &st)) {
		snprintf(why, whylen, "kernel image %s: %s", value, strerror(errno));
		return -errno;
	}
	if (S_ISREG(st.st_mode)) {
		snprintf(path, len, "%s", value);
		return check_image(path, why, whylen);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "kernel image %s: not a file or a build tree", value);
		return -EINVAL;
	}
	snprintf(path, len, "%s/%s", value, tree_image());
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return check_image(path, why, whylen);
	snprintf(why, whylen, "kernel build tree %s has no %s (build it first: make bzImage)",
		 value, tree_image());
	return -ENOENT;
}

int kernel_axis_bind(struct kernel_axis *ka, enum sweep_key key, const struct spec_entry *e)
{
	char err[256];
	long long v;

	switch (key) {
	case SK_KERNEL:
		/* a later key replaces: --kernel's is a --set's */
		kernel_list_parse(&ka->list, e->value, &e->val_loc);
		return 1;
	case SK_VM_ACCEL:
		v = ka->accel;
		bind_scalar(&accel_def, e, &v);
		ka->accel = v;
		return 1;
	case SK_VM_CPUS:
		v = ka->cpus;
		bind_scalar(&cpus_def, e, &v);
		ka->cpus = v;
		ka->cpus_loc = e->val_loc;
		return 1;
	case SK_VM_MEM:
		bind_scalar(&mem_def, e, &ka->mem);
		return 1;
	case SK_VM_BOOT_TIMEOUT:
		if (parse_duration(e->value, &ka->boot_timeout_ns, err, sizeof(err)))
			diag_at(&e->val_loc, "%s", err);
		else if (ka->boot_timeout_ns < NSEC_PER_SEC)
			diag_at(&e->val_loc, "vm_boot_timeout below 1s: no kernel boots that fast");
		return 1;
	case SK_VM_SSH_PORT:
		v = ka->ssh_port;
		bind_scalar(&ssh_port_def, e, &v);
		ka->ssh_port = v;
		return 1;
	default:
		return 0;
	}
}

/*
 * qemu's instruction counter runs one vCPU: a guest of -smp 2 under
 * -icount did not finish booting in 300 s here.  vm_cpus left at its
 * default becomes 1; a vm_cpus above 1 that was asked for is refused at
 * its value rather than quietly not given.
 */
int kernel_axis_check(struct kernel_axis *ka)
{
	if (ka->accel != VM_ACCEL_TCG_ICOUNT || ka->cpus == 1)
		return 0;
	if (!ka->cpus_loc.file) {
		ka->cpus = 1;
		return 0;
	}
	diag_at(&ka->cpus_loc, "vm_cpus = %d with vm_accel = tcg-icount: qemu's instruction "
		"counter runs one vCPU (vm_cpus = 1, or leave it out)", ka->cpus);
	return -EINVAL;
}

static void section_init(struct sweep_cfg *cfg)
{
	kernel_axis_init(&cfg->kernels);
}

static int section_sweep_entry(struct sweep_cfg *cfg, int key, const struct spec_entry *e)
{
	return kernel_axis_bind(&cfg->kernels, key, e);
}

static int section_bind(const struct spec *s, struct sweep_cfg *cfg, bool declared)
{
	(void)s;
	(void)declared;
	return kernel_axis_check(&cfg->kernels);
}

static void section_free(struct sweep_cfg *cfg)
{
	kernel_axis_free(&cfg->kernels);
}

const struct section_binder kernel_section_binder = {
	.name = "kernel axis",
	.init = section_init,
	.sweep_entry = section_sweep_entry,
	.bind = section_bind,
	.free = section_free,
};
