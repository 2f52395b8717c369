/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF programs already on the machine, for the system check
 * (syscheck.h), from libbpf's calls in sysbpf.c: adapters/ is where the
 * engine's libbpf calls are, since sweep/ never includes libbpf.
 */
#ifndef ADAPTERS_SYSBPF_H
#define ADAPTERS_SYSBPF_H

struct sys_bpf {
	int err;		/* 0, or -errno: the kernel refused the listing (CAP_SYS_ADMIN) */
	int nr_progs;		/* loaded programs */
	char by_type[256];	/* "tracing 4, raw_tracepoint 2, ..." */
	int nr_hooked;		/* links on one of the hooks asked about */
	char hooked[512];	/* "raw_tp sys_enter: prog 42 (name), ..." */
	int stats_active;	/* the kernel times runs now: 1, 0, -1 unknown */
};

/*
 * List the loaded programs by type (bpf_prog_get_next_id) and the raw
 * tracepoint links on the tracepoints hooks[] (NULL-terminated) names
 * (bpf_link_get_next_id); ask the kernel, with a program of its own run
 * once by BPF_PROG_TEST_RUN, whether it keeps run-time statistics now.
 */
void sys_bpf_scan(const char *const *hooks, struct sys_bpf *out);

/* Does the kernel time BPF program runs now?  1, 0, or -1 when it cannot tell (no privilege). */
int sys_bpf_stats_active(void);

#endif
