// SPDX-License-Identifier: GPL-2.0
/* Facts of the running kernel that decide what bpfsweep can run: see kfacts.h. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfacts.h"
#include "textfile.h"

/*
 * What bpfsweep can run (BPF, its JIT, BTF, the attach types and what
 * refuses them), then what moves the numbers (preemption model, tick,
 * sanitizers and lock debugging, mitigations).
 */
const char *const kfacts_config_names[] = {
	"CONFIG_BPF_SYSCALL", "CONFIG_BPF_JIT", "CONFIG_BPF_JIT_ALWAYS_ON",
	"CONFIG_DEBUG_INFO_BTF", "CONFIG_KPROBES", "CONFIG_KPROBE_EVENTS", "CONFIG_UPROBES",
	"CONFIG_FUNCTION_TRACER", "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "CONFIG_BPF_LSM",
	"CONFIG_SECURITY_LOCKDOWN_LSM", "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY",
	"CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY",
	"CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT", "CONFIG_PREEMPT_RT",
	"CONFIG_PREEMPT_DYNAMIC", "CONFIG_HZ", "CONFIG_NO_HZ_FULL", "CONFIG_NR_CPUS",
	"CONFIG_KASAN", "CONFIG_KCSAN", "CONFIG_UBSAN", "CONFIG_KFENCE", "CONFIG_PROVE_LOCKING",
	"CONFIG_DEBUG_LOCK_ALLOC", "CONFIG_DEBUG_ATOMIC_SLEEP", "CONFIG_DEBUG_PAGEALLOC",
	"CONFIG_SLUB_DEBUG_ON", "CONFIG_MITIGATION_RETPOLINE", "CONFIG_RETPOLINE",
	"CONFIG_CFI_CLANG",
	NULL,
};

/* The kernel's lockdown levels, in its order: a level may only be raised. */
static const char *const levels[] = { "none", "integrity", "confidentiality" };

#define NR_LEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static int level_of(const char *word, size_t n)
{
	for (int i = 0; i < NR_LEVELS; i++)
		if (strlen(levels[i]) == n && !strncmp(word, levels[i], n))
			return i;
	return -1;
}

/* "none [integrity] confidentiality" → 1; -1 without a bracketed level. */
static int securityfs_level(const char *text)
{
	const char *open = text ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	return close ? level_of(open + 1, close - open - 1) : -1;
}

/* The level of a "lockdown=" word of the kernel command line, or -1. */
static int cmdline_level(const char *cmdline)
{
	const char *p = cmdline;

	while (p && (p = strstr(p, "lockdown="))) {
		if (p == cmdline || p[-1] == ' ')
			return level_of(p + 9, strcspn(p + 9, " \n"));
		p += 9;
	}
	return -1;
}

static bool is_y(const struct kconfig *kc, const char *name)
{
	const char *v = kconfig_value(kc, name);

	return v && !strcmp(v, "y");
}

/* The level the kernel locks itself down to at boot without being asked, or -1. */
static int forced_level(const struct kconfig *kc)
{
	if (!kc || !is_y(kc, "CONFIG_SECURITY_LOCKDOWN_LSM"))
		return -1;
	if (is_y(kc, "CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY"))
		return 2;
	if (is_y(kc, "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY"))
		return 1;
	return is_y(kc, "CONFIG_LOCK_DOWN_KERNEL_FORCE_NONE") ? 0 : -1;
}

void kfacts_lockdown(const char *securityfs, const char *cmdline, const struct kconfig *kc,
		     char *buf, size_t len)
{
	int level = securityfs_level(securityfs), boot;

	/* without securityfs (not mounted, as in many VMs): what boot forced */
	if (level < 0) {
		boot = cmdline_level(cmdline);
		level = forced_level(kc);
		if (boot > level && kc && is_y(kc, "CONFIG_SECURITY_LOCKDOWN_LSM"))
			level = boot;
	}
	snprintf(buf, len, "%s", level < 0 ? "unavailable" : levels[level]);
}

#define TRY_VM "try it on another kernel in a VM: --kernel IMAGE (docs/kernel.md)"

int kfacts_eperm_cause(const char *lockdown, const struct kconfig *kc,
		       const char *const *needs, char *buf, size_t len)
{
	int level = lockdown ? level_of(lockdown, strlen(lockdown)) : -1;

	buf[0] = '\0';
	if (level > 0) {
		snprintf(buf, len, "kernel lockdown is '%s'; " TRY_VM, levels[level]);
		return 1;
	}
	for (int i = 0; kc && needs && needs[i]; i++) {
		if (!is_y(kc, needs[i])) {
			snprintf(buf, len, "kernel built without %s; " TRY_VM, needs[i]);
			return 1;
		}
	}
	return 0;
}

int kfacts_eperm_hint(const char *const *needs, char *buf, size_t len)
{
	char *securityfs = read_first_line("/sys/kernel/security/lockdown");
	char *cmdline = read_first_line("/proc/cmdline");
	char path[PATH_MAX], lockdown[32];
	struct kconfig *kc = NULL;
	int cause;

	if (!kconfig_host_path(path, sizeof(path)) && kconfig_open(path, &kc))
		kc = NULL;
	kfacts_lockdown(securityfs, cmdline, kc, lockdown, sizeof(lockdown));
	cause = kfacts_eperm_cause(lockdown, kc, needs, buf, len);
	kconfig_free(kc);
	free(cmdline);
	free(securityfs);
	return cause;
}
