// SPDX-License-Identifier: GPL-2.0
/*
 * The meta file: what a reader of the numbers needs to trust or reproduce
 * them (machine, kernel, its debug options, tool versions, the run's
 * settings), as "key: value" lines.  Keys are listed in docs/results.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zlib.h>

#include "kfacts.h"
#include "meta.h"
#include "metricmeta.h"
#include "precision.h"
#include "syscheck.h"
#include "textfile.h"
#include "timing.h"
#include "version.h"

#ifndef BPFSWEEP_VERSION
#define BPFSWEEP_VERSION "unknown"
#endif
#ifndef BPFSWEEP_GIT
#define BPFSWEEP_GIT "unknown"
#endif
#ifndef BPFSWEEP_BUILD_CLANG
#define BPFSWEEP_BUILD_CLANG "unknown"
#endif
#ifndef BPFSWEEP_BUILD_BPFTOOL
#define BPFSWEEP_BUILD_BPFTOOL "unknown"
#endif
#ifndef BPFSWEEP_BUILD_BPF_CPU
#define BPFSWEEP_BUILD_BPF_CPU "unknown"
#endif

/*
 * "key: value", the value kept on one line without control characters
 * whatever it holds: values come from files, the spec and the command line,
 * and a reader (or a terminal showing meta) must see only text.
 */
static void put(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s: ", key);
	for (; val && *val; val++)
		fputc((unsigned char)*val < 0x20 || *val == 0x7f ? ' ' : *val, f);
	fputc('\n', f);
}

