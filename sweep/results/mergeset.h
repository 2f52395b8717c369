/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several runs as one result set: OUT/summary.csv and OUT/samples.csv (and
 * OUT/programs.csv, when a run has one) hold every run's rows, each led
 * by the columns that say its run (run, host, arch, cpu_model,
 * kernel_release, kernel, executor, accel, tag_<name>), under the union
 * of the runs' columns (merge.h).  A library call below
 * the merge command, the kernel sweep, the fleet and import.
 */
#ifndef SWEEP_MERGESET_H
#define SWEEP_MERGESET_H

/*
 * The runs in dirs (nr, in order) as a new result directory outdir: its
 * meta, CSVs and OUT/runs/<n> with each run's own files, so that the set
 * can be drawn again.  Whole or absent: 0, or -errno (reported) with
 * nothing left behind.
 */
int merge_runs(const char *outdir, const char *const *dirs, int nr);

/*
 * The merged summary.csv, samples.csv and programs.csv of runs that sit in
 * OUT/runs/<n> (dirs, in order): what merge_runs() writes, without copying
 * the runs or writing meta, replacing those of an earlier merge.  0 or
 * -errno (reported).
 */
int merge_in_place(const char *outdir, const char *const *dirs, int nr);

/*
 * How many runs the merged set dir keeps in dir/runs/<n> (n from 1 to the
 * first missing), or 0 when dir is no merged set (no runs/1/summary.csv):
 * paths resolved as heldir_access() resolves them.
 */
int merged_set_runs(const char *dir);

#endif
