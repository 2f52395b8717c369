/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel bench's options as the --set they stand for (bpfsweep run
 * ringbuf -p 4 -d 5), for an ad hoc run, whose spec spec/adhocspec.h
 * builds, or a spec's.  An ad hoc run is a spec run of a spec built in
 * memory, so its results are those of a spec run (docs/adhoc.md).
 */
#ifndef SWEEP_ADHOC_H
#define SWEEP_ADHOC_H

#include "cli.h"
#include "spec.h"

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

#endif
