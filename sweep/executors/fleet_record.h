/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a fleet's OUT/meta records of the command that began it, read back
 * for `fleet --resume OUT` (docs/fleet.md): the hosts by label, in the
 * order of the host file (under --shard a host's place is its share), and
 * the options that decide which points each host runs.  Pure: the text is
 * given, so that tests/unit/test_fleet_record.c can feed it.
 */
#ifndef SWEEP_FLEET_RECORD_H
#define SWEEP_FLEET_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet_request.h"
#include "hosts.h"

/* the tags a resumed OUT/meta keeps for the hosts' runs: as many as --tag takes */
#define FLEET_MAX_TAGS		64

struct fleet_record {
	int nr_hosts;				/* "fleet: N hosts" */
	char labels[HOSTS_MAX][HOST_LABEL_LEN];	/* "fleet_host: LABEL LOGIN", in order */
	bool shard;				/* "fleet_shard: ..." */
	bool slurm;				/* "fleet_engine: slurm" */
	bool quick;				/* "quick: yes" */
	const char *only;			/* "fleet_only: TITLE", or NULL */
	const char *tags[FLEET_MAX_TAGS + 1];	/* "tag: K=V", NULL-terminated */
	int nr_tags;
};

/*
 * Parse meta (modified: the record points into it).  -EINVAL with why
 * when it is not a fleet's meta, or its host lines do not add up.
 */
int fleet_record_parse(char *meta, struct fleet_record *r, char *why, size_t len);

/*
 * The request against the record: the same --quick, --shard, --only,
 * --engine (when given), and hosts of the same labels in the same order
 * (their logins may differ: a host may have moved).  0, or -EINVAL with
 * why.
 */
int fleet_record_check(const struct fleet_record *r, const struct fleet_request *rq,
		       const struct hosts *hs, char *why, size_t len);

/*
 * Whether a resume keeps line (without its newline) of OUT/meta: the first
 * run's facts stay; what an attempt says of its outcome ("host_failed:",
 * "shard_failed:", "host_interrupted:", "report_by:", "end:") goes, to be
 * written anew, and so does a "host_note: LABEL" of a host that runs again
 * (again[i] for r->labels[i]).
 */
bool fleet_meta_keeps(const char *line, const struct fleet_record *r, const bool *again);

#endif
