/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system check: what on this machine will move the numbers, read
 * before a run (and by `bpfsweep system`), shown with what to do about
 * it, and recorded in meta (docs/system.md).  pyperf's `system show` is
 * the model.
 */
#ifndef SWEEP_SYSCHECK_H
#define SWEEP_SYSCHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "sysfacts.h"
#include "sysbpf.h"

#define SYSCHECK_MAX_WARN	12
#define SYSCHECK_WARN_LEN	400

enum syscheck_file {
	SC_ONLINE,		/* /sys/devices/system/cpu/online: "0-1" */
	SC_ISOLATED,		/* /sys/devices/system/cpu/isolated: "" or "2-3" */
	SC_NOHZ_FULL,		/* /sys/devices/system/cpu/nohz_full */
	SC_JIT_ENABLE,		/* /proc/sys/net/core/bpf_jit_enable */
	SC_JIT_HARDEN,		/* /proc/sys/net/core/bpf_jit_harden */
	SC_STATS_ENABLED,	/* /proc/sys/kernel/bpf_stats_enabled */
	NR_SC_FILES,
};

struct sys_check {
	struct meta_system sys;		/* governor, boost, SMT, VM, load (sysfacts.h) */
	char *file[NR_SC_FILES];	/* first line of each; NULL when absent or empty */
	bool present[NR_SC_FILES];	/* readable (an empty isolated is "none") */
	bool has_bpf;			/* bpf below was scanned */
	struct sys_bpf bpf;
	char warn[SYSCHECK_MAX_WARN][SYSCHECK_WARN_LEN];
	int nr_warn;
};

/*
 * Where /proc and /sys are read from: $BPFSWEEP_SYSROOT (a test's fake
 * tree), else "" (the machine's own).
 */
const char *syscheck_root(void);

/* The tracepoints bpfsweep's workloads attach to (NULL-terminated). */
extern const char *const syscheck_hooks[];

/*
 * The files under root into sc, and with scan_bpf the BPF programs on the
 * machine (sysbpf.h: root cannot fake those); then sc->warn.
 * syscheck_free() frees what it read.
 */
void syscheck_read(const char *root, bool scan_bpf, struct sys_check *sc);
void syscheck_free(struct sys_check *sc);

/* The warnings of what sc holds, each with what to do, into sc->warn. */
void syscheck_assess(struct sys_check *sc);

/*
 * sc's own facts as meta lines (runnable, cpus_online, isolated_cpus,
 * nohz_full, bpf_jit_enable, bpf_jit_harden, bpf_stats_enabled,
 * bpf_stats_active, bpf_progs, bpf_hooks, then a system_warning per
 * warning), each through put(ctx, key, value).
 */
void syscheck_lines(const struct sys_check *sc,
		    void (*put)(void *ctx, const char *key, const char *value), void *ctx);

/* `bpfsweep system`: meta's system lines, then sc's, then the warnings or "no warnings". */
void syscheck_show(FILE *f, const struct sys_check *sc);

#endif
