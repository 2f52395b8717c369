// SPDX-License-Identifier: GPL-2.0
/*
 * The system check (syscheck.h).  Every file is read under a root that a
 * test replaces with a fake tree, as meta's system facts are (meta.c);
 * the BPF programs come from the kernel itself (adapters/sysbpf.c), and
 * the CPUs the run may use from sched_getaffinity().  Each check has a
 * verdict; the warnings say what moves the numbers and what to do, once,
 * before a sweep: nothing here runs while points are measured.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suggest.h"
#include "syscheck.h"
#include "textfile.h"

const char *const syscheck_names[] = {
	"load", "governor", "boost", "virtualised", "bpf_jit_enable", "bpf_jit_harden",
	"bpf_stats_enabled", "bpf_stats_active", "bpf_hooks", "perf_event_max_sample_rate",
	"irqbalance", "irq_affinity", "rcu_nocbs", NULL
};

const char *const syscheck_hooks[] = { "sys_enter", "sys_exit", "task_rename", "bpf_trigger_tp",
				       NULL };

static const char *const sc_paths[NR_SC_FILES] = {
	[SC_ONLINE] = "/sys/devices/system/cpu/online",
	[SC_ISOLATED] = "/sys/devices/system/cpu/isolated",
	[SC_NOHZ_FULL] = "/sys/devices/system/cpu/nohz_full",
	[SC_JIT_ENABLE] = "/proc/sys/net/core/bpf_jit_enable",
	[SC_JIT_HARDEN] = "/proc/sys/net/core/bpf_jit_harden",
	[SC_STATS_ENABLED] = "/proc/sys/kernel/bpf_stats_enabled",
	[SC_PERF_RATE] = "/proc/sys/kernel/perf_event_max_sample_rate",
};

const char *syscheck_root(void)
{
	const char *root = getenv("BPFSWEEP_SYSROOT");

	return root ? root : "";
}

bool syscheck_quieted(const char *const *quiet, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(quiet[i], name))
			return true;
	return false;
}

bool syscheck_name_known(const char *name, char *near, size_t len)
{
	struct suggest sg;

	suggest_init(&sg, name);
	for (int i = 0; syscheck_names[i]; i++) {
		if (!strcmp(name, syscheck_names[i]))
			return true;
		suggest_add(&sg, syscheck_names[i]);
	}
	snprintf(near, len, "%s", suggest_best(&sg) ?: "");
	return false;
}

/* Where interrupts may go, and who moves them; what the run may use. */
static void read_irqs(const char *root, struct sys_check *sc)
{
	if (sched_getaffinity(0, sizeof(sc->run_cpus), &sc->run_cpus))
		CPU_ZERO(&sc->run_cpus);
	sc->irqbalance = sys_proc_running(root, "irqbalance");
	if (sys_irq_affinities(root, &sc->irq_aff, &sc->nr_irqs)) {
		free(sc->irq_aff);
		sc->irq_aff = NULL;
		sc->nr_irqs = 0;
	}
}

void syscheck_read(const char *root, bool scan_bpf, int profile_hz, struct sys_check *sc)
{
	char path[PATH_MAX];

	memset(sc, 0, sizeof(*sc));
	sc->profile_hz = profile_hz;
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
	read_irqs(root, sc);
	syscheck_assess(sc);
}

void syscheck_free(struct sys_check *sc)
{
	meta_system_free(&sc->sys);
	for (int i = 0; i < NR_SC_FILES; i++)
		free(sc->file[i]);
	free(sc->irq_aff);
}

/* More CPU ids than any kernel has (NR_CPUS is at most 8192): a list past it is not one. */
#define MAX_CPU_ID	(1 << 16)

