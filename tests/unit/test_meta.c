// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c: the system facts parsed from given text, and the file written
 * once at the start with the end appended, never through a temporary file.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "kconfig_fixture.h"
#include "kconfig.h"
#include "meta.h"
#include "sysfacts.h"

extern const struct workload null_workload;

/* meta_system_print(sys) as a string (free()). */
static char *printed(const struct meta_system *sys)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return NULL;
	meta_system_print(mem, sys);
	fclose(mem);
	return text;
}

/* Does text have the line "key: val"? */
static int has_line(const char *text, const char *key, const char *val)
{
	char line[1024];

	snprintf(line, sizeof(line), "\n%s: %s\n", key, val);
	return text && (strstr(text, line) || !strncmp(text, line + 1, strlen(line + 1)));
}

/* A VM without cpufreq, DMI or securityfs (like the machine these tests grew on). */
TEST(nothing_readable_is_unknown)
{
	struct meta_system sys = { 0 };
	char *text = printed(&sys);

	CHECK_STR(text,
		  "cpu_governor: unknown (no cpufreq)\n"
		  "cpu_boost: unknown\n"
		  "smt: unknown\n"
		  "smt_control: unknown\n"
		  "virtualised: unknown\n"
		  "hypervisor_type: unknown\n"
		  "dmi_vendor: unknown\n"
		  "dmi_product: unknown\n"
		  "loadavg: unknown\n"
		  "cmdline: unknown\n"
		  "lockdown: unavailable\n"
		  "kernel_config: unknown\n"
		  "config: unavailable (no /proc/config.gz, /boot/config-<release> or "
		  "/usr/lib/modules/<release>/config)\n");
	free(text);
}

TEST(bare_metal_intel)
{
	char *gov[] = { "performance", "performance", "performance" };
	struct meta_system sys = {
		.gov = gov, .nr_gov = 3, .cpu_flags = "fpu vme de pse tsc msr",
		.file = {
			[META_NO_TURBO] = "1",
			[META_SMT_ACTIVE] = "1",
			[META_SMT_CONTROL] = "on",
			[META_DMI_VENDOR] = "Dell Inc.",
			[META_DMI_PRODUCT] = "PowerEdge R650",
			[META_LOADAVG] = "0.52 0.40 0.31 1/99 2524",
			[META_CMDLINE] = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=2-3",
			[META_LOCKDOWN] = "none [integrity] confidentiality",
		},
	};
	char *text = printed(&sys);

	CHECK(has_line(text, "cpu_governor", "performance"));
	CHECK(has_line(text, "cpu_boost", "off"));	/* no_turbo=1 */
	CHECK(has_line(text, "smt", "on"));
	CHECK(has_line(text, "smt_control", "on"));
	CHECK(has_line(text, "virtualised", "no"));	/* a flags line without the flag */
	CHECK(has_line(text, "dmi_vendor", "Dell Inc."));
	CHECK(has_line(text, "dmi_product", "PowerEdge R650"));
	CHECK(has_line(text, "loadavg", "0.52 0.40 0.31"));
	CHECK(has_line(text, "cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=2-3"));
	CHECK(has_line(text, "lockdown", "integrity"));
	free(text);
}

TEST(mixed_governors_and_boost)
{
	char *gov[] = { "powersave", "performance", "powersave", "powersave" };
	struct meta_system sys = {
		.gov = gov, .nr_gov = 4,
		.file = {
			[META_BOOST] = "1",
			[META_NO_TURBO] = "1",
			[META_SMT_ACTIVE] = "0",
			[META_SMT_CONTROL] = "notsupported",
		},
	};
	char *text = printed(&sys);

	CHECK(has_line(text, "cpu_governor", "powersave on 3 CPUs, performance on 1 CPU"));
	CHECK(has_line(text, "cpu_boost", "on"));	/* cpufreq/boost first */
	CHECK(has_line(text, "smt", "off"));
	CHECK(has_line(text, "smt_control", "notsupported"));
	free(text);
	sys.file[META_BOOST] = "0";
	sys.file[META_NO_TURBO] = NULL;
	text = printed(&sys);
	CHECK(has_line(text, "cpu_boost", "off"));
	free(text);
}

