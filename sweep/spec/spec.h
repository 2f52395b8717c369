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
 * The keys of [sweep] and [report], each once with its name: the enums
 * and the NULL-terminated name tables (spec.c) are both made from these
 * lists, so they cannot drift apart.  spec.c routes --set by the names,
 * bind.c gives the keys their meaning through the enums.
 */
#define SPEC_SWEEP_KEYS(KEY)			\
	KEY(SK_TITLE, "title")				\
	KEY(SK_WORKLOAD, "workload")			\
	KEY(SK_WARMUP, "warmup")			\
	KEY(SK_DURATION, "duration")			\
	KEY(SK_INTERVAL, "interval")			\
	KEY(SK_REPEAT, "repeat")			\
	KEY(SK_AFFINITY, "affinity")			\
	KEY(SK_MAX_CV, "max_cv")			\
	KEY(SK_RETRY_NOISY, "retry_noisy")		\
	KEY(SK_BPF_STATS, "bpf_stats")			\
	KEY(SK_PROFILE, "profile")			\
	KEY(SK_PROFILE_HZ, "profile_hz")		\
	KEY(SK_KERNEL, "kernel")			\
	KEY(SK_VM_ACCEL, "vm_accel")			\
	KEY(SK_VM_CPUS, "vm_cpus")			\
	KEY(SK_VM_MEM, "vm_mem")			\
	KEY(SK_VM_BOOT_TIMEOUT, "vm_boot_timeout")	\
	KEY(SK_VM_SSH_PORT, "vm_ssh_port")		\
	KEY(SK_PRECISION, "precision")			\
	KEY(SK_MAX_REPEAT, "max_repeat")		\
	KEY(SK_MAX_TIME, "max_time")			\
	KEY(SK_DECIDE, "decide")

#define SPEC_REPORT_KEYS(KEY)		\
	KEY(RK_LABEL, "label")			\
	KEY(RK_GROUP, "group")			\
	KEY(RK_PLOT, "plot")			\
	KEY(RK_LOGX, "logx")			\
	KEY(RK_VALUES, "values")		\
	KEY(RK_WORKER_ROWS, "worker_rows")	\
	KEY(RK_BASELINE, "baseline")

#define SPEC_KEY_ENUM(id, name)	id,
enum sweep_key { SPEC_SWEEP_KEYS(SPEC_KEY_ENUM) NR_SWEEP_KEYS };
enum report_key { SPEC_REPORT_KEYS(SPEC_KEY_ENUM) NR_REPORT_KEYS };
extern const char *const spec_sweep_keys[NR_SWEEP_KEYS + 1];
extern const char *const spec_report_keys[NR_REPORT_KEYS + 1];

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
