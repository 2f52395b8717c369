/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point's flame graph from its result directory: the folded stacks of
 * its repetitions summed (profiles_sum_point(): BPF programs by their
 * kallsyms names, "bpf_prog_<tag>_<name>", as perf shows them) and
 * drawn by flame.h, into profiles/<point>.svg at a run's end, or inline
 * into the HTML page, the same markup both ways (docs/profile.md).
 */
#ifndef SWEEP_FLAMEFILE_H
#define SWEEP_FLAMEFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The flame graph of point `point` of the result directory dir on f, its
 * title naming the point, its samples and repetitions.  -ENOENT when the
 * point has no profile, -ENODATA when its profiles have no sample (why
 * says so; nothing written); -EINVAL with why when a file does not parse;
 * -ENOMEM, -EIO.
 */
int flame_of_point(FILE *f, const char *dir, long long point, char *why, size_t why_len);

/*
 * profiles/<point>.svg for every point of dir with a profile of a sample
 * or more, each whole or not at all (one there replaced).  Nothing when dir has no profiles.  0
 * or the first -errno (reported with the file's name).
 */
int flame_write_dir(const char *dir);

#endif
