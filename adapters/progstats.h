/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adapters/progstats.c beyond workload.h's wl_bpf_stats_on(): its
 * fallback taken at once, so that the root tests run the sysctl path on a
 * kernel that grants BPF_ENABLE_STATS.  wl_bpf_stats_off() ends it.
 */
#ifndef ADAPTERS_PROGSTATS_H
#define ADAPTERS_PROGSTATS_H

#include <stdbool.h>
#include <stddef.h>

int progstats_on_sysctl(char *how, size_t len);

/* From now on wl_bpf_stats_on() takes the sysctl too (true), or tries BPF_ENABLE_STATS first. */
void progstats_force_sysctl(bool force);

#endif
