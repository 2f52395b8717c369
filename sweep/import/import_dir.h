/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Published bench output (import.h parses it) written as a result
 * directory the other commands read (docs/import.md): meta, columns.csv,
 * samples.csv with its header only (there are no intervals), and
 * summary.csv with one ok row per bench row holding mean and stddev, the
 * CSVs from summary.csv's one column table (results.h); or, when the text
 * names several machines, a run per machine merged.
 */
#ifndef SWEEP_IMPORT_DIR_H
#define SWEEP_IMPORT_DIR_H

#include <stdio.h>

/* What to import, and where. */
struct import_req {
	const char *argv_line;		/* the command line, for meta */
	const char *const *files;
	int nr_files;
	const char *label;		/* --label TEMPLATE, or NULL */
	const char *const *tags;	/* --tag key=value, NULL-terminated */
	const char *outdir;		/* OUT, created */
};

struct import_job;

/*
 * Every file of rq read and checked, before anything is written: a bad
 * file leaves nothing.  Lines not read are warned of; errors said.  0,
 * -EINVAL, -E2BIG or -ENOMEM; *out freed with import_job_free() either way.
 */
int import_job_read(const struct import_req *rq, struct import_job **out);

/*
 * rq->outdir written (a full disk, a file size limit: said, and no half
 * set left behind).  0 or -errno.
 */
int import_job_write(struct import_job *job);

/* "OUT: 32 rows in 2 blocks from 1 file, a run per machine: runs/1 x86_64 (CPU), ..." */
void import_job_print(const struct import_job *job, FILE *f);

void import_job_free(struct import_job *job);

#endif
