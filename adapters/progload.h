/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What loading a point's programs cost (workload.h's struct wl_load_stats):
 * wl_load_skeleton() loads a skeleton as its <name>__load() does, having
 * given each program to be loaded a BPF_LOG_STATS log (log level 4: the
 * verifier's statistics lines and its error, no instruction trace) and
 * started the clock; after the load, whatever it returned, it reads each
 * loaded program's bpf_prog_info and log into *ls, frees the logs and,
 * for a program the kernel refused, keeps the verifier's verdict for
 * libbpf_log_explain() (libbpf prints no log it does not own).
 */
#ifndef WORKLOADS_PROGLOAD_H
#define WORKLOADS_PROGLOAD_H

#include <bpf/libbpf.h>

#include "workload.h"

/*
 * s is the skeleton's (skel->skeleton), *ls the state's member that its
 * descriptor names (WL_LOAD_STATS_IN).  What bpf_object__load_skeleton()
 * returned, or -ENOMEM (no log could be given: nothing was loaded).
 */
int wl_load_skeleton(struct bpf_object_skeleton *s, struct wl_load_stats *ls);

/*
 * A BPF_LOG_STATS log's lines into p's fields (LF_TOTAL_INSNS from
 * "processed", LF_TOTAL_STATES, LF_PEAK_STATES, LF_STACK_DEPTH,
 * LF_VERIFY_US); those absent stay as they were.
 */
void wl_load_parse_log(const char *log, struct wl_prog_load *p);

#endif
