/* SPDX-License-Identifier: GPL-2.0 */
/*
 * programs.csv: the verifier's and the JIT's figures of every program each
 * repetition of a point loaded, a row a program, as veristat's CSV has
 * them (its column names where it has the figure), beside summary.csv,
 * whose load metrics are their sum over a repetition's programs (the peaks:
 * their largest).  results.c appends a point's rows with its others, all
 * of them or none; --resume drops those of points run again (resume.c).
 * Only a workload that loads BPF programs (wl->load_stats) has the file.
 * Column layout: docs/results.md.
 */
#ifndef SWEEP_PROGRAMS_H
#define SWEEP_PROGRAMS_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"
#include "result.h"

#define PROGRAMS_CSV	"programs.csv"

/* The most columns: point, experiment, rep, prog_name, prog_type, prog_id, figures, reason. */
#define PROGRAMS_MAX_COLS	(6 + NR_LOAD_FIELDS + 1)

/* Does a run of cfg write programs.csv? */
bool programs_kept(const struct sweep_cfg *cfg);

/* The header's names into names[PROGRAMS_MAX_COLS]; returns how many. */
int programs_header(const struct sweep_cfg *cfg, const char **names);

/*
 * pr's rows into f: one per program of each repetition that loaded any;
 * a point none of whose repetitions did (not run, refused, a bench with no
 * program) one row without a program, whose reason says why.  0/-errno.
 */
int programs_write_point(FILE *f, const struct sweep_cfg *cfg, const struct point_result *pr);

#endif
