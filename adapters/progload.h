/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What loading a point's programs cost (workload.h's struct wl_load_stats):
 * wl_load_begin() before a skeleton's load gives each program to be loaded
 * a BPF_LOG_STATS log (log level 4: the verifier's statistics lines and
 * its error, no instruction trace) and starts the clock; wl_load_end()
 * after it, whatever the load returned, reads each loaded program's
 * bpf_prog_info and log into *ls, frees the logs and, for a program the
 * kernel refused, keeps the verifier's verdict for libbpf_log_explain()
 * (libbpf prints no log it does not own).  obj is the skeleton's
 * struct bpf_object.
 */
#ifndef WORKLOADS_PROGLOAD_H
#define WORKLOADS_PROGLOAD_H

#include <bpf/libbpf.h>

#include "workload.h"

/* 0, or -ENOMEM (ls then has no logs, and the load goes on without them). */
int wl_load_begin(struct bpf_object *obj, struct wl_load_stats *ls);
void wl_load_end(struct bpf_object *obj, struct wl_load_stats *ls, int load_err);

/*
 * A BPF_LOG_STATS log's lines into p's fields (LF_TOTAL_INSNS from
 * "processed", LF_TOTAL_STATES, LF_PEAK_STATES, LF_STACK_DEPTH,
 * LF_VERIFY_US); those absent stay as they were.
 */
void wl_load_parse_log(const char *log, struct wl_prog_load *p);

/* The load_stats callback's body: *ls into *out, -ENODATA if nothing was loaded. */
int wl_load_copy(const struct wl_load_stats *ls, struct wl_load_stats *out);

#endif
