/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A summary row read back against a point of a bound spec: "the same
 * point" of pointkey.h, the row read by its cells, the point by its
 * workload's values.  --resume asks it of every row before it appends to
 * a directory, and report before it draws a directory with its spec
 * (resultload.h): a row whose point id names another point than its
 * cells is a directory of another spec.
 */
#ifndef SWEEP_ROWPOINT_H
#define SWEEP_ROWPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "bind.h"
#include "matrix.h"
#include "results_read.h"

/*
 * Is summary row p of set the point pt of cfg: the same experiment, the
 * same value of every parameter?  When not, why says where they differ
 * ("rate=500000 there, rate=1000000 now").  The header check
 * (results_check_header()) must have made set's parameter columns those
 * of cfg's workload, in its order.
 */
bool result_row_is_point(const struct result_set *set, const struct result_point *p,
			 const struct sweep_cfg *cfg, const struct point *pt, char *why,
			 size_t len);

#endif
