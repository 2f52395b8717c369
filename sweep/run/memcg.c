// SPDX-License-Identifier: GPL-2.0
/*
 * The memory cgroup of one repetition; see memcg.h.
 *
 * Where the cgroup goes:
 * - v1: a child of the memory cgroup this process is in, so that the
 *   limits above it still hold.  v1 does not move charges with a process
 *   (memory.move_charge_at_immigrate is 0 unless someone set it), so the
 *   new cgroup starts near zero and sees only what is charged after the
 *   move: the maps the workload's setup creates.
 * - v2: a process may not sit in a cgroup whose children have controllers
 *   ("no internal processes"), so never a child of our own cgroup unless
 *   that is the root.  A sibling (a child of our parent) when our own
 *   cgroup has the memory controller, since the parent then enables it
 *   for its children; else a child of the root, after enabling memory in
 *   the root's subtree_control if needed.  That setting is left as it is
 *   afterwards: other cgroups may have come to rely on it meanwhile.
 *
 * Everything here runs on the sampler thread, before the workers exist
 * or after they were joined; the process moves as a whole (cgroup.procs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "memcg.h"
#include "textfile.h"

#define MKDIR_TRIES	16

struct memcg {
	bool v2;
	char dir[PATH_MAX];	/* the cgroup we made */
	char home[PATH_MAX];	/* the cgroup this process was in */
	/*
	 * v2: memory.peak opened for writing once memcg_reset_peak() reset
	 * it, since a reset holds only for reads through that descriptor;
	 * -1 before.
	 */
	int peak_fd;
};

/* Distinguishes the cgroups of one process (one per repetition). */
static unsigned int memcg_seq;

/* Does the cgroup file dir/name list the memory controller? */
static bool lists_memory(const char *dir, const char *name)
{
	char path[PATH_MAX + 32], *text;
	bool yes;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_text_file(path, &text))
		return false;
	yes = cgroup_has_word(text, "memory", " \n");
	free(text);
	return yes;
}

static int read_u64(const char *dir, const char *name, uint64_t *v)
{
	char path[PATH_MAX + 32], buf[32], *end;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = read_small_file(path, buf, sizeof(buf));
	if (n <= 0)
		return n ? n : -ENODATA;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf || (*end && *end != '\n') ? -EINVAL : 0;
}

/* Write this process (all its threads) into the cgroup at dir. */
static int enter(const char *dir)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%d", getpid());
	return cgroup_write(dir, "cgroup.procs", pid);
}

/* A "no memory cgroup controller" error for the v2 parent dir, or 0. */
static int v2_enable(const char *dir, char *why, size_t whylen)
{
	int err;

	if (lists_memory(dir, "cgroup.subtree_control"))
		return 0;
	err = cgroup_write(dir, "cgroup.subtree_control", "+memory");
	if (err)
		snprintf(why, whylen, "no memory cgroup controller: enabling it in %s/cgroup.subtree_control: %s",
			 dir, strerror(-err));
	return err;
}

/*
 * v2 with the memory controller: mc->home, and parent where the new
 * cgroup goes (see the top of the file).
 */
static int v2_place(struct memcg *mc, const char *mnt, char *parent, size_t len, char *why,
		    size_t whylen)
{
	char own[PATH_MAX];
	int err = cgroup_own(true, own, sizeof(own));

	if (err) {
		snprintf(why, whylen, "no cgroup2 line in /proc/self/cgroup: %s", strerror(-err));
		return err;
	}
	err = cgroup_join(mc->home, sizeof(mc->home), mnt, own);
	if (!err && strcmp(own, "/") && lists_memory(mc->home, "cgroup.controllers")) {
		err = cgroup_join(parent, len, mc->home, "/");
		*strrchr(parent, '/') = '\0';
	} else if (!err) {
		err = cgroup_join(parent, len, mnt, "/");
	}
	if (err) {
		snprintf(why, whylen, "cgroup path too long: %s", own);
		return err;
	}
	return v2_enable(parent, why, whylen);
}

/* v1: mc->home, which is also the parent of the new cgroup. */
static int v1_place(struct memcg *mc, const char *mnt, char *parent, size_t len, char *why,
		    size_t whylen)
{
	char own[PATH_MAX];
	int err = cgroup_own(false, own, sizeof(own));

	if (err) {
		snprintf(why, whylen, "no memory line in /proc/self/cgroup: %s", strerror(-err));
		return err;
	}
	err = cgroup_join(mc->home, sizeof(mc->home), mnt, own);
	if (!err)
		err = cgroup_join(parent, len, mc->home, "/");
	if (err)
		snprintf(why, whylen, "cgroup path too long: %s", own);
	return err;
}

/* v2 where it has the memory controller, else v1; the parent of the new cgroup. */
static int place(struct memcg *mc, char *parent, size_t len, char *why, size_t whylen)
{
	char v2mnt[PATH_MAX], v1mnt[PATH_MAX];
	bool has_v2 = !cgroup_mount(true, v2mnt, sizeof(v2mnt));

	mc->v2 = has_v2 && lists_memory(v2mnt, "cgroup.controllers");
	if (mc->v2)
		return v2_place(mc, v2mnt, parent, len, why, whylen);
	if (!cgroup_mount(false, v1mnt, sizeof(v1mnt)))
		return v1_place(mc, v1mnt, parent, len, why, whylen);
	if (has_v2)
		snprintf(why, whylen, "no memory cgroup controller: cgroup2 at %s does not offer it and no v1 memory hierarchy is mounted",
			 v2mnt);
	else
		snprintf(why, whylen, "no memory cgroup controller: neither cgroup2 nor a v1 memory hierarchy is mounted");
	return -ENOENT;
}

