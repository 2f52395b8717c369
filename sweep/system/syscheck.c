// SPDX-License-Identifier: GPL-2.0
/*
 * The system check (syscheck.h).  Every file is read under a root that a
 * test replaces with a fake tree, as meta's system facts are (meta.c);
 * the BPF programs come from the kernel itself (workloads/sysbpf.c).
 * The warnings say what moves the numbers and what to do, once, before a
 * sweep: nothing here runs while points are measured.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscheck.h"
#include "textfile.h"

const char *const syscheck_hooks[] = { "sys_enter", "sys_exit", "task_rename", "bpf_trigger_tp",
				       NULL };

static const char *const sc_paths[NR_SC_FILES] = {
	[SC_ONLINE] = "/sys/devices/system/cpu/online",
	[SC_ISOLATED] = "/sys/devices/system/cpu/isolated",
	[SC_NOHZ_FULL] = "/sys/devices/system/cpu/nohz_full",
	[SC_JIT_ENABLE] = "/proc/sys/net/core/bpf_jit_enable",
	[SC_JIT_HARDEN] = "/proc/sys/net/core/bpf_jit_harden",
	[SC_STATS_ENABLED] = "/proc/sys/kernel/bpf_stats_enabled",
};

const char *syscheck_root(void)
{
	const char *root = getenv("BPFSWEEP_SYSROOT");

	return root ? root : "";
}

void syscheck_read(const char *root, bool scan_bpf, struct sys_check *sc)
{
	char path[PATH_MAX];

	memset(sc, 0, sizeof(*sc));
	meta_system_read(root, &sc->sys);
	for (int i = 0; i < NR_SC_FILES; i++) {
		snprintf(path, sizeof(path), "%s%s", root, sc_paths[i]);
		sc->present[i] = !access(path, R_OK);
		sc->file[i] = read_first_line(path);
	}
	if (scan_bpf) {
		sys_bpf_scan(syscheck_hooks, &sc->bpf);
		sc->has_bpf = true;
	}
	syscheck_assess(sc);
}

void syscheck_free(struct sys_check *sc)
{
	meta_system_free(&sc->sys);
	for (int i = 0; i < NR_SC_FILES; i++)
		free(sc->file[i]);
}

/* CPUs in a sysfs list, "0-3,8,10-11"; 0 when absent or unparsable. */
static int count_cpus(const char *list)
{
	int n = 0;

	while (list && *list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list || a < 0)
			return 0;
		if (*end == '-') {
			list = end + 1;
			b = strtol(list, &end, 10);
			if (end == list || b < a)
				return 0;
		}
		n += b - a + 1;
		if (*end != ',')
			break;
		list = end + 1;
	}
	return n;
}

/* A 0/1/2 setting, -1 where absent or something else. */
static int level(const char *s)
{
	return s && s[0] >= '0' && s[0] <= '9' && !s[1] ? s[0] - '0' : -1;
}

/* The 1-minute load and "running/total" of /proc/loadavg ("0.52 0.40 0.31 1/99 2524"). */
static bool loadavg(const struct sys_check *sc, double *load1, int *running, int *total)
{
	const char *text = sc->sys.file[META_LOADAVG];
	double l5, l15;

	return text && sscanf(text, "%lf %lf %lf %d/%d", load1, &l5, &l15, running, total) == 5;
}

