/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel of a sweep: "host", or an image (or build tree) that boots in a
 * VM.  The one form of a sweep's kernels (struct kernel_list, model.h) and
 * its one text form, the values separated by a space: "host
 * build/patched".  A kernel is checked on its way in by one function (from
 * --kernel's words, or from the spec's kernel key), the list printed by
 * one printer wherever it is written (the spec's kernel key, OUT/meta's
 * kernel line) and read back by one parser (the spec's key, bound).
 * docs/kernel.md, "One form for a kernel".
 */
#ifndef SWEEP_KERNELLIST_H
#define SWEEP_KERNELLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "model.h"
#include "spec.h"

/* The text form of a full list at most: the longest a --kernel list ever was. */
#define KERNEL_LIST_TEXT_MAX	8192

/* Is value the host's own kernel, run without a VM? */
bool kernel_is_host(const char *value);

/*
 * The image to boot for value: a file as it is; a kernel build tree's
 * arch/x86/boot/bzImage; refused when it cannot boot as a guest (no
 * bzImage header, a config without what the guest needs).  0, or -errno
 * with why filled.
 */
int kernel_image(const char *value, char *path, size_t len, char *why, size_t whylen);

/*
 * value[0..len) given at at, checked and appended: host, or an image (or
 * build tree) that exists and can boot, not listed twice, at most
 * MAX_KERNELS.  0, or -errno with why filled (the caller says where).
 */
int kernel_list_add(struct kernel_list *kl, const char *value, size_t len, const struct loc *at,
		    char *why, size_t whylen);

/*
 * The text form at at (a spec value): its values into kl, replacing what
 * it held; each error reported at its value (diag_at).  0 or -EINVAL.
 */
int kernel_list_parse(struct kernel_list *kl, const char *text, const struct loc *at);

/*
 * Words of a command line, a kernel each (--kernel A --kernel B), into kl;
 * an error reported as opt's ("--kernel: ...").  0 or -errno.
 */
int kernel_list_from_words(struct kernel_list *kl, const char *const *words, int nr,
			   const char *opt);

/* The text form into buf; 0, or -E2BIG when it does not fit. */
int kernel_list_print(const struct kernel_list *kl, char *buf, size_t len);

/* The spec's kernel key given kl, as its --set would (label "--kernel"). */
int kernel_list_set_spec(const struct kernel_list *kl, struct spec *spec);

/* Does the list boot any VM (a kernel other than host)? */
bool kernel_list_has_vm(const struct kernel_list *kl);

void kernel_list_free(struct kernel_list *kl);

#endif
