/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `fleet --engine slurm` runs on (docs/fleet.md): the host file's
 * counterpart, a machine per line, each one exclusive Slurm allocation of
 * one node:
 *
 *   [@LABEL/]KEY=VALUE ...        keys: partition constraint nodelist
 *                                 account qos reservation time count
 *
 * and the command line's --partition, --constraint, --nodelist and
 * --time-limit, which fill in what a line leaves out (without a file they
 * are the one machine).  Each value is checked against the alphabet of
 * what Slurm takes there, so that none is another option of salloc; each
 * reaches salloc as one argv word (--partition=VALUE), never a shell.  A
 * bad line is reported "file:line:col: error: ..." (every one).  Pure but
 * for the file: tests/unit/test_slurm_machines.c feeds it text.
 */
#ifndef SWEEP_SLURM_MACHINES_H
#define SWEEP_SLURM_MACHINES_H

#include <stddef.h>

#include "hosts.h"

#define SLURM_VALUE_LEN	128

/* The keys of a machine, in the order salloc gets them. */
enum slurm_key {
	SK_PARTITION, SK_CONSTRAINT, SK_NODELIST, SK_ACCOUNT, SK_QOS, SK_RESERVATION, SK_TIME,
	NR_SLURM_KEYS
};

/* Its name in a file, as salloc's option (--NAME=VALUE) but for time (--time). */
extern const char *const slurm_key_names[NR_SLURM_KEYS];

struct slurm_machine {
	char v[NR_SLURM_KEYS][SLURM_VALUE_LEN];	/* "" when neither the line nor the options give it */
};

struct slurm_machines {
	struct slurm_machine m[HOSTS_MAX];	/* m[i] is the fleet's host i (hosts.h) */
	int nr;
};

/*
 * Parse text[0..len) named file into ms and hs (a host per machine: its
 * label, and as its name a description of what it asks for, for OUT/meta
 * and the failed rows of a machine that got no node); defaults[k] (NULL
 * or "": none) fills key k where a line has none.  text NULL: one machine
 * of the defaults alone.  0, or -EINVAL after every error is reported.
 */
int slurm_machines_parse(const char *file, const char *text, size_t len,
			 const char *const *defaults, struct slurm_machines *ms, struct hosts *hs);

/* The file at path (NULL: the defaults alone) parsed as above; -errno reported. */
int slurm_machines_load(const char *path, const char *const *defaults,
			struct slurm_machines *ms, struct hosts *hs);

/*
 * ms as a file that parses back to it (OUT/hostfile, for --resume): a
 * line per machine, its label and every key it has.  0 or -ENOSPC.
 */
int slurm_machines_text(const struct slurm_machines *ms, const struct hosts *hs, char *buf,
			size_t len);

#endif
