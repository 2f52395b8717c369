// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig.c: options read from plain and gzip'd configs written here, the
 * guest's needs, and the config found for an image in a temporary tree.
 */
#define _GNU_SOURCE		/* nftw() */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zlib.h>

#include "check.h"
#include "kconfig.h"

static const char fixture[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"#\n"
	"CONFIG_BPF_SYSCALL=y\n"
	"CONFIG_VIRTIO_FS=m\n"
	"CONFIG_HZ=250\n"
	"CONFIG_LSM=\"landlock,lockdown,bpf\"\n"
	"# CONFIG_KPROBES is not set\n"
	"CONFIG_BPF_JIT=m\n"
	"CONFIG_BPF_JIT=y\n"	/* a later assignment wins, as in kconfig */
	"CONFIG_=y\n"
	"CONFIG_NOEQ\n"
	"CONFIG_LAST=y";	/* no final newline */

static char dir[64];

/* A new empty directory for one test's files. */
static int fresh_dir(void)
{
	strcpy(dir, "/tmp/test_kconfig.XXXXXX");
	return mkdtemp(dir) ? 0 : -errno;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_dir(void)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *in_dir(const char *name, char *buf)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
	return buf;
}

static int write_plain(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int write_gzip(const char *path, const char *text, size_t len)
{
	gzFile f = gzopen(path, "wb");

	if (!f)
		return -1;
	if (gzwrite(f, text, len) != (int)len) {
		gzclose(f);
		return -1;
	}
	return gzclose(f) == Z_OK ? 0 : -1;
}

/* The fixture's options, as kconfig_open of path reads them. */
static void check_fixture(const char *path)
{
	struct kconfig *kc;

	CHECK_INT(kconfig_open(path, &kc), 0);
	CHECK_STR(kconfig_value(kc, "CONFIG_BPF_SYSCALL"), "y");
	CHECK_STR(kconfig_value(kc, "CONFIG_VIRTIO_FS"), "m");
	CHECK_STR(kconfig_value(kc, "CONFIG_HZ"), "250");
	CHECK_STR(kconfig_value(kc, "CONFIG_LSM"), "\"landlock,lockdown,bpf\"");
	CHECK_STR(kconfig_value(kc, "CONFIG_BPF_JIT"), "y");
	CHECK_STR(kconfig_value(kc, "CONFIG_LAST"), "y");
	CHECK(!kconfig_value(kc, "CONFIG_KPROBES"));	/* not set */
	CHECK(!kconfig_value(kc, "CONFIG_UPROBES"));	/* absent */
	CHECK(!kconfig_value(kc, "CONFIG_NOEQ"));
	CHECK(!kconfig_value(kc, "CONFIG_"));
	CHECK(!kconfig_value(kc, "BPF_SYSCALL"));	/* names are written in full */
	CHECK(!kconfig_value(kc, "CONFIG_BPF"));	/* no prefix match */
	kconfig_free(kc);
}

TEST(plain_text)
{
	char path[PATH_MAX];

	CHECK_INT(fresh_dir(), 0);

	CHECK_INT(write_plain(in_dir("config", path), fixture), 0);
	check_fixture(path);
	unlink(path);
	remove_dir();
}

TEST(gzip)
{
	char path[PATH_MAX];

	CHECK_INT(fresh_dir(), 0);

	CHECK_INT(write_gzip(in_dir("config.gz", path), fixture, strlen(fixture)), 0);
	check_fixture(path);
	unlink(path);
	remove_dir();
}

TEST(not_a_config)
{
	char path[PATH_MAX], gz[PATH_MAX];
	struct kconfig *kc = (struct kconfig *)1;
	FILE *f;
	long size;

	CHECK_INT(fresh_dir(), 0);

	CHECK_INT(kconfig_open(in_dir("absent", path), &kc), -ENOENT);
	CHECK(!kc);
	CHECK_INT(kconfig_open(dir, &kc), -EISDIR);
	CHECK_INT(kconfig_open("/dev/null", &kc), -EINVAL);
	CHECK(!mkfifo(in_dir("fifo", path), 0600));
	CHECK_INT(kconfig_open(path, &kc), -EINVAL);	/* refused, not waited on */
	/* a gzip stream cut short is an error, not a config with fewer options */
	CHECK_INT(write_gzip(in_dir("cut.gz", gz), fixture, strlen(fixture)), 0);
	f = fopen(gz, "r+");
	CHECK(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	CHECK(!ftruncate(fileno(f), size / 2));
	fclose(f);
	CHECK_INT(kconfig_open(gz, &kc), -EIO);
	unlink(gz);
	remove_dir();
}

/* Lines beyond any real config's (a gzip bomb of comments): refused, not read on. */
TEST(too_many_lines)
{
	char path[PATH_MAX], *text;
	size_t len = 2 * (KCONFIG_MAX_LINES + 1);
	struct kconfig *kc;

	CHECK_INT(fresh_dir(), 0);
	text = malloc(len + 1);
	CHECK(text);
	for (size_t i = 0; i < len; i += 2)
		memcpy(text + i, "#\n", 2);
	text[len] = '\0';
	CHECK_INT(write_gzip(in_dir("bomb.gz", path), text, len - 2), 0);	/* the limit */
	CHECK_INT(kconfig_open(path, &kc), 0);
	kconfig_free(kc);
	CHECK_INT(write_gzip(in_dir("bomb.gz", path), text, len), 0);	/* one line more */
	free(text);
	CHECK_INT(kconfig_open(path, &kc), -EFBIG);
	remove_dir();
}

/* The rest of an overlong line is not read as a line of its own. */
TEST(long_line_skipped)
{
	char path[PATH_MAX], *text = malloc(10000);
	struct kconfig *kc;
	size_t n;

	CHECK_INT(fresh_dir(), 0);

	CHECK(text);
	n = sprintf(text, "CONFIG_CMDLINE=\"");
	memset(text + n, 'a', 4095 - n);
	sprintf(text + 4095, "CONFIG_EVIL=y\"\nCONFIG_AFTER=y\n");
	CHECK_INT(write_plain(in_dir("long", path), text), 0);
	free(text);
	CHECK_INT(kconfig_open(path, &kc), 0);
	CHECK(!kconfig_value(kc, "CONFIG_EVIL"));
	CHECK(!kconfig_value(kc, "CONFIG_CMDLINE"));
	CHECK_STR(kconfig_value(kc, "CONFIG_AFTER"), "y");
	kconfig_free(kc);
	unlink(path);
	remove_dir();
}

static const char guest_ok[] =
	"CONFIG_VIRTIO_PCI=y\nCONFIG_VIRTIO_FS=y\nCONFIG_FUSE_FS=y\nCONFIG_BPF_SYSCALL=y\n"
	"CONFIG_DEBUG_INFO_BTF=y\nCONFIG_SERIAL_8250=y\nCONFIG_SERIAL_8250_CONSOLE=y\n"
	"CONFIG_DEVTMPFS=y\n";

static const char guest_bad[] =
	"CONFIG_VIRTIO_PCI=y\nCONFIG_VIRTIO_FS=m\nCONFIG_FUSE_FS=m\nCONFIG_BPF_SYSCALL=y\n"
	"# CONFIG_DEBUG_INFO_BTF is not set\nCONFIG_SERIAL_8250=y\n"
	"CONFIG_SERIAL_8250_CONSOLE=y\n";

/* the root's drivers as modules, and an option no initramfs loads */
static const char guest_modbpf[] =
	"CONFIG_VIRTIO_PCI=m\nCONFIG_VIRTIO_FS=m\nCONFIG_FUSE_FS=m\nCONFIG_BPF_SYSCALL=m\n"
	"CONFIG_DEBUG_INFO_BTF=y\nCONFIG_SERIAL_8250=y\nCONFIG_SERIAL_8250_CONSOLE=y\n"
	"CONFIG_DEVTMPFS=y\n";

static int guest_missing(const char *text, bool initrd, char *missing, size_t len)
{
	char path[PATH_MAX];
	struct kconfig *kc;
	int nr;

	if (write_plain(in_dir("guest", path), text) || kconfig_open(path, &kc))
		return -1;
	nr = kconfig_guest_missing(kc, initrd, missing, len);
	kconfig_free(kc);
	unlink(path);
	return nr;
}

TEST(guest_needs)
{
	char missing[512];

	CHECK_INT(fresh_dir(), 0);

	CHECK_INT(guest_missing(guest_ok, false, missing, sizeof(missing)), 0);
	CHECK_STR(missing, "");
	CHECK_INT(guest_missing(guest_bad, false, missing, sizeof(missing)), 4);
	CHECK_STR(missing, "CONFIG_VIRTIO_FS (=m: a module, and no initrd.cpio beside the image "
		  "to load it), CONFIG_FUSE_FS (=m: a module, and no initrd.cpio beside the "
		  "image to load it), CONFIG_DEBUG_INFO_BTF, CONFIG_DEVTMPFS");
	/* with an initramfs the root's drivers may be modules, nothing else */
	CHECK_INT(guest_missing(guest_bad, true, missing, sizeof(missing)), 2);
	CHECK_STR(missing, "CONFIG_DEBUG_INFO_BTF, CONFIG_DEVTMPFS");
	CHECK_INT(guest_missing(guest_modbpf, true, missing, sizeof(missing)), 1);
	CHECK_STR(missing, "CONFIG_BPF_SYSCALL (=m: a module)");
	/* a short buffer is cut, the count stays right */
	CHECK_INT(guest_missing(guest_bad, false, missing, 20), 4);
	CHECK_INT(strlen(missing), 19);
	remove_dir();
}

/* mkdir -p of the directories of rel under dir, then rel as a file. */
static int make_file(const char *rel)
{
	char path[PATH_MAX];

	in_dir(rel, path);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return write_plain(path, "x\n");
}

/* kconfig_for_image(dir/image) and the config it names, relative to dir. */
static int config_for(const char *image, char *rel, size_t len)
{
	char path[PATH_MAX], found[PATH_MAX];
	int err = kconfig_for_image(in_dir(image, path), found, sizeof(found));
	size_t n = strlen(dir);

	snprintf(rel, len, "%s", !err && !strncmp(found, dir, n) ? found + n + 1 : found);
	return err;
}

TEST(config_of_an_image)
{
	char rel[PATH_MAX], path[PATH_MAX], target[PATH_MAX];

	CHECK_INT(fresh_dir(), 0);

	if (strcmp(realpath(dir, path) ? path : "", dir))
		SKIP("the temporary directory is behind a symbolic link");
	CHECK(!make_file("tree/arch/x86/boot/bzImage") && !make_file("tree/.config"));
	CHECK(!make_file("tree/vmlinux"));
	CHECK_INT(config_for("tree/arch/x86/boot/bzImage", rel, sizeof(rel)), 0);
	CHECK_STR(rel, "tree/.config");
	CHECK_INT(config_for("tree/vmlinux", rel, sizeof(rel)), 0);
	CHECK_STR(rel, "tree/.config");

	CHECK(!make_file("deb/usr/lib/modules/7.3.4-cloud-amd64/vmlinuz"));
	CHECK(!make_file("deb/usr/lib/modules/7.3.4-cloud-amd64/config"));
	CHECK_INT(config_for("deb/usr/lib/modules/7.3.4-cloud-amd64/vmlinuz", rel, sizeof(rel)), 0);
	CHECK_STR(rel, "deb/usr/lib/modules/7.3.4-cloud-amd64/config");

	CHECK(!make_file("boot/vmlinuz-6.1.0-13-amd64"));
	CHECK(!make_file("boot/config-6.1.0-13-amd64"));
	CHECK(!make_file("boot/vmlinuz-6.2") && !make_file("boot/config-6.1"));
	CHECK(!symlink("vmlinuz-6.1.0-13-amd64", in_dir("boot/vmlinuz", target)));
	CHECK_INT(config_for("boot/vmlinuz-6.1.0-13-amd64", rel, sizeof(rel)), 0);
	CHECK_STR(rel, "boot/config-6.1.0-13-amd64");
	CHECK_INT(config_for("boot/vmlinuz", rel, sizeof(rel)), 0);	/* the link's target */
	CHECK_STR(rel, "boot/config-6.1.0-13-amd64");
	CHECK_INT(config_for("boot/vmlinuz-6.2", rel, sizeof(rel)), -ENOENT);

	/* an image in arch/x86/boot of something that is no tree, or with no .config */
	CHECK(!make_file("bare/arch/x86/boot/bzImage"));
	CHECK_INT(config_for("bare/arch/x86/boot/bzImage", rel, sizeof(rel)), -ENOENT);
	CHECK(!make_file("other/x86/boot/bzImage") && !make_file("other/.config"));
	CHECK_INT(config_for("other/x86/boot/bzImage", rel, sizeof(rel)), -ENOENT);
	CHECK_INT(config_for("absent/bzImage", rel, sizeof(rel)), -ENOENT);
	remove_dir();
}

/* This machine's config, if it has one, is one of the three places and reads. */
TEST(host_config)
{
	char path[PATH_MAX], boot[PATH_MAX], mod[PATH_MAX];
	struct kconfig *kc;
	struct utsname u;
	int err = kconfig_host_path(path, sizeof(path));

	CHECK(!uname(&u));
	if (err == -ENOENT)
		SKIP("this kernel's config is nowhere to be read");
	CHECK_INT(err, 0);
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	snprintf(mod, sizeof(mod), "/usr/lib/modules/%s/config", u.release);
	CHECK(!strcmp(path, "/proc/config.gz") || !strcmp(path, boot) || !strcmp(path, mod));
	CHECK_INT(kconfig_open(path, &kc), 0);
	kconfig_free(kc);
}

RUN_TESTS(plain_text, gzip, not_a_config, too_many_lines, long_line_skipped, guest_needs, config_of_an_image,
	  host_config)
