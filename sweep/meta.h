/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The meta file of a result directory: "key: value" lines describing the
 * machine, kernel, tool versions and the run.
 */
#ifndef SWEEP_META_H
#define SWEEP_META_H

#include <time.h>

#include "bind.h"

struct run_info {
	time_t start;
	time_t end;		/* 0 while running */
	const char *const *tags;	/* "key=value", NULL-terminated, may be NULL */
	const char *argv_line;	/* the command line as typed */
};

/*
 * Write (or rewrite, at the end of the run) path atomically: a temporary
 * file renamed over it.  Keys: docs/results.md.  Returns 0 or -errno and
 * reports nothing: the caller does.
 */
int meta_write(const char *path, const struct sweep_cfg *cfg, const struct run_info *ri);

#endif
