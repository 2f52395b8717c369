/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ad hoc runs: a workload named on the command line in place of a spec
 * (bpfsweep run ringbuf -p 4 -d 5), and the kernel bench's options as the
 * --set they stand for.  An ad hoc run is a spec run of a spec built in
 * memory, so its results are those of a spec run (docs/adhoc.md).
 */
#ifndef SWEEP_ADHOC_H
#define SWEEP_ADHOC_H

#include "cli.h"
#include "spec.h"

/* The spec of an ad hoc run of workload: [sweep] with its timing, no [params]. */
int adhoc_spec(const char *workload, struct spec **out);

/*
 * -w, -d, -p, -c or -a (opt) with its argument: appended to o's --set list
 * as "warmup=3s", "producers=4", ..., in command-line order.  0 or -errno.
 */
int adhoc_shorthand(struct cli_spec *o, int opt, const char *arg);

/* "-p/--producers" for 'p'; "" for an option that is none of them. */
const char *adhoc_option_name(int opt);

/*
 * -p and -c name a parameter: the spec's workload must have it (said
 * naming the workload and its parameters).  0 or -EINVAL.
 */
int adhoc_check_shorthands(const struct cli_spec *o, const struct spec *spec);

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
