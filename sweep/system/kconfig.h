/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's build configuration (the .config text, plain or gzip'd as in
 * /proc/config.gz): which options a kernel has decides what bpfsweep can
 * run there, and whether an image can boot as a bpfsweep guest.
 */
#ifndef SWEEP_KCONFIG_H
#define SWEEP_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct kconfig;

/* The most options a config may set, and lines it may have: a real one has about 12000. */
#define KCONFIG_MAX_OPTIONS	200000
#define KCONFIG_MAX_LINES	2000000

/*
 * Read the config at path (plain text or gzip).  Returns 0 or -errno:
 * -EISDIR or -EINVAL for what is not a regular file, -E2BIG beyond
 * KCONFIG_MAX_OPTIONS, -EFBIG beyond KCONFIG_MAX_LINES, -EIO for a damaged
 * gzip stream.
 */
int kconfig_open(const char *path, struct kconfig **out);
void kconfig_free(struct kconfig *kc);

/*
 * The value of option name ("CONFIG_BPF_JIT") as the file writes it: "y",
 * "m", "250", "\"lockdown,bpf\"" (a string keeps its quotes); NULL when
 * it is "not set" or not there at all (kconfig treats both as n).
 */
const char *kconfig_value(const struct kconfig *kc, const char *name);

/*
 * The running kernel's config: /proc/config.gz, else
 * /boot/config-$(uname -r), else /usr/lib/modules/$(uname -r)/config.
 * 0 with the path in buf, or -ENOENT when none is readable.
 */
int kconfig_host_path(char *buf, size_t len);

/*
 * The config that belongs to a kernel image, into buf: a build tree's
 * .config (image <tree>/arch/<arch>/boot/bzImage or <tree>/vmlinux), a
 * "config" beside it (Debian's usr/lib/modules/<ver>/vmlinuz), or
 * config-<ver> beside vmlinuz-<ver> (/boot).  Symbolic links are followed
 * first (/boot/vmlinuz → vmlinuz-<ver>).  0, -ENOENT when there is none,
 * or -errno when image itself cannot be found.
 */
int kconfig_for_image(const char *image, char *buf, size_t len);

/*
 * What a bpfsweep guest needs built in (root on virtiofs, console on the
 * serial port, BPF) and kc lacks, into missing: "CONFIG_VIRTIO_FS (=m: a
 * module, and no initrd.cpio beside the image to load it),
 * CONFIG_DEBUG_INFO_BTF".  With initrd (the image has an initramfs,
 * vm_image_initrd()) the root's drivers may be modules: it loads them.
 * Returns how many options are missing (0: it can boot), "" in missing then.
 */
int kconfig_guest_missing(const struct kconfig *kc, bool initrd, char *missing, size_t len);

#endif
