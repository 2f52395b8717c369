// SPDX-License-Identifier: GPL-2.0
/* A sweep's kernels, and their one text form: see kernellist.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kconfig.h"
#include "kernellist.h"
#include "vm_cmdline.h"

bool kernel_is_host(const char *value)
{
	return !strcmp(value, KERNEL_HOST);
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

/* Is value one of kl's already? */
static bool listed(const struct kernel_list *kl, const char *value)
{
	for (int i = 0; i < kl->nr; i++)
		if (!strcmp(kl->vals[i], value))
			return true;
	return false;
}

/* Why value cannot join kl, or 0. */
static int refused(const struct kernel_list *kl, const char *value, char *why, size_t whylen)
{
	char path[4096];

	if (listed(kl, value)) {
		snprintf(why, whylen, "kernel '%s' is listed twice", value);
		return -EEXIST;
	}
	if (kl->nr == MAX_KERNELS) {
		snprintf(why, whylen, "too many kernels (at most %d)", MAX_KERNELS);
		return -E2BIG;
	}
	return kernel_is_host(value) ? 0 : kernel_image(value, path, sizeof(path), why, whylen);
}

int kernel_list_add(struct kernel_list *kl, const char *value, size_t len, const struct loc *at,
		    char *why, size_t whylen)
{
	char *v = strndup(value, len);
	int err = v ? refused(kl, v, why, whylen) : -ENOMEM;

	if (err == -ENOMEM)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	if (err) {
		free(v);
		return err;
	}
	kl->locs[kl->nr] = *at;
	kl->vals[kl->nr++] = v;
	return 0;
}

/* "host build/base/bzImage build/patched": whitespace separates the values. */
int kernel_list_parse(struct kernel_list *kl, const char *text, const struct loc *at)
{
	const char *p = text;
	char why[4400];
	int err = 0;

	kernel_list_free(kl);
	if (!*text) {
		diag_at(at, "kernel needs a value: host, a kernel image or a build tree");
		return -EINVAL;
	}
	while (*p) {
		const char *start;
		struct loc where;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		where = loc_plus(at, start - text);
		if (kernel_list_add(kl, start, p - start, &where, why, sizeof(why))) {
			diag_at(&where, "%s", why);
			err = -EINVAL;
		}
	}
	return err;
}

int kernel_list_from_words(struct kernel_list *kl, const char *const *words, int nr,
			   const char *opt)
{
	const struct loc at = { .file = opt, .line = 1, .col = 1 };
	char why[4400];
	int err = 0;

	for (int i = 0; i < nr && !err; i++) {
		/* the text form separates by spaces: a value cannot hold one */
		if (strpbrk(words[i], " \t\n") || !words[i][0]) {
			diag_err("%s '%s': a kernel path cannot be empty or hold spaces", opt,
				 words[i]);
			return -EINVAL;
		}
		err = kernel_list_add(kl, words[i], strlen(words[i]), &at, why, sizeof(why));
		if (err)
			diag_err("%s: %s", opt, why);
	}
	return err;
}

int kernel_list_print(const struct kernel_list *kl, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (int k = 0; k < kl->nr; k++) {
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s", k ? " " : "",
				kl->vals[k]);
		if (off >= len)
			return -E2BIG;
	}
	return 0;
}

int kernel_list_set_spec(const struct kernel_list *kl, struct spec *spec)
{
	static const char key[] = "kernel=";
	char assign[sizeof(key) + KERNEL_LIST_TEXT_MAX];

	memcpy(assign, key, sizeof(key));
	if (kernel_list_print(kl, assign + sizeof(key) - 1, KERNEL_LIST_TEXT_MAX))
		return -E2BIG;
	return spec_set(spec, assign);
}

bool kernel_list_has_vm(const struct kernel_list *kl)
{
	for (int i = 0; i < kl->nr; i++)
		if (!kernel_is_host(kl->vals[i]))
			return true;
	return false;
}

void kernel_list_free(struct kernel_list *kl)
{
	for (int i = 0; i < kl->nr; i++)
		free(kl->vals[i]);
	kl->nr = 0;
}