/* CPUs in a sysfs list, "0-3,8,10-11"; 0 when absent or unparsable. */
static int count_cpus(const char *list)
{
	int n = 0;

	while (list && *list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list || a < 0 || a > MAX_CPU_ID)
			return 0;
		if (*end == '-') {
			list = end + 1;
			b = strtol(list, &end, 10);
			if (end == list || b < a || b > MAX_CPU_ID)
				return 0;
		}
		/* a list that names a CPU twice counts it twice: bounded all the same */
		if (n > MAX_CPU_ID)
			return 0;
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

/* Check name's verdict, and its text; a warning's says what to do. */
static void __attribute__((format(printf, 4, 5)))
verdict(struct sys_check *sc, const char *name, enum sc_verdict v, const char *fmt, ...)
{
	struct sc_result *c = &sc->check[sc->nr_checks];
	va_list ap;

	if (sc->nr_checks >= SYSCHECK_MAX_WARN)
		return;
	sc->nr_checks++;
	c->name = name;
	c->verdict = v;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
	if (v != SC_WARNING)
		return;
	sc->warn_name[sc->nr_warn] = name;
	sc->warn[sc->nr_warn++] = c->text;
}

#define warn(sc, name, ...)	verdict(sc, name, SC_WARNING, __VA_ARGS__)
#define ok(sc, name, ...)	verdict(sc, name, SC_OK, __VA_ARGS__)
#define unknown(sc, name, ...)	verdict(sc, name, SC_UNKNOWN, __VA_ARGS__)

/* pyperf warns at a load of half the CPUs; one busy task on 2 CPUs is already one of them. */
static void assess_load(struct sys_check *sc)
{
	int cpus = count_cpus(sc->file[SC_ONLINE]), running, total;
	double load1;

	if (!cpus || !loadavg(sc, &load1, &running, &total))
		unknown(sc, "load", "load unknown: no /proc/loadavg or online CPUs to read");
	else if (load1 >= 1.0 && load1 >= cpus / 2.0)
		warn(sc, "load", "load %.1f on %d CPUs: other work will distort the numbers; wait "
		     "for it to end or stop it (top shows what runs)", load1, cpus);
	else
		ok(sc, "load", "load %.1f on %d CPUs", load1, cpus);
}

static void assess_governor(struct sys_check *sc)
{
	for (int i = 0; i < sc->sys.nr_gov; i++) {
		if (strcmp(sc->sys.gov[i], "performance")) {
			warn(sc, "governor", "CPU governor %s: the clock follows the load, and "
			     "rates with it; set performance (cpupower frequency-set -g "
			     "performance)", sc->sys.gov[i]);
			return;
		}
	}
	if (sc->sys.nr_gov)
		ok(sc, "governor", "CPU governor performance on every CPU");
	else
		unknown(sc, "governor", "CPU governor unknown: no cpufreq (a VM's CPUs often "
			"have none)");
}

static void assess_cpu(struct sys_check *sc)
{
	int boost = meta_system_boost(&sc->sys);
	char virt[256];

	assess_governor(sc);
	if (boost == 1)
		warn(sc, "boost", "CPU boost on: the clock follows temperature and how many "
		     "cores are busy; turn it off for steady rates (echo 0 > /sys/devices/system/"
		     "cpu/cpufreq/boost, or echo 1 > /sys/devices/system/cpu/intel_pstate/"
		     "no_turbo)");
	else if (boost == 0)
		ok(sc, "boost", "CPU boost off");
	else
		unknown(sc, "boost", "CPU boost unknown: neither cpufreq/boost nor "
			"intel_pstate/no_turbo");
	meta_system_virtualised(&sc->sys, virt, sizeof(virt));
	/* "yes" or "yes (QEMU)" */
	if (!strncmp(virt, "yes", 3))
		warn(sc, "virtualised", "virtualised%s: the hypervisor's exits and other guests "
		     "are in the numbers; compare runs of the same VM only, or run on bare metal",
		     virt + 3);
	else if (!strcmp(virt, "no"))
		ok(sc, "virtualised", "not virtualised: no hypervisor found");
	else
		unknown(sc, "virtualised", "virtualised unknown: no /proc/cpuinfo flags");
}

/* A sysctl's verdict when it is fine or unreadable. */
static void sysctl_ok(struct sys_check *sc, const char *name, enum syscheck_file i)
{
	if (sc->file[i])
		ok(sc, name, "%s %s", name, sc->file[i]);
	else
		unknown(sc, name, "%s unknown: %s unreadable", name, sc_paths[i]);
}

static void assess_jit(struct sys_check *sc)
{
	if (level(sc->file[SC_JIT_ENABLE]) == 0)
		warn(sc, "bpf_jit_enable", "bpf_jit_enable 0: BPF programs run in the "
		     "interpreter, several times slower than JITed; sysctl "
		     "net.core.bpf_jit_enable=1");
	else
		sysctl_ok(sc, "bpf_jit_enable", SC_JIT_ENABLE);
	if (level(sc->file[SC_JIT_HARDEN]) == 2)
		warn(sc, "bpf_jit_harden", "bpf_jit_harden 2: constant blinding slows every "
		     "JITed program, root's too; sysctl net.core.bpf_jit_harden=0 unless hardened "
		     "numbers are the point");
	else
		sysctl_ok(sc, "bpf_jit_harden", SC_JIT_HARDEN);
}

static void assess_stats(struct sys_check *sc)
{
	int active = sc->has_bpf ? sc->bpf.stats_active : -1;

	if (level(sc->file[SC_STATS_ENABLED]) == 1) {
		warn(sc, "bpf_stats_enabled", "bpf_stats_enabled 1: the kernel times every BPF "
		     "program run, and the rates pay for it; sysctl kernel.bpf_stats_enabled=0 "
		     "(bpfsweep turns them on only in its ns_per_run pass)");
		return;
	}
	sysctl_ok(sc, "bpf_stats_enabled", SC_STATS_ENABLED);
	if (active == 1)
		warn(sc, "bpf_stats_active", "the kernel's BPF run-time statistics are on "
		     "(another process holds BPF_ENABLE_STATS: a bpfsweep, bpftool prog profile): "
		     "the rates pay for them; wait for it to end");
	else if (active == 0)
		ok(sc, "bpf_stats_active", "the kernel's BPF run-time statistics are off");
	else
		unknown(sc, "bpf_stats_active", "the kernel's BPF run-time statistics: unknown "
			"(needs the privilege to run a BPF program)");
}

static void assess_hooks(struct sys_check *sc)
{
	if (!sc->has_bpf || sc->bpf.err)
		unknown(sc, "bpf_hooks", "BPF programs on bpfsweep's hooks: unknown%s",
			sc->has_bpf ? " (needs CAP_SYS_ADMIN)" : "");
	else if (sc->bpf.nr_hooked)
		warn(sc, "bpf_hooks", "%d other BPF program%s on the hooks bpfsweep uses (%s): "
		     "they run in the measured syscalls too; detach them (bpftool link detach id "
		     "N) or expect lower rates", sc->bpf.nr_hooked,
		     sc->bpf.nr_hooked == 1 ? "" : "s", sc->bpf.hooked);
	else
		ok(sc, "bpf_hooks", "no other BPF program on bpfsweep's hooks");
}

static void assess_bpf(struct sys_check *sc)
{
	assess_jit(sc);
	assess_stats(sc);
	assess_hooks(sc);
}

/*
 * perf_event_open() refuses a frequency above perf_event_max_sample_rate
 * (EINVAL), and the kernel lowers the sysctl by itself when perf's
 * interrupts run long ("perf: interrupt took too long"): --profile's
 * sampler would not open.
 */
static void assess_perf_rate(struct sys_check *sc)
{
	const char *text = sc->file[SC_PERF_RATE];
	long rate = text ? strtol(text, NULL, 10) : -1;

	if (rate < 0)
		unknown(sc, "perf_event_max_sample_rate", "perf_event_max_sample_rate unknown: "
			"%s unreadable", sc_paths[SC_PERF_RATE]);
	else if (!sc->profile_hz)
		ok(sc, "perf_event_max_sample_rate", "perf_event_max_sample_rate %ld (the run "
		   "does not profile)", rate);
	else if (rate < sc->profile_hz)
		warn(sc, "perf_event_max_sample_rate", "perf_event_max_sample_rate %ld: below "
		     "--profile's %d Hz, so its sampler cannot open (the kernel lowers it when "
		     "perf's interrupts run long); sysctl kernel.perf_event_max_sample_rate=%d, "
		     "or --set profile_hz=%ld", rate, sc->profile_hz,
		     sc->profile_hz > 1000 ? sc->profile_hz : 1000, rate);
	else
		ok(sc, "perf_event_max_sample_rate", "perf_event_max_sample_rate %ld, not below "
		   "--profile's %d Hz", rate, sc->profile_hz);
}

/* The run may use every online CPU: there is nowhere else to put interrupts. */
static bool run_has_all(const struct sys_check *sc, cpu_set_t *online)
{
	return sc->file[SC_ONLINE] && !cpus_parse(sc->file[SC_ONLINE], online) &&
	       cpus_within(online, &sc->run_cpus);
}

/* How many IRQs may run on one of the run's CPUs. */
static int irqs_on_run(const struct sys_check *sc)
{
	int n = 0;

	for (int i = 0; i < sc->nr_irqs; i++) {
		cpu_set_t both;

		CPU_AND(&both, &sc->irq_aff[i], &sc->run_cpus);
		n += CPU_COUNT(&both) > 0;
	}
	return n;
}

/*
 * pyperf's IRQ affinity check, for the CPUs this run may use (taskset,
 * cgroup cpuset): the interrupts allowed on them take time from the
 * measured threads, and irqbalance moves interrupts among all CPUs every
 * few seconds, undoing a placement.  Where the run has every online CPU,
 * there is nowhere else to put them, and nothing to advise.
 */
static void assess_irqs(struct sys_check *sc)
{
	char run[256];
	cpu_set_t online;
	bool all = run_has_all(sc, &online);
	int on = irqs_on_run(sc);

	cpus_format(&sc->run_cpus, run, sizeof(run));
	if (sc->irqbalance < 0)
		unknown(sc, "irqbalance", "irqbalance unknown: no /proc to scan");
	else if (!sc->irqbalance)
		ok(sc, "irqbalance", "irqbalance not running");
	else if (all)
		ok(sc, "irqbalance", "irqbalance running; the run may use every online CPU, so "
		   "interrupts have nowhere else to go");
	else
		warn(sc, "irqbalance", "irqbalance running: it moves interrupts onto any CPU, "
		     "the run's %s too, every few seconds; stop it while measuring (systemctl stop "
		     "irqbalance) and keep the IRQs off %s", run, run);
	if (!sc->irq_aff)
		unknown(sc, "irq_affinity", "IRQ affinity unknown: no /proc/irq to read");
	else if (all)
		ok(sc, "irq_affinity", "IRQ affinity: the run may use every online CPU (%s), "
		   "so interrupts share them; taskset -c or isolcpus= would leave some free", run);
	else if (on)
		warn(sc, "irq_affinity", "IRQ affinity: %d of %d IRQs may run on the run's CPUs "
		     "%s, taking time from the measured threads; move them (as root, echo LIST > "
		     "/proc/irq/N/smp_affinity_list with the other CPUs) and stop irqbalance",
		     on, sc->nr_irqs, run);
	else
		ok(sc, "irq_affinity", "IRQ affinity: none of %d IRQs may run on the run's "
		   "CPUs %s", sc->nr_irqs, run);
}

/*
 * pyperf's advice with isolcpus=: RCU callbacks still run on isolated
 * CPUs unless rcu_nocbs= offloads them; the kernel offloads nohz_full=
 * CPUs too.
 */
static void assess_rcu_nocbs(struct sys_check *sc)
{
	const char *iso = sc->file[SC_ISOLATED], *cmdline = sc->sys.file[META_CMDLINE];
	char nocbs[256] = "", list[256];
	cpu_set_t isolated, covered, nohz;

	if (!cmdline) {
		unknown(sc, "rcu_nocbs", "rcu_nocbs unknown: no /proc/cmdline");
		return;
	}
	if (!iso || !*iso || cpus_parse(iso, &isolated) || !CPU_COUNT(&isolated)) {
		ok(sc, "rcu_nocbs", "rcu_nocbs: no isolated CPUs (isolcpus=) to keep RCU "
		   "callbacks off");
		return;
	}
	if (!cmdline_param(cmdline, "rcu_nocbs", nocbs, sizeof(nocbs)) ||
	    cpus_parse(nocbs, &covered))
		CPU_ZERO(&covered);
	if (sc->file[SC_NOHZ_FULL] && !cpus_parse(sc->file[SC_NOHZ_FULL], &nohz))
		CPU_OR(&covered, &covered, &nohz);
	cpus_format(&isolated, list, sizeof(list));
	if (cpus_within(&isolated, &covered))
		ok(sc, "rcu_nocbs", "rcu_nocbs: the isolated CPUs %s run no RCU callbacks", list);
	else
		warn(sc, "rcu_nocbs", "rcu_nocbs: the isolated CPUs %s still run RCU callbacks; "
		     "boot with rcu_nocbs=%s beside isolcpus=", list, list);
}

void syscheck_assess(struct sys_check *sc)
{
	sc->nr_warn = sc->nr_checks = 0;
	assess_load(sc);
	assess_cpu(sc);
	assess_bpf(sc);
	assess_perf_rate(sc);
	assess_irqs(sc);
	assess_rcu_nocbs(sc);
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

/* run_cpus, irqbalance, irq_affinity and rcu_nocbs. */
static void irq_lines(const struct sys_check *sc,
		      void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	const char *cmdline = sc->sys.file[META_CMDLINE];
	char buf[320];

	cpus_format(&sc->run_cpus, buf, sizeof(buf));
	put(ctx, "run_cpus", CPU_COUNT(&sc->run_cpus) ? buf : "unknown");
	put(ctx, "irqbalance", sc->irqbalance < 0 ? "unknown" : sc->irqbalance ? "running" :
	    "not running");
	snprintf(buf, sizeof(buf), "%d IRQs, %d of them allowed on run_cpus", sc->nr_irqs,
		 irqs_on_run(sc));
	put(ctx, "irq_affinity", sc->irq_aff ? buf : "unknown");
	if (cmdline && !cmdline_param(cmdline, "rcu_nocbs", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "none");
	else if (cmdline && !buf[0])
		snprintf(buf, sizeof(buf), "given without a list");
	put(ctx, "rcu_nocbs", cmdline ? buf : "unknown");
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
	put(ctx, "perf_event_max_sample_rate", value_of(sc, SC_PERF_RATE));
	irq_lines(sc, put, ctx);
	for (int i = 0; i < sc->nr_warn; i++)
		put(ctx, "system_warning", sc->warn[i]);
}
