/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The meta file of a result directory: "key: value" lines describing the
 * machine, kernel, tool versions and the run.
 */
#ifndef SWEEP_META_H
#define SWEEP_META_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "model.h"
#include "kconfig.h"

struct sys_check;

struct run_info {
	time_t start;
	time_t end;		/* 0 while running */
	const char *const *tags;	/* "key=value", NULL-terminated, may be NULL */
	const char *argv_line;	/* the command line as typed */
	bool quick;		/* --quick: "quick: yes" */
	const char *shard;	/* --shard I/N: "shard: I/N"; NULL: every point */
	const char *kernel;	/* the image the run was for as given; NULL: the host's */
	const char *vm_accel;	/* "kvm" or "tcg" inside a VM; NULL on the host */
	const char *vm_accel_reason;	/* why vm_accel = auto is tcg ("kvm refused: ..."); NULL */
	bool not_run;		/* the points ran nowhere (their kernel did not boot):
				 * no kernel facts, since this kernel is not theirs */
	const struct sys_check *check;	/* the system check before the sweep, or NULL */
};

/*
 * Create path (it must not exist) with every fact known at the start, in
 * one write, fsync'd: no temporary file, and a run killed at any moment
 * leaves a meta that claims nothing it does not hold.  Keys:
 * docs/results.md.  Returns 0 or -errno and reports nothing: the caller does.
 */
int meta_write(const char *path, const struct sweep_cfg *cfg, const struct run_info *ri);

/*
 * The value of key in the meta file at path (its first line), into buf;
 * false when the file or the key is not there.
 */
bool meta_lookup(const char *path, const char *key, char *buf, size_t len);

/* Every value of key (the "tag" lines) joined by sep into buf; false when there is none. */
bool meta_lookup_all(const char *path, const char *key, const char *sep, char *buf, size_t len);

/* What `bpfsweep import` knows of the numbers it read. */
struct import_info {
	const char *argv_line;
	const char *const *files;	/* the files read, each an imported_from line */
	int nr_files;
	const char *title;		/* the first block's */
	const char *const *tags;	/* "key=value", NULL-terminated: host, arch, ... */
	time_t when;
};

/* meta of an imported result set (docs/import.md), into f. */
void meta_print_imported(FILE *f, const struct import_info *ii);

/*
 * Append "key: <t in ISO 8601 UTC>" to an existing path, fsync'd: "end" when
 * a run finishes, "resumed" when --resume continues it.  0 or -errno.
 */
int meta_append_time(const char *path, const char *key, time_t t);

/* Append "key: value" (escaped as meta_write() does) to an existing path, fsync'd. */
int meta_append(const char *path, const char *key, const char *value);

/*
 * The files behind the facts that decide whether two runs are comparable
 * (as pyperf's system checks), as read, each one line without its newline;
 * NULL where absent.  Read and printed separately so that the parsing can
 * be tested on given text.
 */
enum meta_sys_file {
	META_BOOST,		/* cpufreq/boost: 1 on */
	META_NO_TURBO,		/* intel_pstate/no_turbo: 1 means boost off */
	META_SMT_ACTIVE,	/* smt/active: 1 or 0 */
	META_SMT_CONTROL,	/* smt/control: on, off, forceoff, notsupported, ... */
	META_HV_TYPE,		/* /sys/hypervisor/type */
	META_DMI_VENDOR,	/* /sys/class/dmi/id/sys_vendor */
	META_DMI_PRODUCT,	/* /sys/class/dmi/id/product_name */
	META_LOADAVG,		/* /proc/loadavg */
	META_CMDLINE,		/* /proc/cmdline */
	META_LOCKDOWN,		/* /sys/kernel/security/lockdown */
	NR_META_SYS_FILES,
};

struct meta_system {
	char **gov;		/* scaling_governor of each CPU that has cpufreq */
	int nr_gov;
	char *cpu_flags;	/* /proc/cpuinfo flags of the first CPU */
	char *file[NR_META_SYS_FILES];	/* first line of each */
	struct kconfig *kconfig;	/* the running kernel's config, NULL if unreadable */
	char *kconfig_path;
};

/* The files under root ("" for the machine's own; syscheck.h: BPFSWEEP_SYSROOT). */
void meta_system_read(const char *root, struct meta_system *sys);
void meta_system_free(struct meta_system *sys);

/*
 * The cpu_governor ... lockdown, kernel_config and config lines of meta,
 * "unknown" for what is absent.
 */
void meta_system_print(FILE *f, const struct meta_system *sys);

/* Boost as meta says it: 1 on, 0 off, -1 unknown. */
int meta_system_boost(const struct meta_system *sys);

/* meta's virtualised: "no", "unknown", "yes" or "yes (QEMU)". */
void meta_system_virtualised(const struct meta_system *sys, char *buf, size_t len);

#endif
