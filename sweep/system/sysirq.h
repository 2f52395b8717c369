/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where interrupts may run and who moves them, for the system check
 * (syscheck.h): the IRQs' affinity lists under /proc/irq, whether
 * irqbalance runs (a scan of /proc/PID/comm), and the kernel's CPU lists
 * ("0-3,8") as sets, to tell which of them touch the CPUs a run uses.
 * Everything is read under a root that a test replaces (syscheck_root()).
 */
#ifndef SWEEP_SYSIRQ_H
#define SWEEP_SYSIRQ_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* list ("0-3,8", "all", "" for none) into set; 0, or -EINVAL when it is not one. */
int cpus_parse(const char *list, cpu_set_t *set);

/* set as a list, "0-3,8" ("none" when empty), into buf. */
void cpus_format(const cpu_set_t *set, char *buf, size_t len);

/* Is every CPU of a in b? */
bool cpus_within(const cpu_set_t *a, const cpu_set_t *b);

/* Is a process whose comm is name running under root?  1, 0, or -1 (no root/proc). */
int sys_proc_running(const char *root, const char *name);

/*
 * Each IRQ's smp_affinity_list under root/proc/irq into *aff (malloc()ed,
 * *nr of them); -errno when the directory cannot be read.
 */
int sys_irq_affinities(const char *root, cpu_set_t **aff, int *nr);

/*
 * The value of the kernel parameter param ("rcu_nocbs") in cmdline into
 * buf: "" when given bare; false when absent.
 */
bool cmdline_param(const char *cmdline, const char *param, char *buf, size_t len);

#endif