TEST(virtualised_sources)
{
	struct meta_system sys = { .cpu_flags = "fpu vme hypervisor lahf_lm" };
	char *text = printed(&sys);

	CHECK(has_line(text, "virtualised", "yes"));
	free(text);
	sys.file[META_DMI_VENDOR] = "QEMU";	/* the hypervisor's firmware names it */
	text = printed(&sys);
	CHECK(has_line(text, "virtualised", "yes (QEMU)"));
	free(text);
	sys.cpu_flags = "fpu hypervisorx xhypervisor";	/* whole words only */
	sys.file[META_DMI_VENDOR] = "Dell Inc.";	/* the hardware's, not a hypervisor */
	text = printed(&sys);
	CHECK(has_line(text, "virtualised", "no"));
	free(text);
	/* arm64 or PV Xen: no flag */
	sys = (struct meta_system){ .file[META_HV_TYPE] = "xen", .file[META_DMI_VENDOR] = "Xen" };
	text = printed(&sys);
	CHECK(has_line(text, "virtualised", "yes (xen)"));
	CHECK(has_line(text, "hypervisor_type", "xen"));
	free(text);
}


/* Every option of the list, set or not, in its order; strings as written. */
TEST(config_lines)
{
	struct meta_system sys = {
		.kconfig = config_of("CONFIG_BPF_SYSCALL=y\n# CONFIG_KPROBES is not set\n"
				     "CONFIG_HZ=1000\nCONFIG_KPROBE_EVENTS=m\n"),
		.kconfig_path = "/boot/config-6.1.0",
	};
	char *text = printed(&sys);
	const char *bpf, *kprobes, *hz;

	CHECK(sys.kconfig);
	CHECK(has_line(text, "kernel_config", "/boot/config-6.1.0"));
	CHECK(has_line(text, "config", "CONFIG_BPF_SYSCALL=y"));
	CHECK(has_line(text, "config", "CONFIG_KPROBES is not set"));
	CHECK(has_line(text, "config", "CONFIG_KPROBE_EVENTS=m"));
	CHECK(has_line(text, "config", "CONFIG_PREEMPT_RT is not set"));	/* absent */
	CHECK(has_line(text, "config", "CONFIG_HZ=1000"));
	CHECK(!strstr(text, "config: unavailable"));
	bpf = strstr(text, "CONFIG_BPF_SYSCALL");
	kprobes = strstr(text, "CONFIG_KPROBES");
	hz = strstr(text, "CONFIG_HZ");
	CHECK(bpf && kprobes && hz && bpf < kprobes && kprobes < hz);
	kconfig_free(sys.kconfig);
	free(text);
}

/* securityfs says it; without securityfs, what the config and cmdline forced at boot. */
TEST(lockdown_sources)
{
	struct meta_system sys = {
		.file[META_LOCKDOWN] = "[none] integrity confidentiality",
		.kconfig = config_of("CONFIG_SECURITY_LOCKDOWN_LSM=y\n"
				     "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY=y\n"),
	};
	char *text = printed(&sys);

	CHECK(sys.kconfig);
	CHECK(has_line(text, "lockdown", "none"));	/* securityfs is the truth */
	free(text);
	sys.file[META_LOCKDOWN] = NULL;
	text = printed(&sys);
	CHECK(has_line(text, "lockdown", "integrity"));	/* forced by the config */
	free(text);
	sys.file[META_CMDLINE] = "ro lockdown=confidentiality quiet";	/* raised at boot */
	text = printed(&sys);
	CHECK(has_line(text, "lockdown", "confidentiality"));
	free(text);
	sys.file[META_CMDLINE] = "ro nolockdown=confidentiality";	/* not the parameter */
	text = printed(&sys);
	CHECK(has_line(text, "lockdown", "integrity"));
	free(text);
	kconfig_free(sys.kconfig);
	sys.kconfig = NULL;
	sys.file[META_CMDLINE] = "ro lockdown=integrity";	/* no config: LSM built in? */
	text = printed(&sys);
	CHECK(has_line(text, "lockdown", "unavailable"));
	free(text);
}