static void __attribute__((format(printf, 3, 4)))
putf(FILE *f, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(f, key, buf);
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/*
 * Value of the first "key : value" line of path (/proc/cpuinfo style), or
 * with sep every such value joined by sep; false if none.
 */
static bool read_keyed_sep(const char *path, const char *key, const char *sep, char *buf,
			   size_t len)
{
	char *line = NULL, *colon;
	size_t cap = 0, n = 0;
	bool found = false;
	FILE *f = fopen(path, "r");

	while (f && (sep || !found) && getline(&line, &cap, f) > 0) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (strcmp(trim(line), key) || n >= len)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", found ? sep : "", trim(colon + 1));
		found = true;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

static bool read_keyed(const char *path, const char *key, char *buf, size_t len)
{
	return read_keyed_sep(path, key, NULL, buf, len);
}

/* x86 names its model; arm64 gives "Hardware" on some boards, else implementer/part ids. */
static void put_cpu_model(FILE *f)
{
	char model[256], impl[64];

	if (read_keyed("/proc/cpuinfo", "model name", model, sizeof(model)) ||
	    read_keyed("/proc/cpuinfo", "Hardware", model, sizeof(model))) {
		put(f, "cpu_model", model);
	} else if (read_keyed("/proc/cpuinfo", "CPU part", model, sizeof(model))) {
		if (!read_keyed("/proc/cpuinfo", "CPU implementer", impl, sizeof(impl)))
			snprintf(impl, sizeof(impl), "unknown");
		putf(f, "cpu_model", "implementer %s part %s", impl, model);
	} else {
		put(f, "cpu_model", "unknown");
	}
}

/* ---- facts that decide whether two runs' numbers are comparable ---- */

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* "performance" when every CPU agrees, else "powersave on 3 CPUs, performance on 1 CPU". */
static void governor_summary(char *const *gov, int nr, char *buf, size_t len)
{
	size_t n = 0;
	int kinds = 0;

	buf[0] = '\0';
	for (int i = 0; i < nr; i++) {
		int j = 0, count = 0;

		while (j < i && strcmp(gov[j], gov[i]))
			j++;
		if (j < i)
			continue;	/* counted at its first CPU */
		for (j = i; j < nr; j++)
			count += !strcmp(gov[j], gov[i]);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s%s on %d CPU%s", kinds++ ? ", " : "",
				      gov[i], count, count == 1 ? "" : "s");
	}
	if (kinds == 1)
		snprintf(buf, len, "%s", gov[0]);
	else if (!kinds)
		snprintf(buf, len, "unknown (no cpufreq)");
}

/* A sysfs switch: 1 for "1", 0 for "0", -1 for absent or anything else. */
static int switch_value(const char *s)
{
	if (s && (!strcmp(s, "0") || !strcmp(s, "1")))
		return s[0] == '1';
	return -1;
}

static const char *on_off(int v)
{
	return v < 0 ? "unknown" : v ? "on" : "off";
}

/* cpufreq/boost (acpi-cpufreq, amd-pstate) says 1 for on; intel_pstate/no_turbo 1 for off. */
int meta_system_boost(const struct meta_system *sys)
{
	int boost = switch_value(sys->file[META_BOOST]);
	int no_turbo = switch_value(sys->file[META_NO_TURBO]);

	return boost >= 0 ? boost : no_turbo >= 0 ? !no_turbo : -1;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

/*
 * x86 CPUs under a hypervisor show the "hypervisor" flag; Xen guests have
 * /sys/hypervisor/type.  Without either source (arm64 has no such flag),
 * absence proves nothing.  The hypervisor's name is Xen's type, else the
 * machine's vendor as the hypervisor's firmware reports it ("QEMU"): on a
 * machine that is not virtual, the vendor names the hardware instead.
 */
void meta_system_virtualised(const struct meta_system *sys, char *buf, size_t len)
{
	const char *type = sys->file[META_HV_TYPE], *vendor = sys->file[META_DMI_VENDOR];
	const char *name = type && *type ? type : vendor && *vendor ? vendor : NULL;

	if (!(type && *type) && !(sys->cpu_flags && has_word(sys->cpu_flags, "hypervisor")))
		snprintf(buf, len, "%s", sys->cpu_flags ? "no" : "unknown");
	else if (name)
		snprintf(buf, len, "yes (%s)", name);
	else
		snprintf(buf, len, "yes");
}

/* The three load averages of "0.52 0.40 0.31 1/99 2524". */
static void loadavg_summary(const char *text, char *buf, size_t len)
{
	int n = 0;

	for (int fields = 0; text && text[n] && fields < 3; fields++) {
		n += strspn(text + n, " ");
		n += strcspn(text + n, " ");
	}
	if (n)
		snprintf(buf, len, "%.*s", n, text);
	else
		snprintf(buf, len, "unknown");
}

/*
 * The running kernel's options that decide what bpfsweep can run and
 * what moves its numbers; "is not set" for what the config does not set.
 */
static void put_kernel_config(FILE *f, const struct meta_system *sys)
{
	put(f, "kernel_config", or_unknown(sys->kconfig_path));
	if (!sys->kconfig) {
		put(f, "config", "unavailable (no /proc/config.gz, /boot/config-<release> or "
		    "/usr/lib/modules/<release>/config)");
		return;
	}
	for (int i = 0; kfacts_config_names[i]; i++) {
		const char *v = kconfig_value(sys->kconfig, kfacts_config_names[i]);

		if (v)
			putf(f, "config", "%s=%s", kfacts_config_names[i], v);
		else
			putf(f, "config", "%s is not set", kfacts_config_names[i]);
	}
}

void meta_system_print(FILE *f, const struct meta_system *sys)
{
	char buf[512];

	governor_summary(sys->gov, sys->nr_gov, buf, sizeof(buf));
	put(f, "cpu_governor", buf);
	put(f, "cpu_boost", on_off(meta_system_boost(sys)));
	put(f, "smt", on_off(switch_value(sys->file[META_SMT_ACTIVE])));
	put(f, "smt_control", or_unknown(sys->file[META_SMT_CONTROL]));
	meta_system_virtualised(sys, buf, sizeof(buf));
	put(f, "virtualised", buf);
	put(f, "hypervisor_type", or_unknown(sys->file[META_HV_TYPE]));
	put(f, "dmi_vendor", or_unknown(sys->file[META_DMI_VENDOR]));
	put(f, "dmi_product", or_unknown(sys->file[META_DMI_PRODUCT]));
	loadavg_summary(sys->file[META_LOADAVG], buf, sizeof(buf));
	put(f, "loadavg", buf);
	put(f, "cmdline", or_unknown(sys->file[META_CMDLINE]));
	kfacts_lockdown(sys->file[META_LOCKDOWN], sys->file[META_CMDLINE], sys->kconfig, buf,
			sizeof(buf));
	put(f, "lockdown", buf);
	put_kernel_config(f, sys);
}

/*
 * scaling_governor of every CPU that has one (offline CPUs and VMs often
 * have none); under a fake root (tests), of its cpu0, cpu1, ... as far as
 * they go.
 */
static void read_governors(const char *root, struct meta_system *sys)
{
	long nr = *root ? 1024 : sysconf(_SC_NPROCESSORS_CONF);
	char path[PATH_MAX];

	sys->gov = calloc(nr > 0 ? nr : 1, sizeof(*sys->gov));
	for (long cpu = 0; sys->gov && cpu < nr; cpu++) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%ld", root, cpu);
		if (*root && access(path, F_OK))
			break;
		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", root, cpu);
		sys->gov[sys->nr_gov] = read_first_line(path);
		sys->nr_gov += sys->gov[sys->nr_gov] != NULL;
	}
}

static const char *const sys_paths[NR_META_SYS_FILES] = {
	[META_BOOST] = "/sys/devices/system/cpu/cpufreq/boost",
	[META_NO_TURBO] = "/sys/devices/system/cpu/intel_pstate/no_turbo",
	[META_SMT_ACTIVE] = "/sys/devices/system/cpu/smt/active",
	[META_SMT_CONTROL] = "/sys/devices/system/cpu/smt/control",
	[META_HV_TYPE] = "/sys/hypervisor/type",
	[META_DMI_VENDOR] = "/sys/class/dmi/id/sys_vendor",
	[META_DMI_PRODUCT] = "/sys/class/dmi/id/product_name",
	[META_LOADAVG] = "/proc/loadavg",
	[META_CMDLINE] = "/proc/cmdline",
	[META_LOCKDOWN] = "/sys/kernel/security/lockdown",
};

void meta_system_read(const char *root, struct meta_system *sys)
{
	char flags[8192], path[PATH_MAX];

	memset(sys, 0, sizeof(*sys));
	read_governors(root, sys);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	if (read_keyed(path, "flags", flags, sizeof(flags)))
		sys->cpu_flags = strdup(flags);
	for (int i = 0; i < NR_META_SYS_FILES; i++) {
		snprintf(path, sizeof(path), "%s%s", root, sys_paths[i]);
		sys->file[i] = read_first_line(path);
	}
	if (!kconfig_host_path(path, sizeof(path)) && !kconfig_open(path, &sys->kconfig))
		sys->kconfig_path = strdup(path);
}

void meta_system_free(struct meta_system *sys)
{
	for (int i = 0; i < sys->nr_gov; i++)
		free(sys->gov[i]);
	free(sys->gov);
	free(sys->cpu_flags);
	for (int i = 0; i < NR_META_SYS_FILES; i++)
		free(sys->file[i]);
	kconfig_free(sys->kconfig);
	free(sys->kconfig_path);
}

static void put_system(FILE *f)
{
	struct meta_system sys;

	meta_system_read(syscheck_root(), &sys);
	meta_system_print(f, &sys);
	meta_system_free(&sys);
}

static void put_to(void *f, const char *key, const char *val)
{
	put(f, key, val);
}

/* The system check's own facts and warnings (syscheck.h), when the run made one. */
static void put_check(FILE *f, const struct sys_check *sc)
{
	if (sc)
		syscheck_lines(sc, put_to, f);
}

static void put_host(FILE *f, const struct utsname *u, bool not_run)
{
	char mem[64];

	put(f, "host", u->nodename);
	put(f, "kernel_release", not_run ? "unknown (it did not run)" : u->release);
	put(f, "kernel_version", not_run ? "unknown" : u->version);
	put(f, "arch", u->machine);
	put_cpu_model(f);
	putf(f, "nproc", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	put(f, "mem_total", read_keyed("/proc/meminfo", "MemTotal", mem, sizeof(mem)) ?
	    mem : "unknown");
}

static void put_tools(FILE *f)
{
	const char *clang = BPFSWEEP_BUILD_CLANG, *bpftool = BPFSWEEP_BUILD_BPFTOOL;

	put(f, "libbpf", workloads_libbpf_version());
	put(f, "clang", clang[0] ? clang : "unknown");
	put(f, "bpftool", bpftool[0] ? bpftool : "unknown");
	/* the ISA the BPF objects were built for (clang -mcpu): it changes their cost */
	put(f, "bpf_cpu", BPFSWEEP_BUILD_BPF_CPU);
}

/* "3s", "500ms": the spec's own notation, exact. */
static void put_duration(FILE *f, const char *key, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].div == 0 || units[i].div == 1) {
			putf(f, key, "%llu%s", (unsigned long long)(ns / units[i].div),
			     units[i].unit);
			return;
		}
	}
}

