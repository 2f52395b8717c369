// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's facts that decide whether two runs' numbers are
 * comparable (sysfacts.h), and the one writer of a meta line.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfacts.h"
#include "sysfacts.h"
#include "textfile.h"

void meta_put(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s: ", key);
	for (; val && *val; val++)
		fputc((unsigned char)*val < 0x20 || *val == 0x7f ? ' ' : *val, f);
	fputc('\n', f);
}

void meta_putf(FILE *f, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	meta_put(f, key, buf);
}

const char *meta_or_unknown(const char *s)
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
	meta_put(f, "kernel_config", meta_or_unknown(sys->kconfig_path));
	if (!sys->kconfig) {
		meta_put(f, "config", "unavailable (no /proc/config.gz, /boot/config-<release> or "
		    "/usr/lib/modules/<release>/config)");
		return;
	}
	for (int i = 0; kfacts_config_names[i]; i++) {
		const char *v = kconfig_value(sys->kconfig, kfacts_config_names[i]);

		if (v)
			meta_putf(f, "config", "%s=%s", kfacts_config_names[i], v);
		else
			meta_putf(f, "config", "%s is not set", kfacts_config_names[i]);
	}
}

void meta_system_print(FILE *f, const struct meta_system *sys)
{
	char buf[512];

	governor_summary(sys->gov, sys->nr_gov, buf, sizeof(buf));
	meta_put(f, "cpu_governor", buf);
	meta_put(f, "cpu_boost", on_off(meta_system_boost(sys)));
	meta_put(f, "smt", on_off(switch_value(sys->file[META_SMT_ACTIVE])));
	meta_put(f, "smt_control", meta_or_unknown(sys->file[META_SMT_CONTROL]));
	meta_system_virtualised(sys, buf, sizeof(buf));
	meta_put(f, "virtualised", buf);
	meta_put(f, "hypervisor_type", meta_or_unknown(sys->file[META_HV_TYPE]));
	meta_put(f, "dmi_vendor", meta_or_unknown(sys->file[META_DMI_VENDOR]));
	meta_put(f, "dmi_product", meta_or_unknown(sys->file[META_DMI_PRODUCT]));
	loadavg_summary(sys->file[META_LOADAVG], buf, sizeof(buf));
	meta_put(f, "loadavg", buf);
	meta_put(f, "cmdline", meta_or_unknown(sys->file[META_CMDLINE]));
	kfacts_lockdown(sys->file[META_LOCKDOWN], sys->file[META_CMDLINE], sys->kconfig, buf,
			sizeof(buf));
	meta_put(f, "lockdown", buf);
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
	if (keyed_value(path, "flags", flags, sizeof(flags)))
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
