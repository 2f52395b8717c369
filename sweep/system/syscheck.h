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
#include "sysirq.h"

#define SYSCHECK_MAX_WARN	16	/* at least one per name of syscheck_names[] */
#define SYSCHECK_WARN_LEN	400

enum syscheck_file {
	SC_ONLINE,		/* /sys/devices/system/cpu/online: "0-1" */
	SC_ISOLATED,		/* /sys/devices/system/cpu/isolated: "" or "2-3" */
	SC_NOHZ_FULL,		/* /sys/devices/system/cpu/nohz_full */
	SC_JIT_ENABLE,		/* /proc/sys/net/core/bpf_jit_enable */
	SC_JIT_HARDEN,		/* /proc/sys/net/core/bpf_jit_harden */
	SC_STATS_ENABLED,	/* /proc/sys/kernel/bpf_stats_enabled */
	SC_PERF_RATE,		/* /proc/sys/kernel/perf_event_max_sample_rate */
	NR_SC_FILES,
};

/*
 * The checks' names, NULL-terminated: short, stable (--quiet-warning NAME
 * takes them, and a run's warning ends "[--quiet-warning=NAME]"), each
 * the fact it judges where there is one.
 */
extern const char *const syscheck_names[];

/* One check's verdict. */
enum sc_verdict { SC_OK, SC_UNKNOWN, SC_WARNING };

struct sc_result {
	const char *name;		/* one of syscheck_names[] */
	enum sc_verdict verdict;
	char text[SYSCHECK_WARN_LEN];	/* what it found; for a warning, what to do too */
};

/* Not to be copied: warn[] points into check[]. */
struct sys_check {
	struct meta_system sys;		/* governor, boost, SMT, VM, load (sysfacts.h) */
	char *file[NR_SC_FILES];	/* first line of each; NULL when absent or empty */
	bool present[NR_SC_FILES];	/* readable (an empty isolated is "none") */
	bool has_bpf;			/* bpf below was scanned */
	struct sys_bpf bpf;
	int profile_hz;			/* the run's --profile frequency; 0: none */
	cpu_set_t run_cpus;		/* where this process may run (sched_getaffinity) */
	int irqbalance;			/* running: 1, 0, -1 unknown */
	cpu_set_t *irq_aff;		/* each IRQ's smp_affinity_list; NULL: unknown */
	int nr_irqs;
	struct sc_result check[SYSCHECK_MAX_WARN];	/* every check's, in order */
	int nr_checks;
	const char *warn[SYSCHECK_MAX_WARN];	/* the warnings' texts among them */
	const char *warn_name[SYSCHECK_MAX_WARN];	/* and their names */
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
 * machine (sysbpf.h: root cannot fake those), and the CPUs this process
 * may run on; then the verdicts, judging perf's sample rate against
 * profile_hz (0: the run does not profile).  syscheck_free() frees what it
 * read.
 */
void syscheck_read(const char *root, bool scan_bpf, int profile_hz, struct sys_check *sc);
void syscheck_free(struct sys_check *sc);

/* The verdicts of what sc holds into sc->check, the warnings (with what to do) in sc->warn. */
void syscheck_assess(struct sys_check *sc);

/* Does --quiet-warning (quiet[0..nr)) name the warning name? */
bool syscheck_quieted(const char *const *quiet, int nr, const char *name);

/* Is name one of syscheck_names[]?  If not, the nearest into near (or ""). */
bool syscheck_name_known(const char *name, char *near, size_t len);

/*
 * sc's own facts as meta lines (runnable, cpus_online, isolated_cpus,
 * nohz_full, bpf_jit_enable, bpf_jit_harden, bpf_stats_enabled,
 * bpf_stats_active, bpf_progs, bpf_hooks, perf_event_max_sample_rate,
 * run_cpus, irqbalance, irq_affinity, rcu_nocbs, then a system_warning
 * per warning), each through put(ctx, key, value).
 */
void syscheck_lines(const struct sys_check *sc,
		    void (*put)(void *ctx, const char *key, const char *value), void *ctx);

/*
 * `bpfsweep system` (syscheck_show.c): a line per check, its verdict
 * first (WARNING, OK, unknown) as pyperf's `system show` leads with them,
 * then the facts: meta's system lines and sc's.
 */
void syscheck_show(FILE *f, const struct sys_check *sc);

#endif
