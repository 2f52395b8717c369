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

#include "heldir.h"
#include "kfacts.h"
#include "meta.h"
#include "metricmeta.h"
#include "precision.h"
#include "syscheck.h"
#include "sysfacts.h"
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

/* x86 names its model; arm64 gives "Hardware" on some boards, else implementer/part ids. */
static void put_cpu_model(FILE *f)
{
	char model[256], impl[64];

	if (keyed_value("/proc/cpuinfo", "model name", model, sizeof(model)) ||
	    keyed_value("/proc/cpuinfo", "Hardware", model, sizeof(model))) {
		meta_put(f, "cpu_model", model);
	} else if (keyed_value("/proc/cpuinfo", "CPU part", model, sizeof(model))) {
		if (!keyed_value("/proc/cpuinfo", "CPU implementer", impl, sizeof(impl)))
			snprintf(impl, sizeof(impl), "unknown");
		meta_putf(f, "cpu_model", "implementer %s part %s", impl, model);
	} else {
		meta_put(f, "cpu_model", "unknown");
	}
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
	meta_put(f, key, val);
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

	meta_put(f, "host", u->nodename);
	meta_put(f, "kernel_release", not_run ? "unknown (it did not run)" : u->release);
	meta_put(f, "kernel_version", not_run ? "unknown" : u->version);
	meta_put(f, "arch", u->machine);
	put_cpu_model(f);
	meta_putf(f, "nproc", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	meta_put(f, "mem_total", keyed_value("/proc/meminfo", "MemTotal", mem, sizeof(mem)) ?
	    mem : "unknown");
}

static void put_tools(FILE *f)
{
	const char *clang = BPFSWEEP_BUILD_CLANG, *bpftool = BPFSWEEP_BUILD_BPFTOOL;

	meta_put(f, "libbpf", workloads_libbpf_version());
	meta_put(f, "clang", clang[0] ? clang : "unknown");
	meta_put(f, "bpftool", bpftool[0] ? bpftool : "unknown");
	/* the ISA the BPF objects were built for (clang -mcpu): it changes their cost */
	meta_put(f, "bpf_cpu", BPFSWEEP_BUILD_BPF_CPU);
}

/* "3s", "500ms": the spec's own notation, exact. */
/* decide's bound, budget, looks and how a round orders its arms (rounds.h). */
static void put_decide(FILE *f, const struct sweep_cfg *cfg)
{
	struct decide_rule rule;
	char looks[128], exact[128] = "";

	precision_decide_rule(cfg, &rule);
	decide_looks(&rule, looks, sizeof(looks));
	if (rule.exact_pct > 0)
		snprintf(exact, sizeof(exact), "; TCG icount: from round %d on, rounds whose ratios "
			 "agree within %g %% decide at once, exactly", DECIDE_EXACT_ROUNDS,
			 rule.exact_pct);
	meta_putf(f, "decide", "%g%% (rounds %d to %d, looks %s, max_time %.3gs; 0: none; each "
		  "round's arms in an order shuffled by GSL's mt19937 seeded with its baseline's "
		  "point id + 1%s)", cfg->decide_pct, rule.min_rounds, rule.max_rounds, looks,
		  cfg->max_time_ns / 1e9, exact);
}

static void put_duration(FILE *f, const char *key, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].div == 0 || units[i].div == 1) {
			meta_putf(f, key, "%llu%s", (unsigned long long)(ns / units[i].div),
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
	meta_put(f, key, buf);
}

static void put_run(FILE *f, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	char intervals[128];

	put_duration(f, "warmup", cfg->warmup_ns);
	put_duration(f, "duration", cfg->duration_ns);
	put_duration(f, "interval", cfg->interval_ns);
	timing_describe(cfg, intervals, sizeof(intervals));
	meta_put(f, "intervals", intervals);
	meta_putf(f, "repeat", "%d", cfg->repeat);
	meta_putf(f, "max_cv", "%d", cfg->max_cv);
	meta_putf(f, "retry_noisy", "%d", cfg->retry_noisy);
	if (cfg->precision_pct > 0)
		meta_putf(f, "precision", "%g%% (repetitions %d to %d, max_time %.3gs; 0: none)",
		     cfg->precision_pct, precision_min_reps(cfg), precision_max_reps(cfg),
		     cfg->max_time_ns / 1e9);
	if (cfg->decide_pct > 0)
		put_decide(f, cfg);
	meta_put(f, "affinity", cfg->affinity ? "on" : "off");
	if (ri->quick)
		meta_put(f, "quick", "yes");
	if (ri->shard)
		meta_put(f, "shard", ri->shard);
	meta_put(f, "kernel", ri->kernel ? ri->kernel : "host");
	meta_put(f, "executor", ri->not_run || ri->told ? "none" : ri->vm_accel ? "vm" : "host");
	if (ri->vm_accel)
		meta_put(f, "vm_accel", ri->vm_accel);
	if (ri->vm_accel && ri->vm_accel_reason)
		meta_put(f, "vm_accel_reason", ri->vm_accel_reason);
	for (int i = 0; ri->tags && ri->tags[i]; i++)
		meta_put(f, "tag", ri->tags[i]);
	put_time(f, "start", ri->start);
}

/* Another machine's facts, as told (struct told_host): none of this one's. */
static void put_told_host(FILE *f, const struct told_host *t)
{
	meta_put(f, "host", meta_or_unknown(t->name));
	meta_put(f, "kernel_release", meta_or_unknown(t->kernel_release));
	meta_put(f, "kernel_version", "unknown");
	meta_put(f, "arch", meta_or_unknown(t->arch));
	meta_put(f, "cpu_model", meta_or_unknown(t->cpu_model));
	meta_put(f, "nproc", meta_or_unknown(t->nproc));
	meta_put(f, "mem_total", "unknown");
}

static void meta_print(FILE *f, const struct sweep_cfg *cfg, const struct run_info *ri)
{
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	meta_put(f, "bpfsweep", BPFSWEEP_VERSION);
	meta_put(f, "git", BPFSWEEP_GIT);
	meta_put(f, "command", ri->argv_line);
	meta_put(f, "spec", cfg->spec_path);
	meta_put(f, "title", cfg->title);
	meta_put(f, "workload", cfg->wl->name);
	metricmeta_print(f, cfg->wl);
	if (ri->told)
		put_told_host(f, ri->told);
	else
		put_host(f, &u, ri->not_run);
	if (!ri->not_run && !ri->told) {
		put_system(f);
		put_check(f, ri->check);
	}
	put_tools(f);
	put_run(f, cfg, ri);
}

bool meta_lookup(const char *path, const char *key, char *buf, size_t len)
{
	return keyed_value(path, key, buf, len);
}

bool meta_lookup_all(const char *path, const char *key, const char *sep, char *buf, size_t len)
{
	return keyed_value_sep(path, key, sep, buf, len);
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

	meta_put(f, "bpfsweep", BPFSWEEP_VERSION);
	meta_put(f, "git", BPFSWEEP_GIT);
	meta_put(f, "command", ii->argv_line);
	for (int i = 0; i < ii->nr_files; i++)
		meta_put(f, "imported_from", ii->files[i]);
	meta_put(f, "title", ii->title);
	meta_put(f, "workload", "imported");
	for (size_t i = 0; i < sizeof(told) / sizeof(told[0]); i++)
		meta_put(f, told[i], meta_or_unknown(tag_value(ii->tags, told[i])));
	for (int i = 0; ii->tags && ii->tags[i]; i++)
		meta_put(f, "tag", ii->tags[i]);
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
		fd = heldir_open(path, flags | O_WRONLY, 0644);
		err = fd < 0 ? fd : write_synced(fd, *text, *len);
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
	meta_put(mem, key, value);
	return write_text(path, O_APPEND, mem, &text, &len);
}

int meta_append_time(const char *path, const char *key, time_t t)
{
	char buf[32];

	iso_time(t, buf, sizeof(buf));
	return meta_append(path, key, buf);
}
