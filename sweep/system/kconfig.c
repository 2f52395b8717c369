// SPDX-License-Identifier: GPL-2.0
/* A kernel's build configuration: see kconfig.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zlib.h>

#include "kconfig.h"
#include "vm_cmdline.h"

struct kconfig_opt {
	char *name;		/* "CONFIG_X" */
	char *value;
	int seq;		/* its place in the file: the last assignment wins */
};

struct kconfig {
	struct kconfig_opt *opts;	/* sorted by name */
	int nr, cap;
};

void kconfig_free(struct kconfig *kc)
{
	if (!kc)
		return;
	for (int i = 0; i < kc->nr; i++) {
		free(kc->opts[i].name);
		free(kc->opts[i].value);
	}
	free(kc->opts);
	free(kc);
}

static int add_option(struct kconfig *kc, const char *name, size_t name_len, const char *value)
{
	struct kconfig_opt *o;

	if (kc->nr == KCONFIG_MAX_OPTIONS)
		return -E2BIG;
	if (kc->nr == kc->cap) {
		int cap = kc->cap ? kc->cap * 2 : 1024;

		o = realloc(kc->opts, cap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		kc->opts = o;
		kc->cap = cap;
	}
	o = &kc->opts[kc->nr];
	o->name = strndup(name, name_len);
	o->value = strdup(value);
	o->seq = kc->nr;
	if (!o->name || !o->value) {
		free(o->name);
		free(o->value);
		return -ENOMEM;
	}
	kc->nr++;
	return 0;
}

/*
 * "CONFIG_X=value" sets X; comments ("# CONFIG_X is not set") and blank
 * lines set nothing, which is what "not set" means.
 */
static int parse_line(struct kconfig *kc, char *line)
{
	char *eq;

	line[strcspn(line, "\r\n")] = '\0';
	if (strncmp(line, "CONFIG_", 7))
		return 0;
	eq = strchr(line, '=');
	if (!eq || eq == line + 7)
		return 0;
	return add_option(kc, line, eq - line, eq + 1);
}

static int by_name(const void *a, const void *b)
{
	const struct kconfig_opt *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->seq - y->seq;
}

/*
 * Every line of in.  A line longer than the buffer is no option anyone
 * asks about (the longest real ones, command lines and key lists, fit):
 * its rest is skipped rather than read as lines of their own.
 */
static int parse_all(struct kconfig *kc, gzFile in)
{
	char line[4096];
	bool skipping = false;
	int err = 0, zerr;
	long nr = 0;

	while (!err && gzgets(in, line, sizeof(line))) {
		bool whole = strchr(line, '\n') || gzeof(in);

		if (++nr > KCONFIG_MAX_LINES)
			return -EFBIG;
		if (!skipping && whole)
			err = parse_line(kc, line);
		skipping = !whole;
	}
	if (!err && (gzerror(in, &zerr), zerr != Z_OK && zerr != Z_STREAM_END))
		err = zerr == Z_ERRNO ? -errno : -EIO;
	return err;
}

/* A regular file opened for zlib, which reads plain text as it is. */
static int open_regular(const char *path, gzFile *in)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO is refused below, not waited on */
	int err, fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	*in = gzdopen(fd, "r");
	if (!*in) {
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

int kconfig_open(const char *path, struct kconfig **out)
{
	struct kconfig *kc = calloc(1, sizeof(*kc));
	gzFile in = NULL;
	int err;

	*out = NULL;
	if (!kc)
		return -ENOMEM;
	err = open_regular(path, &in);
	if (err) {
		free(kc);
		return err;
	}
	err = parse_all(kc, in);
	gzclose(in);
	if (err) {
		kconfig_free(kc);
		return err;
	}
	if (kc->nr)
		qsort(kc->opts, kc->nr, sizeof(*kc->opts), by_name);
	*out = kc;
	return 0;
}

/* A later assignment of the same option wins, as in kconfig: the last of equal names. */
const char *kconfig_value(const struct kconfig *kc, const char *name)
{
	int lo = 0, hi = kc ? kc->nr : 0, found = -1;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(kc->opts[mid].name, name);

		if (c <= 0) {
			found = c ? found : mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return found < 0 ? NULL : kc->opts[found].value;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int kconfig_host_path(char *buf, size_t len)
{
	struct utsname u;
	char paths[3][PATH_MAX];

	if (uname(&u))
		return -errno;
	snprintf(paths[0], sizeof(paths[0]), "/proc/config.gz");
	snprintf(paths[1], sizeof(paths[1]), "/boot/config-%s", u.release);
	snprintf(paths[2], sizeof(paths[2]), "/usr/lib/modules/%s/config", u.release);
	for (int i = 0; i < 3; i++) {
		if (is_file(paths[i]) && !access(paths[i], R_OK)) {
			snprintf(buf, len, "%s", paths[i]);
			return 0;
		}
	}
	return -ENOENT;
}

/* dir/name into buf when that is a regular file. */
static bool found_at(const char *dir, size_t dir_len, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%.*s/%s", (int)dir_len, dir, name) >= (int)sizeof(path))
		return false;
	if (!is_file(path))
		return false;
	snprintf(buf, len, "%s", path);
	return true;
}

/* The part of path before its last n components ("/t/arch/x86/boot/bzImage", 4: "/t"). */
static size_t up(const char *path, int n)
{
	size_t end = strlen(path);

	while (n-- > 0) {
		while (end > 0 && path[end - 1] != '/')
			end--;
		while (end > 1 && path[end - 1] == '/')
			end--;
	}
	return end;
}

/* Does the component of path ending at end (exclusive) equal name? */
static bool component_is(const char *path, size_t end, const char *name)
{
	size_t n = strlen(name);

	return end >= n && !strncmp(path + end - n, name, n) &&
		(end == n || path[end - n - 1] == '/');
}

/* <tree>/arch/<arch>/boot/<image> or <tree>/vmlinux: the tree's .config. */
static bool build_tree_config(const char *image, char *buf, size_t len)
{
	const char *base = strrchr(image, '/') + 1;	/* image is absolute */

	if (component_is(image, up(image, 1), "boot") &&
	    component_is(image, up(image, 3), "arch") &&
	    found_at(image, up(image, 4), ".config", buf, len))
		return true;
	return !strcmp(base, "vmlinux") && found_at(image, up(image, 1), ".config", buf, len);
}

int kconfig_for_image(const char *image, char *buf, size_t len)
{
	char real[PATH_MAX], name[PATH_MAX];
	const char *base, *ver;
	size_t dir;

	if (!realpath(image, real))
		return -errno;
	if (build_tree_config(real, buf, len))
		return 0;
	dir = up(real, 1);
	if (found_at(real, dir, "config", buf, len))
		return 0;
	base = strrchr(real, '/') + 1;	/* realpath is absolute */
	ver = strchr(base, '-');
	if (ver && ver[1] && (!strncmp(base, "vmlinuz-", 8) || !strncmp(base, "vmlinux-", 8))) {
		snprintf(name, sizeof(name), "config%s", ver);
		if (found_at(real, dir, name, buf, len))
			return 0;
	}
	return -ENOENT;
}

/*
 * What the guest cannot do without, built in; FUSE_FS is what VIRTIO_FS
 * depends on.  The first three mount the root: an initramfs may load them.
 */
static const char *const guest_needs[] = {
	"CONFIG_VIRTIO_PCI", "CONFIG_VIRTIO_FS", "CONFIG_FUSE_FS", "CONFIG_BPF_SYSCALL",
	"CONFIG_DEBUG_INFO_BTF", "CONFIG_SERIAL_8250", "CONFIG_SERIAL_8250_CONSOLE",
	"CONFIG_DEVTMPFS",
};
#define ROOT_NEEDS	3

int kconfig_guest_missing(const struct kconfig *kc, bool initrd, char *missing, size_t len)
{
	size_t n = 0;
	int nr = 0;

	missing[0] = '\0';
	for (size_t i = 0; i < sizeof(guest_needs) / sizeof(guest_needs[0]); i++) {
		const char *v = kconfig_value(kc, guest_needs[i]);
		bool module = v && !strcmp(v, "m");

		if ((v && !strcmp(v, "y")) || (module && initrd && i < ROOT_NEEDS))
			continue;
		if (n < len)
			n += snprintf(missing + n, len - n, "%s%s%s", nr ? ", " : "",
				      guest_needs[i], module && i < ROOT_NEEDS ?
				      " (=m: a module, and no " VM_INITRD_NAME " beside the image "
				      "to load it)" : module ? " (=m: a module)" : "");
		nr++;
	}
	return nr;
}
