/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result directory's CSVs: samples.csv, summary.csv and, of a
 * workload that loads BPF programs, programs.csv (programs.h).  Each file
 * appears with its header already on disk; a point's rows are appended
 * and fsync()ed as it ends, all of them or none, so a crash, a full disk
 * or Ctrl-C never leaves a torn row or a summary that claims more than
 * the samples hold.  Column layout is in docs/results.md.
 */
#ifndef SWEEP_RESULTS_H
#define SWEEP_RESULTS_H

#include <stdbool.h>

#include "bind.h"
#include "columns.h"
#include "csvfile.h"
#include "result.h"
#include "viewtypes.h"

struct results;

/*
 * Create the CSVs in dir (which exists) with their header lines, on disk
 * (fsync()ed, directory too) before this returns.  Returns 0 or -errno;
 * -EEXIST when one is there already.  Reports nothing: the caller does.
 */
int results_create(const char *dir, const struct sweep_cfg *cfg, struct results **out);

/*
 * --resume: open the CSVs of an interrupted run in dir for appending
 * (creating one that a kill kept from being made).  Check their headers
 * first with results_check_header().
 */
int results_reopen(const char *dir, const struct sweep_cfg *cfg, struct results **out);

/*
 * Do the headers of the tables read back (empty tables pass) name the
 * columns this bpfsweep writes for cfg?  0, or -EBADMSG with *which the
 * file that differs.
 */
int results_check_header(const struct sweep_cfg *cfg, const struct csv_table *samples,
			 const struct csv_table *summary, const char **which);

/*
 * The same for reading only (report): a summary.csv of a bpfsweep from
 * before the units' columns (unit_kind, stop, half_width_pct, M_units,
 * M_unit_sd) passes too, since its statistics are rebuilt from
 * samples.csv.  --resume, which appends rows, takes results_check_header().
 */
int results_check_header_readable(const struct sweep_cfg *cfg, const struct csv_table *samples,
				  const struct csv_table *summary, const char **which);

/*
 * Replace dir/name by t's header and the rows r with keep[r], through a
 * temporary file renamed over it.  0/-errno.
 */
int results_rewrite(const char *dir, const char *name, const struct csv_table *t,
		    const bool *keep);

/*
 * Append the point's rows to each file with write(2) and fsync() them.
 * On any failure (short write, ENOSPC, EFBIG, EIO, fsync) the files are
 * cut back to their sizes before the point and -errno is returned; after
 * that, results_rollback_error() says whether the cut itself failed.
 */
int results_append(struct results *r, const struct point_result *pr);

/*
 * With a [report] baseline, the cells relative to it in dir/summary.csv:
 * each line's point (by id) as a row of v, the view of the run's whole
 * set read back with cfg (view.h), against its baseline row there
 * (baseline_find_row()), from their unrounded statistics.  A point's
 * baseline may run after it, so rows are appended with these cells empty
 * and the file is rewritten (renamed over) once the set is known.
 * Without a baseline, nothing.  0/-errno.
 */
int results_fill_baseline(const char *dir, const struct sweep_cfg *cfg,
			  const struct result_view *v);
int results_rollback_error(const struct results *r);

/*
 * A set of published rows (import): its columns.csv, samples.csv (the
 * header only: no interval is known) and summary.csv, each into f from
 * the one column table (columns_of_published()).  0/-errno.
 */
int results_published_columns(FILE *f, const struct published_layout *l);
int results_published_samples(FILE *f, const struct published_layout *l);
int results_published_summary(FILE *f, const struct published_layout *l,
			      const struct published_row *rows, int nr_rows);

void results_close(struct results *r);

#endif
