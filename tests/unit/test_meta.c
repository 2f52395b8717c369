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
#include "meta.h"

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
		  "hypervisor: unknown\n"
		  "hypervisor_type: unknown\n"
		  "dmi_vendor: unknown\n"
		  "dmi_product: unknown\n"
		  "loadavg: unknown\n"
		  "cmdline: unknown\n"
		  "lockdown: unknown\n");
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
	CHECK(has_line(text, "hypervisor", "no"));	/* a flags line without the flag */
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

TEST(hypervisor_sources)
{
	struct meta_system sys = { .cpu_flags = "fpu vme hypervisor lahf_lm" };
	char *text = printed(&sys);

	CHECK(has_line(text, "hypervisor", "yes"));
	free(text);
	sys.cpu_flags = "fpu hypervisorx xhypervisor";	/* whole words only */
	text = printed(&sys);
	CHECK(has_line(text, "hypervisor", "no"));
	free(text);
	/* arm64 or PV Xen: no flag */
	sys = (struct meta_system){ .file[META_HV_TYPE] = "xen" };
	text = printed(&sys);
	CHECK(has_line(text, "hypervisor", "yes"));
	CHECK(has_line(text, "hypervisor_type", "xen"));
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
	CHECK(has_line(text, "lockdown", "none "));
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

RUN_TESTS(nothing_readable_is_unknown, bare_metal_intel, mixed_governors_and_boost,
	  hypervisor_sources, values_are_one_clean_line, written_once_end_appended)