/* t in ISO 8601, UTC: "2026-11-30T17:00:00Z". */
static void iso_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void put_time(FILE *f, const char *key, time_t t)
{
	char buf[32];

	iso_time(t, buf, sizeof(buf));
	put(f, key, buf);
}

static void put_run(FILE *f, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	char intervals[128];

	put_duration(f, "warmup", cfg->warmup_ns);
	put_duration(f, "duration", cfg->duration_ns);
	put_duration(f, "interval", cfg->interval_ns);
	timing_describe(cfg, intervals, sizeof(intervals));
	put(f, "intervals", intervals);
	putf(f, "repeat", "%d", cfg->repeat);
	putf(f, "max_cv", "%d", cfg->max_cv);
	putf(f, "retry_noisy", "%d", cfg->retry_noisy);
	if (cfg->precision_pct > 0)
		putf(f, "precision", "%g%% (repetitions %d to %d, max_time %.3gs; 0: none)",
		     cfg->precision_pct, precision_min_reps(cfg), precision_max_reps(cfg),
		     cfg->max_time_ns / 1e9);
	put(f, "affinity", cfg->affinity ? "on" : "off");
	if (ri->quick)
		put(f, "quick", "yes");
	if (ri->shard)
		put(f, "shard", ri->shard);
	put(f, "kernel", ri->kernel ? ri->kernel : "host");
	put(f, "executor", ri->not_run ? "none" : ri->vm_accel ? "vm" : "host");
	if (ri->vm_accel)
		put(f, "vm_accel", ri->vm_accel);
	if (ri->vm_accel && ri->vm_accel_reason)
		put(f, "vm_accel_reason", ri->vm_accel_reason);
	for (int i = 0; ri->tags && ri->tags[i]; i++)
		put(f, "tag", ri->tags[i]);
	put_time(f, "start", ri->start);
}

