/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spec files as text: INI sections of key = value entries, each knowing
 * where it came from.  No knowledge of workloads here (see bind.h).
 * The syntax is documented in docs/spec.md.
 */
#ifndef SWEEP_SPEC_H
#define SWEEP_SPEC_H

#include <stdio.h>

#include "diag.h"

struct spec_entry {
	char *key;
	char *value;		/* trimmed, inline comment removed */
	struct loc key_loc;
	struct loc val_loc;	/* column of value[0]; value[i] is at col + i */
};

struct spec_section {
	char *name;		/* "sweep", "params", "report" */
	char *arg;		/* [params "Title"] → "Title", else NULL */
	struct loc loc;		/* of the '[' */
	struct spec_entry *entries;
	int nr_entries, cap_entries;
};

struct spec {
	char *path;
	struct spec_section *sections;
	int nr_sections, cap_sections;
	int nr_sets;		/* spec_set() calls so far */
};

/*
 * The keys of [sweep] and [report], NULL-terminated: spec.c routes --set
 * by them, bind.c gives them their meaning through these enums.
 */
enum sweep_key { SK_TITLE, SK_WORKLOAD, SK_WARMUP, SK_DURATION, SK_INTERVAL, SK_REPEAT,
		 SK_AFFINITY, SK_MAX_CV, SK_RETRY_NOISY, SK_BPF_STATS, SK_KERNEL, SK_VM_ACCEL, SK_VM_CPUS,
		 SK_VM_MEM, SK_VM_BOOT_TIMEOUT, SK_VM_SSH_PORT, SK_PRECISION, SK_MAX_REPEAT,
		 SK_MAX_TIME };
enum report_key { RK_LABEL, RK_GROUP, RK_PLOT, RK_LOGX, RK_VALUES, RK_WORKER_ROWS,
		  RK_BASELINE };
extern const char *const spec_sweep_keys[];
extern const char *const spec_report_keys[];

/* Parse; on syntax errors print them all via diag_at() and return -EINVAL. */
int spec_parse_file(const char *path, struct spec **out);
int spec_parse_string(const char *path, const char *text, struct spec **out);

/*
 * Apply the next --set key=value (see docs/spec.md for where it lands).
 * Errors are reported at "--set #N:1:COL": the N-th call on s, the column
 * in the argument.
 */
int spec_set(struct spec *s, const char *assignment);

/*
 * Before the set-th --set gives e (of [params] section sec) the value
 * val[0..val_len): warn if that overrides a value the experiment pins,
 * one value of its own that not every other experiment shares
 * (spec_pin.c).  --set still wins.
 */
void spec_warn_pin(const struct spec *s, const struct spec_section *sec,
		   const struct spec_entry *e, const char *val, size_t val_len, int set);

/* Write the spec back as INI (the "spec as run" of a result directory). */
int spec_write(const struct spec *s, FILE *f);

void spec_free(struct spec *s);

#endif
