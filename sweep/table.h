/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cover-letter table, in the kernel bench's format:
 *
 *   Ringbuf, multi-producer contention, overwrite mode
 *   ==================================================
 *   rb-libbpf nr_prod 1      14.970 ± 0.012M/s (drops 0.000 ± 0.000M/s)
 */
#ifndef SWEEP_TABLE_H
#define SWEEP_TABLE_H

#include <stdio.h>

#include "bind.h"
#include "result.h"

/* Expand a label template: "{producers}" → that parameter's value. */
void table_label(const struct sweep_cfg *cfg, const struct experiment *e,
		 const struct point *pt, char *buf, size_t len);

/* One block per experiment; results[i] belongs to points[i]. */
int table_render(FILE *out, const struct sweep_cfg *cfg,
		 const struct point_result *results, int nr);

#endif
