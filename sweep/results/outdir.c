// SPDX-License-Identifier: GPL-2.0
/*
 * The life cycle of a command's result directory (outdir.h): created or
 * reopened, held, locked, its spec and meta; written once here for run,
 * the sweep over kernels and fleet, which each had their own copy.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "heldir.h"
#include "outdir.h"
#include "readlock.h"
#include "resultdir.h"

/* Default directories of runs started in the same second get -2, -3, ... */
#define MAX_SAME_SECOND 100

/*
 * Held until the command ends: a --resume of a directory a command still
 * writes would replace its files under it, and two resumes would run the
 * same points twice.
 */
static int lock_out(struct outdir *od, const struct outdir_how *how)
{
	int fd = write_lock_take(od->path, how->who, how->resume);

	if (fd == -EBUSY)
		return fd;
	od->lock_fd = fd;
	od->locked = fd >= 0;
	return 0;
}

/* -o DIR, or results/<name>/<stamp><suffix>[-N]: a directory this command creates. */
static int make_dir(struct outdir *od, const struct outdir_how *how)
{
	size_t len;
	int err;

	if (how->out) {
		snprintf(od->path, sizeof(od->path), "%s", how->out);
		err = resultdir_create(od->path);
	} else {
		resultdir_default_path(od->path, sizeof(od->path), how->name,
				       how->info ? how->info->start : time(NULL), how->suffix ?: "");
		len = strlen(od->path);
		err = resultdir_create(od->path);
		for (int n = 2; err == -EEXIST && n <= MAX_SAME_SECOND; n++) {
			snprintf(od->path + len, sizeof(od->path) - len, "-%d", n);
			err = resultdir_create(od->path);
		}
	}
	if (err)
		diag_err("cannot create result directory %s: %s%s", od->path, strerror(-err),
			 err == -EEXIST && how->exists_hint ? how->exists_hint : "");
	od->made = !err;
	return err;
}

static int make_subdirs(const struct outdir *od, const struct outdir_how *how)
{
	char path[PATH_MAX + 64];
	int err = 0;

	for (int i = 0; !err && how->subdirs && how->subdirs[i]; i++) {
		err = outdir_file(od, how->subdirs[i], path, sizeof(path)) ?:
		      heldir_mkdir(path, 0755);
		if (err)
			diag_err("cannot create %s/%s: %s", od->path, how->subdirs[i],
				 strerror(-err));
	}
	return err;
}

int outdir_create(struct outdir *od, const struct outdir_how *how)
{
	int err;

	*od = (struct outdir){ 0 };
	err = make_dir(od, how);
	if (err)
		return err;
	err = lock_out(od, how) ?: make_subdirs(od, how);
	/* spec and meta first: --resume needs them to know what a directory holds */
	if (!err && how->spec)
		err = outdir_write_spec(od, how->spec);
	if (!err && how->cfg)
		err = outdir_write_meta(od, how->cfg, how->info);
	if (!err && how->more)
		err = how->more(od, how->ctx);
	if (err)
		outdir_discard(od);
	return err;
}

int outdir_reopen(struct outdir *od, const struct outdir_how *how)
{
	struct stat st;
	int err;

	*od = (struct outdir){ .resumed = true };
	snprintf(od->path, sizeof(od->path), "%s", how->resume);
	if (how->out || how->tagged) {
		diag_err("--resume continues %s with its own output and tags: give neither -o "
			 "nor --tag", how->metavar ?: "DIR");
		return -EINVAL;
	}
	err = stat(od->path, &st) ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	/* from here on, every file of OUT is opened from one descriptor of it */
	err = err ?: resultdir_hold(od->path);
	if (err) {
		diag_err("cannot resume %s: %s", od->path, strerror(-err));
		return err;
	}
	return lock_out(od, how);
}

int outdir_open(struct outdir *od, const struct outdir_how *how)
{
	return how->resume ? outdir_reopen(od, how) : outdir_create(od, how);
}

int outdir_file(const struct outdir *od, const char *name, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s/%s", od->path, name) < len ? 0 : -ENAMETOOLONG;
}

int outdir_write_spec(const struct outdir *od, const struct spec *spec)
{
	int err = resultdir_write_spec(od->path, spec, od->resumed);

	if (err)
		diag_err("cannot write %s/spec: %s", od->path, strerror(-err));
	return err;
}

/*
 * OUT/meta written by one of meta.h's calls: created (cfg and info), or
 * key appended with value, or with the time t when value is NULL.
 */
static int write_meta(const struct outdir *od, const struct sweep_cfg *cfg,
		      const struct run_info *info, const char *key, const char *value, time_t t)
{
	char path[PATH_MAX + 8];
	int err = outdir_file(od, "meta", path, sizeof(path));

	if (err)
		snprintf(path, sizeof(path), "%s/meta", od->path);
	else if (!key)
		err = meta_write(path, cfg, info);
	else
		err = value ? meta_append(path, key, value) : meta_append_time(path, key, t);
	if (err)
		diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

int outdir_write_meta(const struct outdir *od, const struct sweep_cfg *cfg,
		      const struct run_info *info)
{
	return write_meta(od, cfg, info, NULL, NULL, 0);
}

int outdir_meta_append(const struct outdir *od, const char *key, const char *value)
{
	return write_meta(od, NULL, NULL, key, value, 0);
}

int outdir_meta_time(const struct outdir *od, const char *key, time_t t)
{
	return write_meta(od, NULL, NULL, key, NULL, t);
}

void outdir_discard(struct outdir *od)
{
	/* removed while still locked: no reader sees it half gone */
	if (od->made)
		resultdir_remove_tree(od->path);
	od->made = false;
	outdir_close(od);
}

void outdir_close(struct outdir *od)
{
	if (od->locked)
		close(od->lock_fd);
	od->locked = false;
}
