/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernels a bisect walks, oldest first (docs/kernel.md, "Bisect"):
 * either the user's own images in the order given, or Debian's kernel
 * versions between two releases as scripts/vm-kernel.sh --list prints
 * them, one release a version (the cloud flavour first), each image
 * fetched by that script when its step runs.
 */
#ifndef SWEEP_BISECT_KERNELS_H
#define SWEEP_BISECT_KERNELS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Kernels a bisect can walk: Debian serves about 60 versions */
#define BISECT_MAX_KERNELS	256

struct bisect_kernel {
	char label[PATH_MAX];		/* "6.16.3", or the image as given */
	char release[128];		/* "6.16.3+deb13-cloud-amd64"; "" for a user's image */
	char image[PATH_MAX];		/* its path; "" until fetched */
	bool incomplete;		/* Debian lists it without its image: it cannot be fetched */
};

struct bisect_list {
	struct bisect_kernel *k;	/* k[0] the good (old) end, k[n - 1] the bad (new) one */
	int n;
};

/*
 * The user's images imgs[0..nr), in order; good and bad (NULL: the first
 * and the last) must name the first and the last.  0 or -EINVAL (said).
 */
int bisect_list_images(const char *const *imgs, int nr, const char *good, const char *bad,
		       struct bisect_list *l);

/*
 * Debian's versions from good's to bad's as `vm-kernel.sh --list` (beside
 * self, or in the data directory) prints them: a version (6.12: its newest
 * release, as vm-kernel.sh takes it) or a release name each.  0 or -errno
 * (said).
 */
int bisect_list_debian(const char *self, const char *good, const char *bad,
		       struct bisect_list *l);

/*
 * Parsed `vm-kernel.sh --list` text into l, from good's version to bad's
 * (exposed for tests).  0, -ENOENT (an end it does not list: why says) or -ENOMEM.
 */
int bisect_list_parse(const char *text, const char *good, const char *bad,
		      struct bisect_list *l, char *why, size_t len);

/* k's image: its own, or its Debian release fetched (once, into the cache).  0 or -errno with why. */
int bisect_kernel_fetch(const char *self, struct bisect_kernel *k, char *why, size_t len);

void bisect_list_free(struct bisect_list *l);

#endif
