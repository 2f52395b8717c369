/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The label templates a result set's stored spec gives its experiments,
 * held in its view (viewtypes.h: struct view_labels) when the view is
 * described by the set's own columns (compare's): a row then reads as
 * table.txt read it when the set was run ("rb-libbpf nr_prod 8").  The
 * stored spec is read once, as the view is built; nothing after it parses
 * a spec to name a row.
 */
#ifndef SWEEP_VIEWLABEL_H
#define SWEEP_VIEWLABEL_H

#include "results_read.h"
#include "viewtypes.h"

/*
 * Into *l: the label templates of set's stored spec (none without one,
 * or when it no longer parses: its diagnostics are not shown, since the
 * set is read for its numbers, not its spec).  0 or -ENOMEM.
 */
int viewlabel_read(const struct result_set *set, struct view_labels *l);

/*
 * The label template of the experiment titled title: its own [params
 * "title"] section's label (an untitled section's for other titles), else
 * [report]'s.  NULL without one; "" asks for the default label.
 */
const char *viewlabel_of(const struct view_labels *l, const char *title);

void viewlabel_free(struct view_labels *l);

#endif
