/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's facts that decide whether two runs' numbers are
 * comparable (as pyperf's system checks): governors, boost, SMT, whether
 * it is virtual, load, the kernel's command line, lockdown and config.
 * meta records them with every run; the system check (syscheck.h) reads
 * them to warn before one.  Both write "key: value" lines through
 * meta_put().
 */
#ifndef SWEEP_SYSFACTS_H
#define SWEEP_SYSFACTS_H

#include <stdio.h>

#include "kconfig.h"

/*
 * "key: value", the value kept on one line without control characters
 * whatever it holds: values come from files, the spec and the command line,
 * and a reader (or a terminal showing meta) must see only text.
 */
void meta_put(FILE *f, const char *key, const char *val);
void __attribute__((format(printf, 3, 4)))
meta_putf(FILE *f, const char *key, const char *fmt, ...);

/* s, or "unknown" for NULL or "": what meta says of a fact it could not read. */
const char *meta_or_unknown(const char *s);

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
