// SPDX-License-Identifier: GPL-2.0
/*
 * The meta file: what a reader of the numbers needs to trust or reproduce
 * them (machine, kernel, its debug options, tool versions, the run's
 * settings), as "key: value" lines.  Keys are listed in docs/results.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zlib.h>

#include "meta.h"
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

/*
 * Kernel options that move BPF benchmark numbers: JIT, preemption model,
 * tick rate, sanitizers and lock debugging, mitigations.
 */
static const char *const config_facts[] = {
	"CONFIG_BPF_JIT", "CONFIG_BPF_JIT_ALWAYS_ON", "CONFIG_DEBUG_INFO_BTF",
	"CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT",
	"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_DYNAMIC", "CONFIG_HZ", "CONFIG_NO_HZ_FULL",
	"CONFIG_NR_CPUS", "CONFIG_KASAN", "CONFIG_KCSAN", "CONFIG_UBSAN", "CONFIG_KFENCE",
	"CONFIG_PROVE_LOCKING", "CONFIG_DEBUG_LOCK_ALLOC", "CONFIG_DEBUG_ATOMIC_SLEEP",
	"CONFIG_DEBUG_PAGEALLOC", "CONFIG_SLUB_DEBUG_ON", "CONFIG_MITIGATION_RETPOLINE",
	"CONFIG_RETPOLINE", "CONFIG_CFI_CLANG",
};

#define NR_FACTS (sizeof(config_facts) / sizeof(config_facts[0]))

/* "key: value", the value kept on one line whatever it holds. */
static void put(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s: ", key);
	for (; val && *val; val++)
		fputc(*val == '\n' || *val == '\r' ? ' ' : *val, f);
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

/* Value of the first "key : value" line of path (/proc/cpuinfo style); false if none. */
static bool read_keyed(const char *path, const char *key, char *buf, size_t len)
{
	char line[1024], *colon;
	bool found = false;
	FILE *f = fopen(path, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (strcmp(trim(line), key))
			continue;
		snprintf(buf, len, "%s", trim(colon + 1));
		found = true;
	}
	if (f)
		fclose(f);
	return found;
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

/* "[none] integrity confidentiality" → "none"; absent without securityfs. */
static void put_lockdown(FILE *f)
{
	char line[256], *open, *close;
	FILE *in = fopen("/sys/kernel/security/lockdown", "r");

	if (!in)
		return;
	if (fgets(line, sizeof(line), in)) {
		open = strchr(line, '[');
		close = open ? strchr(open, ']') : NULL;
		if (close) {
			*close = '\0';
			put(f, "lockdown", open + 1);
		} else {
			put(f, "lockdown", trim(line));
		}
	}
	fclose(in);
}

static void put_host(FILE *f, const struct utsname *u)
{
	char mem[64];

	put(f, "host", u->nodename);
	put(f, "kernel_release", u->release);
	put(f, "kernel_version", u->version);
	put(f, "arch", u->machine);
	put_cpu_model(f);
	putf(f, "nproc", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	put(f, "mem_total", read_keyed("/proc/meminfo", "MemTotal", mem, sizeof(mem)) ?
	    mem : "unknown");
	put_lockdown(f);
}

/* "CONFIG_X=v" → v; "# CONFIG_X is not set" → "n"; other lines: false. */
static bool config_line(char *line, const char *opt, const char **val)
{
	size_t n = strlen(opt);

	if (!strncmp(line, opt, n) && line[n] == '=') {
		*val = trim(line + n + 1);
		return true;
	}
	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, opt, n) &&
	    !strncmp(line + 2 + n, " is not set", 11)) {
		*val = "n";
		return true;
	}
	return false;
}

/*
 * The running kernel's own /proc/config.gz first (CONFIG_IKCONFIG_PROC),
 * then /boot/config-<release>.  zlib's gz reader takes plain text too, so
 * one loop reads either.
 */
static gzFile open_kernel_config(const char *release, char *path, size_t len)
{
	gzFile in;

	snprintf(path, len, "/proc/config.gz");
	in = gzopen(path, "r");
	if (in)
		return in;
	snprintf(path, len, "/boot/config-%s", release);
	return gzopen(path, "r");
}

static void put_kernel_config(FILE *f, const char *release)
{
	char path[512], line[512], vals[NR_FACTS][64] = { { 0 } };
	const char *val;
	gzFile in;

	in = open_kernel_config(release, path, sizeof(path));
	if (!in) {
		put(f, "kernel_config", "unknown");
		return;
	}
	put(f, "kernel_config", path);
	while (gzgets(in, line, sizeof(line)))
		for (size_t i = 0; i < NR_FACTS; i++)
			if (config_line(line, config_facts[i], &val))
				snprintf(vals[i], sizeof(vals[i]), "%s", val);
	gzclose(in);
	for (size_t i = 0; i < NR_FACTS; i++)
		if (vals[i][0])
			putf(f, "config", "%s=%s", config_facts[i], vals[i]);
}

static void put_tools(FILE *f)
{
	const char *clang = BPFSWEEP_BUILD_CLANG, *bpftool = BPFSWEEP_BUILD_BPFTOOL;

	put(f, "libbpf", workloads_libbpf_version());
	put(f, "clang", clang[0] ? clang : "unknown");
	put(f, "bpftool", bpftool[0] ? bpftool : "unknown");
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

static void put_time(FILE *f, const char *key, time_t t)
{
	char buf[32];
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	put(f, key, buf);
}

static void put_run(FILE *f, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	put_duration(f, "warmup", cfg->warmup_ns);
	put_duration(f, "duration", cfg->duration_ns);
	put_duration(f, "interval", cfg->interval_ns);
	putf(f, "repeat", "%d", cfg->repeat);
	put(f, "affinity", cfg->affinity ? "on" : "off");
	for (int i = 0; ri->tags && ri->tags[i]; i++)
		put(f, "tag", ri->tags[i]);
	put_time(f, "start", ri->start);
	if (ri->end)
		put_time(f, "end", ri->end);
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
	put_host(f, &u);
	put_kernel_config(f, u.release);
	put_tools(f);
	put_run(f, cfg, ri);
}

/*
 * Written beside the target and renamed over it: meta is written at the
 * start and again at the end, and a crash in between must not leave half
 * a file.
 */
int meta_write(const char *path, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	char tmp[4096];
	FILE *f;
	int err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	meta_print(f, cfg, ri);
	if (ferror(f))
		err = -EIO;
	else if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
