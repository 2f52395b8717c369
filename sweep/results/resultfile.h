/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a file of a result directory could not be opened, said as what it
 * is: a reader opens every file beneath its directory (heldir.h) and only
 * regular files, so a symlink out of the directory comes back as EXDEV and
 * a FIFO or a device as EINVAL, which printed raw ("Invalid cross-device
 * link") would not tell the user what is wrong with the set.
 */
#ifndef SWEEP_RESULTFILE_H
#define SWEEP_RESULTFILE_H

#include <stddef.h>

/*
 * err, the open of dir/name that failed, as a refusal in the reader's
 * form ("DIR/NAME:1:1: error: a FIFO, not a regular file: refused") into
 * why, and -EINVAL; any other err is returned as it is, why untouched.
 */
int resultfile_refuse_open(char *why, size_t whylen, const char *dir, const char *name,
			   int err);

#endif