static void meta_print(FILE *f, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	put(f, "bpfsweep", BPFSWEEP_VERSION);
	put(f, "git", BPFSWEEP_GIT);
	put(f, "command", ri->argv_line);
	put(f, "spec", cfg->spec_path);
	put(f, "title", cfg->title);
	put(f, "workload", cfg->wl->name);
	metricmeta_print(f, cfg->wl);
	put_host(f, &u, ri->not_run);
	if (!ri->not_run) {
		put_system(f);
		put_check(f, ri->check);
	}
	put_tools(f);
	put_run(f, cfg, ri);
}

bool meta_lookup(const char *path, const char *key, char *buf, size_t len)
{
	return read_keyed(path, key, buf, len);
}

bool meta_lookup_all(const char *path, const char *key, const char *sep, char *buf, size_t len)
{
	return read_keyed_sep(path, key, sep, buf, len);
}

/* The value of tag key=value in tags, or NULL. */
static const char *tag_value(const char *const *tags, const char *key)
{
	size_t len = strlen(key);

	for (int i = 0; tags && tags[i]; i++)
		if (!strncmp(tags[i], key, len) && tags[i][len] == '=')
			return tags[i] + len + 1;
	return NULL;
}

void meta_print_imported(FILE *f, const struct import_info *ii)
{
	/* what a run reads from the machine, an import can only be told */
	static const char *const told[] = {
		"host", "kernel_release", "kernel_version", "arch", "cpu_model", "nproc",
	};

	put(f, "bpfsweep", BPFSWEEP_VERSION);
	put(f, "git", BPFSWEEP_GIT);
	put(f, "command", ii->argv_line);
	for (int i = 0; i < ii->nr_files; i++)
		put(f, "imported_from", ii->files[i]);
	put(f, "title", ii->title);
	put(f, "workload", "imported");
	for (size_t i = 0; i < sizeof(told) / sizeof(told[0]); i++)
		put(f, told[i], or_unknown(tag_value(ii->tags, told[i])));
	for (int i = 0; ii->tags && ii->tags[i]; i++)
		put(f, "tag", ii->tags[i]);
	put_time(f, "imported", ii->when);
}

/*
 * buf[0..len) onto fd and to disk; a short write is an error (a full disk).
 * One write() call for the whole text: a run killed while meta is written
 * leaves all of it or none, as far as the kernel can promise.
 */
static int write_synced(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);
	int err = 0;

	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -ENOSPC;
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Closes mem, then writes what it holds to path opened with flags; frees *text. */
static int write_text(const char *path, int flags, FILE *mem, char **text, size_t *len)
{
	int fd, err = fclose(mem) ? -ENOMEM : 0;

	if (!err) {
		fd = open(path, flags | O_WRONLY | O_CLOEXEC, 0644);
		err = fd < 0 ? -errno : write_synced(fd, *text, *len);
	}
	free(*text);
	return err;
}

int meta_write(const char *path, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return -ENOMEM;
	meta_print(mem, cfg, ri);
	return write_text(path, O_CREAT | O_EXCL, mem, &text, &len);
}

int meta_append(const char *path, const char *key, const char *value)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return -ENOMEM;
	put(mem, key, value);
	return write_text(path, O_APPEND, mem, &text, &len);
}

int meta_append_time(const char *path, const char *key, time_t t)
{
	char buf[32];

	iso_time(t, buf, sizeof(buf));
	return meta_append(path, key, buf);
}