/* Whatever a file holds, each value is one line without control characters. */
TEST(values_are_one_clean_line)
{
	struct meta_system sys = {
		.file = {
			[META_CMDLINE] = "a\033[2Jb\nc\rd\te\x7f",
			[META_DMI_VENDOR] = "QEMU\n\nhost: evil",
			[META_LOCKDOWN] = "[none\n]",
		},
	};
	char *text = printed(&sys);

	CHECK(has_line(text, "cmdline", "a [2Jb c d e "));
	CHECK(has_line(text, "dmi_vendor", "QEMU  host: evil"));
	CHECK(has_line(text, "lockdown", "unavailable"));	/* no level, not a garbled one */
	CHECK(!strstr(text, "\nhost:"));
	free(text);
}

static int nr_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Created exclusively, all at once; the end appended; nothing else in the directory. */
TEST(written_once_end_appended)
{
	char dir[] = "/tmp/test_meta.XXXXXX", path[PATH_MAX], line[256];
	struct sweep_cfg cfg = { .wl = &null_workload, .spec_path = "x.spec", .title = "t",
				 .repeat = 1, .duration_ns = 1000000000 };
	struct run_info ri = { .start = 86400 };
	int nr_start = 0, nr_end = 0;
	FILE *f;

	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/meta", dir);
	CHECK_INT(meta_append_time(path, "end", ri.end), -ENOENT);	/* never creates */
	CHECK_INT(meta_write(path, &cfg, &ri), 0);
	CHECK_INT(meta_write(path, &cfg, &ri), -EEXIST);	/* never overwrites */
	ri.end = 86400 + 61;
	CHECK_INT(meta_append_time(path, "end", ri.end), 0);
	CHECK_INT(nr_entries(dir), 1);
	f = fopen(path, "r");
	CHECK(f);
	while (fgets(line, sizeof(line), f)) {
		nr_start += !strcmp(line, "start: 1970-01-02T00:00:00Z\n");
		nr_end += !strcmp(line, "end: 1970-01-02T00:01:01Z\n");
	}
	fclose(f);
	unlink(path);
	rmdir(dir);
	CHECK_INT(nr_start, 1);
	CHECK_INT(nr_end, 1);
	CHECK_STR(line, "end: 1970-01-02T00:01:01Z\n");	/* the last line */
}

/* meta_write()'s text of a run described by ri (free()), or NULL. */
static char *written(const struct run_info *ri)
{
	char dir[] = "/tmp/test_meta.XXXXXX", path[PATH_MAX], *text = NULL;
	struct sweep_cfg cfg = { .wl = &null_workload, .spec_path = "x.spec", .title = "t",
				 .repeat = 1, .duration_ns = 1000000000 };
	size_t cap = 0;
	FILE *f;

	if (!mkdtemp(dir))
		return NULL;
	snprintf(path, sizeof(path), "%s/meta", dir);
	if (!meta_write(path, &cfg, ri) && (f = fopen(path, "r"))) {
		if (getdelim(&text, &cap, '\0', f) < 0) {
			free(text);
			text = NULL;
		}
		fclose(f);
	}
	unlink(path);
	rmdir(dir);
	return text;
}

