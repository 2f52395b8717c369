// SPDX-License-Identifier: GPL-2.0
/* A result file that could not be opened, said as what it is: see resultfile.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "diag.h"
#include "heldir.h"
#include "resultfile.h"

/* What a file that is no regular file is, by its type. */
static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	default:
		return "a special file";
	}
}

int resultfile_refuse_open(char *why, size_t whylen, const char *dir, const char *name,
			   int err)
{
	const char *what = NULL;
	char path[4200];
	struct stat st;
	size_t n;

	/* EXDEV: RESOLVE_BENEATH met a symlink out; ELOOP: a kernel without openat2() */
	if (err != -EXDEV && err != -ELOOP && err != -EINVAL && err != -EISDIR)
		return err;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = diag_where(why, whylen, path, 1, 1);
	if (n >= whylen)
		return -EINVAL;
	if (err == -EXDEV || err == -ELOOP) {
		snprintf(why + n, whylen - n, "a symlink%s%s: refused (a set's files are read "
			 "only from within its directory)", err == -EXDEV ? " out of " : "",
			 err == -EXDEV ? dir : "");
		return -EINVAL;
	}
	/* O_PATH: its type without opening it, so a FIFO cannot block here */
	if (!heldir_stat(path, &st))
		what = type_name(st.st_mode);
	snprintf(why + n, whylen - n, "%s%snot a regular file: refused", what ? what : "",
		 what ? ", " : "");
	return -EINVAL;
}
