// SPDX-License-Identifier: GPL-2.0
/*
 * The system check over fake /proc and /sys trees made here: each fact
 * read back as its meta line, each problem warned of with what to do, and
 * a quiet machine with no warning.  The BPF part cannot be faked by files:
 * its struct is filled by hand.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "syscheck.h"

static char root[64];

/* root/path holding text, its directories made. */
static void put_file(const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (char *p = strchr(full + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* A quiet 4-CPU machine: nothing to warn of. */
static void make_quiet(void)
{
	char path[96];

	snprintf(root, sizeof(root), "/tmp/syscheck.XXXXXX");
	if (!mkdtemp(root))
		root[0] = '\0';
	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		put_file(path, "performance\n");
	}
	put_file("/proc/loadavg", "0.10 0.20 0.30 1/99 2524\n");
	put_file("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse\n\n");
	put_file("/sys/devices/system/cpu/online", "0-3\n");
	put_file("/sys/devices/system/cpu/isolated", "2-3\n");
	put_file("/sys/devices/system/cpu/nohz_full", "\n");
	put_file("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	put_file("/sys/devices/system/cpu/smt/active", "1\n");
	put_file("/proc/sys/net/core/bpf_jit_enable", "1\n");
	put_file("/proc/sys/net/core/bpf_jit_harden", "0\n");
	put_file("/proc/sys/kernel/bpf_stats_enabled", "0\n");
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* The tree make_quiet() made, deepest first. */
static void remove_root(void)
{
	if (root[0] && nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "# cannot remove %s\n", root);
}

static void add_line(void *buf, const char *key, const char *value)
{
	size_t n = strlen(buf);

	snprintf((char *)buf + n, 8192 - n, "%s: %s\n", key, value);
}

/* sc's meta lines, as one text. */
static const char *lines(const struct sys_check *sc)
{
	static char buf[8192];

	buf[0] = '\0';
	syscheck_lines(sc, add_line, buf);
	return buf;
}

/* The warning that starts with prefix, or NULL. */
static const char *warning(const struct sys_check *sc, const char *prefix)
{
	for (int i = 0; i < sc->nr_warn; i++)
		if (!strncmp(sc->warn[i], prefix, strlen(prefix)))
			return sc->warn[i];
	return NULL;
}

/* Read the fake root (no BPF scan), the test's changes applied. */
static void read_root(struct sys_check *sc)
{
	syscheck_read(root, false, 0, sc);
}

TEST(quiet_machine_no_warning)
{
	struct sys_check sc;
	const char *text;

	make_quiet();
	read_root(&sc);
	CHECK_INT(sc.nr_warn, 0);
	text = lines(&sc);
	CHECK(strstr(text, "runnable: 1 of 99 tasks\n") != NULL);
	CHECK(strstr(text, "cpus_online: 0-3 (4)\n") != NULL);
	CHECK(strstr(text, "isolated_cpus: 2-3\n") != NULL);
	CHECK(strstr(text, "nohz_full: none\n") != NULL);
	CHECK(strstr(text, "bpf_jit_enable: 1\n") != NULL);
	CHECK(strstr(text, "bpf_jit_harden: 0\n") != NULL);
	CHECK(strstr(text, "bpf_stats_enabled: 0\n") != NULL);
	CHECK(strstr(text, "bpf_stats_active: unknown\n") != NULL);
	CHECK(strstr(text, "system_warning") == NULL);
	CHECK_INT(sc.sys.nr_gov, 4);
	CHECK_INT(meta_system_boost(&sc.sys), 0);
	syscheck_free(&sc);
	remove_root();
}

TEST(absent_files_unknown)
{
	struct sys_check sc;
	const char *text;

	make_quiet();
	unlink(strcat(strcpy((char[256]){ 0 }, root), "/sys/devices/system/cpu/isolated"));
	unlink(strcat(strcpy((char[256]){ 0 }, root), "/proc/sys/net/core/bpf_jit_harden"));
	unlink(strcat(strcpy((char[256]){ 0 }, root), "/proc/loadavg"));
	read_root(&sc);
	text = lines(&sc);
	CHECK(strstr(text, "isolated_cpus: unknown\n") != NULL);
	CHECK(strstr(text, "bpf_jit_harden: unknown\n") != NULL);
	CHECK(strstr(text, "runnable: unknown\n") != NULL);
	CHECK_INT(sc.nr_warn, 0);
	syscheck_free(&sc);
	remove_root();
}

TEST(load_warned_with_what_to_do)
{
	struct sys_check sc;

	make_quiet();
	put_file("/sys/devices/system/cpu/online", "0-1\n");
	put_file("/proc/loadavg", "6.30 5.00 4.00 7/123 999\n");
	read_root(&sc);
	CHECK_STR(warning(&sc, "load"), "load 6.3 on 2 CPUs: other work will distort the "
		  "numbers; wait for it to end or stop it (top shows what runs)");
	CHECK(strstr(lines(&sc), "runnable: 7 of 123 tasks\n") != NULL);
	CHECK(strstr(lines(&sc), "system_warning: load 6.3 on 2 CPUs") != NULL);
	syscheck_free(&sc);
	/* half the CPUs busy: still under the limit of 4 CPUs' check */
	put_file("/sys/devices/system/cpu/online", "0-3\n");
	put_file("/proc/loadavg", "1.50 1.00 1.00 2/123 999\n");
	read_root(&sc);
	CHECK(warning(&sc, "load") == NULL);
	syscheck_free(&sc);
	remove_root();
}

TEST(governor_and_boost)
{
	struct sys_check sc;

	make_quiet();
	put_file("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	put_file("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	read_root(&sc);
	CHECK(warning(&sc, "CPU governor powersave: ") != NULL);
	CHECK(warning(&sc, "CPU boost on: ") != NULL);
	CHECK(strstr(warning(&sc, "CPU boost on") ?: "", "cpufreq/boost") != NULL);
	syscheck_free(&sc);
	/* intel_pstate: no_turbo 0 is boost on, 1 off */
	unlink(strcat(strcpy((char[256]){ 0 }, root), "/sys/devices/system/cpu/cpufreq/boost"));
	put_file("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	read_root(&sc);
	CHECK(warning(&sc, "CPU boost on: ") != NULL);
	syscheck_free(&sc);
	put_file("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	read_root(&sc);
	CHECK(warning(&sc, "CPU boost") == NULL);
	syscheck_free(&sc);
	remove_root();
}

TEST(virtualised)
{
	struct sys_check sc;

	make_quiet();
	put_file("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisor lahf_lm\n\n");
	put_file("/sys/class/dmi/id/sys_vendor", "QEMU\n");
	read_root(&sc);
	CHECK_STR(warning(&sc, "virtualised"), "virtualised (QEMU): the hypervisor's exits and "
		  "other guests are in the numbers; compare runs of the same VM only, or run on "
		  "bare metal");
	syscheck_free(&sc);
	/* a Xen guest without the flag (a PV guest): /sys/hypervisor/type */
	put_file("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu\n\n");
	put_file("/sys/hypervisor/type", "xen\n");
	read_root(&sc);
	CHECK(warning(&sc, "virtualised (xen)") != NULL);
	syscheck_free(&sc);
	remove_root();
}

TEST(jit_and_statistics)
{
	struct sys_check sc;

	make_quiet();
	put_file("/proc/sys/net/core/bpf_jit_enable", "0\n");
	put_file("/proc/sys/net/core/bpf_jit_harden", "2\n");
	put_file("/proc/sys/kernel/bpf_stats_enabled", "1\n");
	read_root(&sc);
	CHECK(strstr(warning(&sc, "bpf_jit_enable 0") ?: "", "net.core.bpf_jit_enable=1") != NULL);
	CHECK(strstr(warning(&sc, "bpf_jit_harden 2") ?: "", "net.core.bpf_jit_harden=0") != NULL);
	CHECK(strstr(warning(&sc, "bpf_stats_enabled 1") ?: "",
		     "kernel.bpf_stats_enabled=0") != NULL);
	CHECK_INT(sc.nr_warn, 3);
	syscheck_free(&sc);
	/* hardening of unprivileged programs only: not bpfsweep's, which runs as root */
	put_file("/proc/sys/net/core/bpf_jit_harden", "1\n");
	put_file("/proc/sys/net/core/bpf_jit_enable", "1\n");
	put_file("/proc/sys/kernel/bpf_stats_enabled", "0\n");
	read_root(&sc);
	CHECK_INT(sc.nr_warn, 0);
	syscheck_free(&sc);
	remove_root();
}

/* Programs on bpfsweep's hooks, and statistics someone else holds on. */
TEST(other_bpf_programs)
{
	struct sys_check sc;
	const char *text;

	make_quiet();
	read_root(&sc);
	sc.has_bpf = true;
	sc.bpf = (struct sys_bpf){ .nr_progs = 3, .by_type = "tracing 2, raw_tracepoint 1",
				   .nr_hooked = 1, .stats_active = 1,
				   .hooked = "raw_tp sys_enter: prog 7 (snoop), link 3" };
	syscheck_assess(&sc);
	CHECK_STR(warning(&sc, "1 other BPF program"), "1 other BPF program on the hooks "
		  "bpfsweep uses (raw_tp sys_enter: prog 7 (snoop), link 3): they run in the "
		  "measured syscalls too; detach them (bpftool link detach id N) or expect lower "
		  "rates");
	CHECK(strstr(warning(&sc, "the kernel's BPF run-time statistics are on") ?: "",
		     "BPF_ENABLE_STATS") != NULL);
	text = lines(&sc);
	CHECK(strstr(text, "bpf_progs: 3 (tracing 2, raw_tracepoint 1)\n") != NULL);
	CHECK(strstr(text, "bpf_hooks: raw_tp sys_enter: prog 7 (snoop), link 3\n") != NULL);
	CHECK(strstr(text, "bpf_stats_active: yes\n") != NULL);
	sc.bpf = (struct sys_bpf){ .stats_active = 0 };
	syscheck_assess(&sc);
	CHECK_INT(sc.nr_warn, 0);
	CHECK(strstr(lines(&sc), "bpf_hooks: none on raw_tp sys_enter, sys_exit, task_rename, "
		     "bpf_trigger_tp\n") != NULL);
	sc.bpf = (struct sys_bpf){ .err = -EPERM, .stats_active = -1 };
	CHECK(strstr(lines(&sc), "bpf_progs: unknown (Operation not permitted)\n") != NULL);
	syscheck_free(&sc);
	remove_root();
}

/* What `bpfsweep system` prints of the fake root (free()), or NULL. */
static char *shown(void)
{
	struct sys_check sc;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	read_root(&sc);
	f = open_memstream(&out, &len);
	if (f) {
		syscheck_show(f, &sc);
		fclose(f);
	}
	syscheck_free(&sc);
	return out;
}

/*
 * `bpfsweep system`: a verdict per check first, the warnings leading,
 * each with the name --quiet-warning takes; the facts after them.
 */
TEST(show)
{
	const char *facts, *warning_line, *ok_line;
	char *out;

	make_quiet();
	put_file("/proc/sys/net/core/bpf_jit_enable", "0\n");
	out = shown();
	CHECK(out);
	facts = strstr(out, "\nfacts:\n");
	CHECK(facts);
	CHECK(!strncmp(out, "WARNING  bpf_jit_enable 0: ", 27));
	warning_line = strstr(out, "WARNING  bpf_jit_enable 0: ");
	CHECK(strstr(warning_line, "net.core.bpf_jit_enable=1 [--quiet-warning=bpf_jit_enable]\n"));
	ok_line = strstr(out, "\nOK       CPU governor performance on every CPU\n");
	CHECK(ok_line && ok_line < facts);
	ok_line = strstr(out, "\nOK       load 0.1 on 4 CPUs\n");
	CHECK(ok_line && ok_line < facts);
	CHECK(strstr(facts, "cpu_governor: performance\n"));
	CHECK(strstr(facts, "bpf_jit_enable: 0\n"));
	CHECK(!strstr(out, "system_warning"));
	free(out);
	put_file("/proc/sys/net/core/bpf_jit_enable", "1\n");
	out = shown();
	CHECK(out && !strstr(out, "WARNING"));
	CHECK(out && strstr(out, "\nno warnings: ") < strstr(out, "\nfacts:\n"));
	free(out);
	remove_root();
}

/* Every warning has a name from the list, the one --quiet-warning takes. */
TEST(warning_names)
{
	struct sys_check sc;
	char near[64];

	make_quiet();
	put_file("/proc/loadavg", "9.00 8.00 7.00 12/345 999\n");
	put_file("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisor\n\n");
	put_file("/proc/sys/kernel/bpf_stats_enabled", "1\n");
	read_root(&sc);
	CHECK_INT(sc.nr_warn, 3);
	CHECK_STR(sc.warn_name[0], "load");
	CHECK_STR(sc.warn_name[1], "virtualised");
	CHECK_STR(sc.warn_name[2], "bpf_stats_enabled");
	for (int i = 0; i < sc.nr_warn; i++)
		CHECK(syscheck_name_known(sc.warn_name[i], near, sizeof(near)));
	/* one verdict per check at most, each named */
	for (int i = 0; i < sc.nr_checks; i++)
		CHECK(syscheck_name_known(sc.check[i].name, near, sizeof(near)));
	CHECK(!syscheck_name_known("virtualized", near, sizeof(near)));
	CHECK_STR(near, "virtualised");
	syscheck_free(&sc);
	remove_root();
}

/* The verdict of check name, or NULL. */
static const struct sc_result *check_of(const struct sys_check *sc, const char *name)
{
	for (int i = 0; i < sc->nr_checks; i++)
		if (!strcmp(sc->check[i].name, name))
			return &sc->check[i];
	return NULL;
}

/* perf_event_open() refuses --profile's frequency above perf_event_max_sample_rate. */
TEST(perf_sample_rate)
{
	struct sys_check sc;

	make_quiet();
	put_file("/proc/sys/kernel/perf_event_max_sample_rate", "50\n");
	syscheck_read(root, false, 99, &sc);
	CHECK_STR(warning(&sc, "perf_event_max_sample_rate"), "perf_event_max_sample_rate 50: "
		  "below --profile's 99 Hz, so its sampler cannot open (the kernel lowers it when "
		  "perf's interrupts run long); sysctl kernel.perf_event_max_sample_rate=1000, or "
		  "--set profile_hz=50");
	CHECK(strstr(lines(&sc), "perf_event_max_sample_rate: 50\n"));
	syscheck_free(&sc);
	/* a run that does not profile: nothing to warn of */
	syscheck_read(root, false, 0, &sc);
	CHECK_INT(sc.nr_warn, 0);
	CHECK_INT(check_of(&sc, "perf_event_max_sample_rate")->verdict, SC_OK);
	syscheck_free(&sc);
	put_file("/proc/sys/kernel/perf_event_max_sample_rate", "100000\n");
	syscheck_read(root, false, 99, &sc);
	CHECK_INT(sc.nr_warn, 0);
	syscheck_free(&sc);
	remove_root();
}

/* sc judged again with the run on CPUs list. */
static void run_on(struct sys_check *sc, const char *list)
{
	cpus_parse(list, &sc->run_cpus);
	syscheck_assess(sc);
}

/*
 * irqbalance (a process of that comm) and the IRQs allowed on the run's
 * CPUs matter when the run has CPUs to keep free of them; with every
 * online CPU the run's, there is nowhere else to put them.
 */
TEST(irq_affinity_and_irqbalance)
{
	struct sys_check sc;
	const struct sc_result *c;

	make_quiet();
	put_file("/proc/42/comm", "irqbalance\n");
	put_file("/proc/7/comm", "systemd\n");
	put_file("/proc/irq/24/smp_affinity_list", "0-3\n");
	put_file("/proc/irq/25/smp_affinity_list", "0-1\n");
	put_file("/proc/irq/26/smp_affinity_list", "3\n");
	put_file("/proc/irq/default_smp_affinity", "f\n");
	read_root(&sc);
	CHECK_INT(sc.irqbalance, 1);
	CHECK_INT(sc.nr_irqs, 3);
	run_on(&sc, "0-3");
	CHECK_INT(sc.nr_warn, 0);
	CHECK_INT(check_of(&sc, "irqbalance")->verdict, SC_OK);
	run_on(&sc, "2-3");
	CHECK(strstr(warning(&sc, "irqbalance running") ?: "", "systemctl stop irqbalance"));
	c = check_of(&sc, "irq_affinity");
	CHECK_INT(c->verdict, SC_WARNING);
	CHECK(!strncmp(c->text, "IRQ affinity: 2 of 3 IRQs may run on the run's CPUs 2-3", 55));
	CHECK(strstr(lines(&sc), "run_cpus: 2-3\nirqbalance: running\n"
		     "irq_affinity: 3 IRQs, 2 of them allowed on run_cpus\n"));
	/* the IRQs kept off the run's CPUs, irqbalance stopped: quiet */
	put_file("/proc/irq/24/smp_affinity_list", "0-1\n");
	put_file("/proc/irq/26/smp_affinity_list", "1\n");
	put_file("/proc/42/comm", "bash\n");
	syscheck_free(&sc);
	read_root(&sc);
	run_on(&sc, "2-3");
	CHECK_INT(sc.nr_warn, 0);
	CHECK_INT(check_of(&sc, "irq_affinity")->verdict, SC_OK);
	syscheck_free(&sc);
	remove_root();
}

/* Isolated CPUs still run RCU callbacks unless rcu_nocbs= (or nohz_full=) names them. */
TEST(rcu_nocbs)
{
	struct sys_check sc;

	make_quiet();	/* isolated: 2-3 */
	put_file("/proc/cmdline", "ro quiet isolcpus=2-3\n");
	read_root(&sc);
	CHECK_STR(warning(&sc, "rcu_nocbs"), "rcu_nocbs: the isolated CPUs 2-3 still run RCU "
		  "callbacks; boot with rcu_nocbs=2-3 beside isolcpus=");
	CHECK(strstr(lines(&sc), "rcu_nocbs: none\n"));
	syscheck_free(&sc);
	put_file("/proc/cmdline", "ro isolcpus=2-3 rcu_nocbs=2-3 quiet\n");
	read_root(&sc);
	CHECK(warning(&sc, "rcu_nocbs") == NULL);
	CHECK(strstr(lines(&sc), "rcu_nocbs: 2-3\n"));
	syscheck_free(&sc);
	/* nohz_full CPUs are offloaded too */
	put_file("/proc/cmdline", "ro isolcpus=2-3 nohz_full=3 rcu_nocbs=2\n");
	put_file("/sys/devices/system/cpu/nohz_full", "3\n");
	read_root(&sc);
	CHECK(warning(&sc, "rcu_nocbs") == NULL);
	syscheck_free(&sc);
	/* no isolated CPUs: nothing to keep them off */
	put_file("/sys/devices/system/cpu/isolated", "\n");
	put_file("/proc/cmdline", "ro quiet\n");
	read_root(&sc);
	CHECK_INT(check_of(&sc, "rcu_nocbs")->verdict, SC_OK);
	syscheck_free(&sc);
	remove_root();
}

/* The kernel's CPU lists, and the command line's parameters. */
TEST(cpu_lists_and_cmdline)
{
	cpu_set_t set;
	char buf[64];

	CHECK_INT(cpus_parse("0-3,8,10-11\n", &set), 0);
	cpus_format(&set, buf, sizeof(buf));
	CHECK_STR(buf, "0-3,8,10-11");
	CHECK_INT(cpus_parse("", &set), 0);
	cpus_format(&set, buf, sizeof(buf));
	CHECK_STR(buf, "none");
	CHECK(cpus_parse("3-1", &set) < 0);
	CHECK(cpus_parse("1,x", &set) < 0);
	CHECK(cmdline_param("a rcu_nocbs_poll rcu_nocbs=1-3 b", "rcu_nocbs", buf, sizeof(buf)));
	CHECK_STR(buf, "1-3");
	CHECK(cmdline_param("a rcu_nocbs", "rcu_nocbs", buf, sizeof(buf)));
	CHECK_STR(buf, "");
	CHECK(!cmdline_param("a rcu_nocbs_poll", "rcu_nocbs", buf, sizeof(buf)));
}

RUN_TESTS(quiet_machine_no_warning, absent_files_unknown, load_warned_with_what_to_do,
	  governor_and_boost, virtualised, jit_and_statistics, other_bpf_programs, show,
	  warning_names, perf_sample_rate, irq_affinity_and_irqbalance, rcu_nocbs,
	  cpu_lists_and_cmdline)