/* Where the run's points ran: the host's kernel, or an image in a VM and how it ran. */
TEST(kernel_and_executor)
{
	struct run_info ri = { .start = 86400 };
	char *text = written(&ri);

	CHECK(has_line(text, "kernel", "host"));
	CHECK(has_line(text, "executor", "host"));
	CHECK(!strstr(text, "\nvm_accel:"));
	free(text);
	ri.kernel = "../linux/arch/x86/boot/bzImage";
	ri.vm_accel = "tcg";
	text = written(&ri);
	CHECK(has_line(text, "kernel", "../linux/arch/x86/boot/bzImage"));
	CHECK(has_line(text, "executor", "vm"));
	CHECK(has_line(text, "vm_accel", "tcg"));
	CHECK(!strstr(text, "\nvm_accel_reason:"));
	free(text);
	/* auto on TCG because KVM refused: vm_accel stays one word, the reason beside it */
	ri.vm_accel_reason = "kvm refused: qemu: Assertion failed.\n(killed by signal 6)";
	text = written(&ri);
	CHECK(has_line(text, "vm_accel", "tcg"));
	CHECK(has_line(text, "vm_accel_reason", "kvm refused: qemu: Assertion failed. "
		       "(killed by signal 6)"));
	free(text);
	ri.vm_accel_reason = NULL;
	ri.kernel = "/k/bz\nhost: evil";	/* a path is one line like any value */
	ri.vm_accel = "kvm";
	text = written(&ri);
	CHECK(has_line(text, "kernel", "/k/bz host: evil"));
	CHECK(has_line(text, "vm_accel", "kvm"));
	free(text);
}

/* This machine's value of key in a meta of its own, into buf. */
static void own_value(const char *key, char *buf, size_t len)
{
	struct run_info ri = { .start = 86400 };
	char *text = written(&ri), *at;

	buf[0] = '\0';
	at = text ? strstr(text, key) : NULL;
	if (at)
		snprintf(buf, len, "%.*s", (int)strcspn(at + strlen(key), "\n"), at + strlen(key));
	free(text);
}

/*
 * A fleet host's failed rows written here (it never ran them): its facts as
 * its probe told them, "unknown" where it told none, none of this machine's
 * (they were this machine's host, arch, CPU model and system lines).
 */
TEST(told_host_not_this_machine)
{
	const struct told_host beta = { .name = "10.0.0.2", .kernel_release = "6.1.0",
					.arch = "aarch64", .cpu_model = "Neoverse-N1",
					.nproc = "" };
	struct run_info ri = { .start = 86400, .told = &beta };
	char model[256], *text;

	own_value("\ncpu_model: ", model, sizeof(model));
	text = written(&ri);
	CHECK(text);
	CHECK(has_line(text, "host", "10.0.0.2"));
	CHECK(has_line(text, "kernel_release", "6.1.0"));
	CHECK(has_line(text, "kernel_version", "unknown"));
	CHECK(has_line(text, "arch", "aarch64"));
	CHECK(has_line(text, "cpu_model", "Neoverse-N1"));
	CHECK(has_line(text, "nproc", "unknown"));
	CHECK(has_line(text, "mem_total", "unknown"));
	CHECK(has_line(text, "executor", "none"));
	CHECK(strcmp(model, "Neoverse-N1"));
	/* nothing measured here about it: no governor, no boost, no check */
	CHECK(!strstr(text, "\ncpu_governor:") && !strstr(text, "\nvirtualised:") &&
	      !strstr(text, "\nloadavg:"));
	free(text);
	/* a probe that said nothing: every fact unknown, the address still its own */
	ri.told = &(const struct told_host){ .name = "beta" };
	text = written(&ri);
	CHECK(has_line(text, "host", "beta"));
	CHECK(has_line(text, "arch", "unknown"));
	CHECK(has_line(text, "cpu_model", "unknown"));
	free(text);
}

RUN_TESTS(nothing_readable_is_unknown, bare_metal_intel, mixed_governors_and_boost,
	  virtualised_sources, config_lines, lockdown_sources, values_are_one_clean_line,
	  written_once_end_appended, kernel_and_executor, told_host_not_this_machine)
