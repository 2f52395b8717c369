// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the initramfs that scripts/vm-kernel.sh packs for a kernel
 * whose virtio or virtiofs drivers are modules (Debian's 6.1): it loads
 * the modules /modules/load names, in that order (what each depends on
 * comes before it), mounts the virtiofs root the kernel command line
 * names (root=TAG rootfstype=virtiofs ro) and executes that root's init=
 * (bpfsweep, docs/kernel.md), as the kernel would have done itself with
 * the drivers built in.  Built with gcc -static: the initramfs holds this
 * program and the modules, no libc, no shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LOAD_LIST	"/modules/load"
#define NEW_ROOT	"/root"
/* virtio devices probe as their driver registers; a short grace for a late one */
#define MOUNT_TRIES	50
#define MOUNT_WAIT_NS	100000000L

struct boot_args {
	char cmdline[4096];
	const char *root, *fstype, *init;
	unsigned long flags;
};

static int fail(const char *what, const char *name, int err)
{
	fprintf(stderr, "bpfsweep initramfs: %s %s: %s\n", what, name, strerror(err));
	return 1;
}

/* insmod: finit_module on the file; one already loaded (built in) is fine. */
static int load_module(const char *name)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/modules/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("cannot open", path, errno);
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		err = fail("cannot load", path, errno);
	close(fd);
	return err;
}

/* Every module of LOAD_LIST, one file name a line; the count in *nr. */
static int load_modules(int *nr)
{
	FILE *f = fopen(LOAD_LIST, "re");
	char line[256];
	int err = 0;

	if (!f)
		return fail("cannot open", LOAD_LIST, errno);
	*nr = 0;
	while (!err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		err = load_module(line);
		*nr += !err;
	}
	fclose(f);
	return err;
}

/* root=, rootfstype=, init= and ro/rw of /proc/cmdline, as the kernel reads them. */
static int read_cmdline(struct boot_args *a)
{
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, a->cmdline, sizeof(a->cmdline) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return fail("cannot read", "/proc/cmdline", errno);
	a->cmdline[n] = '\0';
	a->fstype = "virtiofs";
	for (char *save, *w = strtok_r(a->cmdline, " \n", &save); w;
	     w = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(w, "root=", 5))
			a->root = w + 5;
		else if (!strncmp(w, "rootfstype=", 11))
			a->fstype = w + 11;
		else if (!strncmp(w, "init=", 5))
			a->init = w + 5;
		else if (!strcmp(w, "ro"))
			a->flags |= MS_RDONLY;
		else if (!strcmp(w, "rw"))
			a->flags &= ~MS_RDONLY;
	}
	if (!a->root || !a->init)
		return fail("no root= or init= in", "/proc/cmdline", EINVAL);
	return 0;
}

static int mount_root(const struct boot_args *a)
{
	struct timespec wait = { 0, MOUNT_WAIT_NS };
	int tries = 0;

	mkdir(NEW_ROOT, 0755);
	while (mount(a->root, NEW_ROOT, a->fstype, a->flags, NULL)) {
		if (++tries == MOUNT_TRIES)
			return fail("cannot mount the root", a->root, errno);
		nanosleep(&wait, NULL);
	}
	return 0;
}

/* The new root in place of the initramfs: chdir, move, chroot (switch_root without the cleanup). */
static int switch_root(void)
{
	if (chdir(NEW_ROOT) || mount(".", "/", NULL, MS_MOVE, NULL) || chroot(".") || chdir("/"))
		return fail("cannot switch to", NEW_ROOT, errno);
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	struct boot_args a = { 0 };
	int nr = 0;

	(void)argc;
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL))
		return fail("cannot mount", "/proc", errno);
	if (load_modules(&nr) || read_cmdline(&a) || umount("/proc") || mount_root(&a))
		return 1;
	fprintf(stderr, "bpfsweep initramfs: %d modules loaded, %s mounted, exec %s\n", nr,
		a.root, a.init);
	if (switch_root())
		return 1;
	/* the kernel's arguments for init (argv, envp) go on to the real one */
	argv[0] = (char *)a.init;
	execve(a.init, argv, envp);
	return fail("cannot execute", a.init, errno);
}
