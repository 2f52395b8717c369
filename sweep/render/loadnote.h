/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost of a block's programs under its table: the verifier's and the
 * JIT's figures of its points (WL_LOAD_METRICS: total_insns ... load_time,
 * docs/results.md), one line, so that every table carries them beside the
 * rates without a column each.  Where the points agree a figure is one
 * value, else its lowest and highest ("73insns..112insns"); each point's
 * own is in summary.csv, or in a row through a values template
 * ({total_insns}).  Nothing for a workload without them or a set written
 * before them.
 */
#ifndef SWEEP_LOADNOTE_H
#define SWEEP_LOADNOTE_H

#include <stdbool.h>
#include <stdio.h>

#include "viewtypes.h"

void table_load_note(FILE *out, const struct workload *wl, const struct view_row *const *rows,
		     int nr, bool md);

#endif