static void __attribute__((format(printf, 2, 3))) warn(struct sys_check *sc, const char *fmt, ...)
{
	va_list ap;

	if (sc->nr_warn >= SYSCHECK_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(sc->warn[sc->nr_warn++], SYSCHECK_WARN_LEN, fmt, ap);
	va_end(ap);
}

/* pyperf warns at a load of half the CPUs; one busy task on 2 CPUs is already one of them. */
static void assess_load(struct sys_check *sc)
{
	int cpus = count_cpus(sc->file[SC_ONLINE]), running, total;
	double load1;

	if (!cpus || !loadavg(sc, &load1, &running, &total))
		return;
	if (load1 >= 1.0 && load1 >= cpus / 2.0)
		warn(sc, "load %.1f on %d CPUs: other work will distort the numbers; wait for it "
		     "to end or stop it (top shows what runs)", load1, cpus);
}

static void assess_cpu(struct sys_check *sc)
{
	char virt[256];

	for (int i = 0; i < sc->sys.nr_gov; i++) {
		if (strcmp(sc->sys.gov[i], "performance")) {
			warn(sc, "CPU governor %s: the clock follows the load, and rates with "
			     "it; set performance (cpupower frequency-set -g performance)",
			     sc->sys.gov[i]);
			break;
		}
	}
	if (meta_system_boost(&sc->sys) == 1)
		warn(sc, "CPU boost on: the clock follows temperature and how many cores are "
		     "busy; turn it off for steady rates (echo 0 > /sys/devices/system/cpu/"
		     "cpufreq/boost, or echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo)");
	meta_system_virtualised(&sc->sys, virt, sizeof(virt));
	/* "yes" or "yes (QEMU)" */
	if (!strncmp(virt, "yes", 3))
		warn(sc, "virtualised%s: the hypervisor's exits and other guests are in the "
		     "numbers; compare runs of the same VM only, or run on bare metal", virt + 3);
}

static void assess_bpf(struct sys_check *sc)
{
	int jit = level(sc->file[SC_JIT_ENABLE]), harden = level(sc->file[SC_JIT_HARDEN]);
	int stats = level(sc->file[SC_STATS_ENABLED]);

	if (jit == 0)
		warn(sc, "bpf_jit_enable 0: BPF programs run in the interpreter, several times "
		     "slower than JITed; sysctl net.core.bpf_jit_enable=1");
	if (harden == 2)
		warn(sc, "bpf_jit_harden 2: constant blinding slows every JITed program, root's "
		     "too; sysctl net.core.bpf_jit_harden=0 unless hardened numbers are the point");
	if (stats == 1)
		warn(sc, "bpf_stats_enabled 1: the kernel times every BPF program run, and the "
		     "rates pay for it; sysctl kernel.bpf_stats_enabled=0 (bpfsweep turns them on "
		     "only in its ns_per_run pass)");
	else if (sc->has_bpf && sc->bpf.stats_active == 1)
		warn(sc, "the kernel's BPF run-time statistics are on (another process holds "
		     "BPF_ENABLE_STATS: a bpfsweep, bpftool prog profile): the rates pay for them; "
		     "wait for it to end");
	if (sc->has_bpf && sc->bpf.nr_hooked)
		warn(sc, "%d other BPF program%s on the hooks bpfsweep uses (%s): they run in "
		     "the measured syscalls too; detach them (bpftool link detach id N) or expect "
		     "lower rates", sc->bpf.nr_hooked, sc->bpf.nr_hooked == 1 ? "" : "s",
		     sc->bpf.hooked);
}

void syscheck_assess(struct sys_check *sc)
{
	sc->nr_warn = 0;
	assess_load(sc);
	assess_cpu(sc);
	assess_bpf(sc);
}

/* A file's value, "none" for one that exists empty, "unknown" for one that is absent. */
static const char *value_of(const struct sys_check *sc, enum syscheck_file i)
{
	return sc->file[i] && *sc->file[i] ? sc->file[i] : sc->present[i] ? "none" : "unknown";
}

static void bpf_lines(const struct sys_check *sc,
		      void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	char buf[768];
	size_t n = 0;
	int a = sc->bpf.stats_active;

	put(ctx, "bpf_stats_active", !sc->has_bpf || a < 0 ? "unknown" : a ? "yes" : "no");
	if (!sc->has_bpf)
		return;
	if (sc->bpf.err) {
		snprintf(buf, sizeof(buf), "unknown (%s)", strerror(-sc->bpf.err));
		put(ctx, "bpf_progs", buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%d%s%s%s", sc->bpf.nr_progs, sc->bpf.nr_progs ? " (" : "",
		 sc->bpf.by_type, sc->bpf.nr_progs ? ")" : "");
	put(ctx, "bpf_progs", buf);
	if (sc->bpf.nr_hooked) {
		put(ctx, "bpf_hooks", sc->bpf.hooked);
		return;
	}
	n = snprintf(buf, sizeof(buf), "none on raw_tp");
	for (int i = 0; syscheck_hooks[i] && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : " ", syscheck_hooks[i]);
	put(ctx, "bpf_hooks", buf);
}

void syscheck_lines(const struct sys_check *sc,
		    void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	double load1;
	int running, total;
	char buf[128];

	if (loadavg(sc, &load1, &running, &total))
		snprintf(buf, sizeof(buf), "%d of %d tasks", running, total);
	else
		snprintf(buf, sizeof(buf), "unknown");
	put(ctx, "runnable", buf);
	if (sc->file[SC_ONLINE])
		snprintf(buf, sizeof(buf), "%s (%d)", sc->file[SC_ONLINE],
			 count_cpus(sc->file[SC_ONLINE]));
	put(ctx, "cpus_online", sc->file[SC_ONLINE] ? buf : "unknown");
	put(ctx, "isolated_cpus", value_of(sc, SC_ISOLATED));
	put(ctx, "nohz_full", value_of(sc, SC_NOHZ_FULL));
	put(ctx, "bpf_jit_enable", value_of(sc, SC_JIT_ENABLE));
	put(ctx, "bpf_jit_harden", value_of(sc, SC_JIT_HARDEN));
	put(ctx, "bpf_stats_enabled", value_of(sc, SC_STATS_ENABLED));
	bpf_lines(sc, put, ctx);
	for (int i = 0; i < sc->nr_warn; i++)
		put(ctx, "system_warning", sc->warn[i]);
}

/* "key: value" as meta has it, control characters blanked: values come from files. */
static void put_line(void *f, const char *key, const char *value)
{
	/* the warnings follow, apart: `system` prints them as such */
	if (!strcmp(key, "system_warning"))
		return;
	meta_put(f, key, value);
}

void syscheck_show(FILE *f, const struct sys_check *sc)
{
	meta_system_print(f, &sc->sys);
	syscheck_lines(sc, put_line, f);
	fputc('\n', f);
	for (int i = 0; i < sc->nr_warn; i++)
		fprintf(f, "warning: %s\n", sc->warn[i]);
	if (!sc->nr_warn)
		fprintf(f, "no warnings: nothing found that would distort the numbers\n");
}