/* A new, empty bpfsweep-<pid>-<n> under parent into mc->dir. */
static int make_dir(struct memcg *mc, const char *parent, char *why, size_t whylen)
{
	int err = -EEXIST;

	for (int i = 0; i < MKDIR_TRIES && err == -EEXIST; i++) {
		char name[64];

		snprintf(name, sizeof(name), "/" CGROUP_PREFIX "%d-%u", getpid(), memcg_seq++);
		err = cgroup_join(mc->dir, sizeof(mc->dir), parent, name);
		if (!err)
			err = mkdir(mc->dir, 0755) ? -errno : 0;
	}
	if (err)
		snprintf(why, whylen, "cannot create a memory cgroup: %s: %s%s", mc->dir,
			 strerror(-err), err == -EACCES || err == -EPERM ? " (needs root)" : "");
	return err;
}

/* Move in and read it once, so that a cgroup that cannot be read fails here. */
static int move_in(struct memcg *mc, char *why, size_t whylen)
{
	uint64_t usage, peak;
	int err = enter(mc->dir);

	if (err) {
		snprintf(why, whylen, "cannot move into %s: %s", mc->dir, strerror(-err));
		return err;
	}
	err = memcg_read(mc, &usage, &peak);
	if (err) {
		snprintf(why, whylen, "cannot read %s/%s: %s", mc->dir,
			 mc->v2 ? "memory.current, memory.peak" :
				  "memory.usage_in_bytes, memory.max_usage_in_bytes", strerror(-err));
		enter(mc->home);
	}
	return err;
}

int memcg_create(struct memcg **mcp, char *why, size_t whylen)
{
	struct memcg *mc = calloc(1, sizeof(*mc));
	char parent[PATH_MAX];
	int err;

	*mcp = NULL;
	if (mc)
		mc->peak_fd = -1;
	if (!mc) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = place(mc, parent, sizeof(parent), why, whylen);
	if (!err) {
		/* those of dead runs: usually gone already (procguard.h) */
		cgroup_sweep(0);
		err = make_dir(mc, parent, why, whylen);
	}
	if (!err) {
		err = move_in(mc, why, whylen);
		if (err)
			cgroup_destroy(mc->dir);
	}
	if (err)
		free(mc);
	else
		*mcp = mc;
	return err;
}

/* A number at the start of the file open at fd. */
static int pread_u64(int fd, uint64_t *v)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return n ? -errno : -ENODATA;
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf || (*end && *end != '\n') ? -EINVAL : 0;
}

int memcg_read(const struct memcg *mc, uint64_t *usage, uint64_t *peak)
{
	int err;

	err = read_u64(mc->dir, mc->v2 ? "memory.current" : "memory.usage_in_bytes", usage);
	if (err)
		return err;
	if (mc->peak_fd >= 0)
		return pread_u64(mc->peak_fd, peak);
	return read_u64(mc->dir, mc->v2 ? "memory.peak" : "memory.max_usage_in_bytes", peak);
}

int memcg_stat_value(const char *text, const char *key, uint64_t *v)
{
	size_t len = strlen(key);

	for (const char *line = text; *line; line += strcspn(line, "\n"), line += !!*line) {
		char *end;

		if (strncmp(line, key, len) || line[len] != ' ')
			continue;
		errno = 0;
		*v = strtoull(line + len + 1, &end, 10);
		return errno || end == line + len + 1 || (*end && *end != '\n') ? -EINVAL : 0;
	}
	return -ENOENT;
}

int memcg_read_kmem(const struct memcg *mc, uint64_t *kmem)
{
	char path[PATH_MAX + 32], *text;
	int err;

	if (!mc->v2)
		return read_u64(mc->dir, "memory.kmem.usage_in_bytes", kmem);
	snprintf(path, sizeof(path), "%s/memory.stat", mc->dir);
	err = read_text_file(path, &text);
	if (err)
		return err;
	err = memcg_stat_value(text, "kernel", kmem);
	free(text);
	return err;
}

/*
 * v1: writing 0 to memory.max_usage_in_bytes resets it for everyone.
 * v2 (Linux 6.12 and later): a write to memory.peak resets it for reads
 * through the same descriptor, which memcg_read() then uses.  Older v2
 * kernels have a read-only memory.peak: -EACCES or the like.
 */
int memcg_reset_peak(struct memcg *mc)
{
	char path[PATH_MAX + 32];
	int fd;

	if (!mc->v2)
		return cgroup_write(mc->dir, "memory.max_usage_in_bytes", "0");
	snprintf(path, sizeof(path), "%s/memory.peak", mc->dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "reset\n", 6) != 6) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (mc->peak_fd >= 0)
		close(mc->peak_fd);
	mc->peak_fd = fd;
	return 0;
}

void memcg_destroy(struct memcg *mc)
{
	char parent[PATH_MAX];

	if (!mc)
		return;
	if (mc->peak_fd >= 0)
		close(mc->peak_fd);
	/* home gone meanwhile: any place outside ours will do for rmdir */
	if (enter(mc->home)) {
		snprintf(parent, sizeof(parent), "%s", mc->dir);
		*strrchr(parent, '/') = '\0';
		enter(parent);
	}
	/*
	 * with whatever the point's programs left in it; should it stay, the
	 * guardian or the next start of bpfsweep removes it (procguard.h)
	 */
	cgroup_destroy(mc->dir);
	free(mc);
}
