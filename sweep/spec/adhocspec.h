/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ad hoc runs: a workload named on the command line in place of a spec.
 * Their spec is built in memory (the options that stand for --set are
 * cli/adhoc.h's), named and charted from what it varies, and written out
 * by --save-spec, a spec's as any other (docs/adhoc.md).
 */
#ifndef SWEEP_ADHOCSPEC_H
#define SWEEP_ADHOCSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "spec.h"

/* The spec of an ad hoc run of workload: [sweep] with its timing, no [params]. */
int adhoc_spec(const char *workload, struct spec **out);

/* The value of key in the first section called name, or NULL. */
const char *spec_first_value(const struct spec *spec, const char *name, const char *key);

/*
 * An ad hoc run's title, unless --set title= gave one: the workload and
 * the parameters the command line set, "ringbuf producers=4", as the
 * bench names a run.  Set as a --set would be (the saved spec has it).
 * 0 or -errno.
 */
int adhoc_title(struct spec *spec);

/*
 * An ad hoc sweep's chart, as a spec would ask for it: the first parameter
 * with several numbers on the x axis, the headline metric on y, one line
 * per value of a second varying parameter.  Into buf as the --set
 * "plot=producers vs hits" it amounts to; false when nothing varies that
 * a chart can show (one point, or more than two axes).
 */
bool adhoc_plot(const struct sweep_cfg *cfg, char *buf, size_t len);

/* --save-spec FILE: the spec as run, written to a new FILE.  0 or -errno, reported. */
int adhoc_save_spec(const struct spec *spec, const char *path);

#endif
