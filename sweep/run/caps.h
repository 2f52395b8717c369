/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The privileges a workload's probe and setup need, checked before a
 * sweep starts: a missing one is the user's to fix, not a kernel limit.
 */
#ifndef SWEEP_CAPS_H
#define SWEEP_CAPS_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/*
 * The capabilities wl needs that the effective set `eff` (bit n is
 * capability n) lacks, as "CAP_BPF, CAP_PERFMON" into buf; returns how many.
 */
int caps_lacking(const struct workload *wl, uint64_t eff, char *buf, size_t len);

/* This process's effective capability set, through capget(2); 0 or -errno. */
int caps_effective(uint64_t *eff);

/*
 * What this process lacks to run wl, into buf as for caps_lacking(); the
 * count, or -errno when the set cannot be read.
 */
int caps_missing(const struct workload *wl, char *buf, size_t len);

/* What caps_missing() stands for, for messages: "CAP_BPF and CAP_PERFMON (or ...)". */
extern const char caps_bpf_rule[];

#endif
