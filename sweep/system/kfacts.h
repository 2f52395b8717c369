/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts of the running kernel that decide what bpfsweep can run on it:
 * lockdown and the build options BPF attach types depend on.  meta records
 * them; a workload whose load fails with EPERM names the one that applies.
 */
#ifndef SWEEP_KFACTS_H
#define SWEEP_KFACTS_H

#include <stddef.h>

#include "kconfig.h"

/* The options meta records as "config: CONFIG_X=v" or "... is not set"; NULL-terminated. */
extern const char *const kfacts_config_names[];

/*
 * The lockdown mode into buf: "none", "integrity" or "confidentiality",
 * from securityfs's text ("none [integrity] confidentiality") when it is
 * mounted; else the least the kernel was forced to at boot (by
 * CONFIG_LOCK_DOWN_KERNEL_FORCE_* or lockdown= on cmdline, the stricter
 * wins); else "unavailable".  Any argument may be NULL.
 */
void kfacts_lockdown(const char *securityfs, const char *cmdline, const struct kconfig *kc,
		     char *buf, size_t len);

/*
 * Why a BPF load may have failed with EPERM, and what to do, into buf:
 * "kernel lockdown is 'integrity'; try it on another kernel in a VM:
 * --kernel IMAGE (docs/kernel.md)", or "kernel built without CONFIG_X; ..."
 * for the first of needs (NULL-terminated option names the load depends
 * on) that kc does not set.  Lockdown comes first: it refuses whatever
 * the config allows.  Returns 1 with a cause, 0 and "" without one (an
 * unknown cause is not guessed at).  kc may be NULL (config unknown).
 */
int kfacts_eperm_cause(const char *lockdown, const struct kconfig *kc,
		       const char *const *needs, char *buf, size_t len);

/* kfacts_eperm_cause() of the running kernel: its lockdown and config as read now. */
int kfacts_eperm_hint(const char *const *needs, char *buf, size_t len);

#endif
