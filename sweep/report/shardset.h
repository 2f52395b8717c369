/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runs that are the shards of one run (run --shard K/N, fleet --shard,
 * docs/fleet.md) are drawn as that run: one table of every point, one
 * chart series per series of the spec, and under the table a line per
 * shard naming the run that ran its points, as a cover letter would say
 * which machine measured what.
 */
#ifndef SWEEP_SHARDSET_H
#define SWEEP_SHARDSET_H

#include <stdbool.h>
#include <stdio.h>

#include "resultload.h"
#include "shard.h"
#include "table.h"

/* Run's "shard: K/N" of its meta into sh; count 0 when it ran every point (or says nothing valid). */
void shardset_of(const struct result_set *set, struct shard *sh);

/*
 * Are nr (at least 2) shares one run's: every one a shard of the same N,
 * no index twice?  (All N need not be there: a shard that failed is
 * missing, and the table then names its points: executors/fleet_merge.c.)
 */
bool shardset_whole(const struct shard *sh, int nr);

/* Do runs a and b say the same machine: arch, CPU model, kernel release? */
bool shardset_same_machine(const struct run_facts *a, const struct run_facts *b);

/*
 * The facts of the whole from each shard's: the machine when every shard
 * ran on the same one (else none: each shard's line names its own), --tag
 * values when every shard has the same, --quick and TCG as any shard's.
 */
struct run_facts shardset_facts(const struct run_facts *facts, int nr);

/*
 * "shard 1/2 (fleet_host=alpha): null{producers=1}, null{producers=3}":
 * the share of lr, named by label, its points in point order; with
 * machine, its arch, CPU model and kernel release after the label.
 */
void shardset_line(FILE *f, const struct loaded_run *lr, const struct shard *sh,
		   const char *label, const struct run_facts *machine);

#endif
