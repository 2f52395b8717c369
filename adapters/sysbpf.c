// SPDX-License-Identifier: GPL-2.0
/*
 * What BPF already runs on the machine, for the system check: every
 * loaded program counted by type, and the links on the tracepoints
 * bpfsweep's workloads attach to, whose programs run in the measured
 * syscalls too.  Raw tracepoint links name their tracepoint
 * (bpf_link_info.raw_tracepoint); programs attached without a link (a
 * perf event's PERF_EVENT_IOC_SET_BPF) are counted, not placed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sysbpf.h"

#define MAX_TYPES	64

static void count_progs(struct sys_bpf *out)
{
	int count[MAX_TYPES] = { 0 };
	__u32 id = 0;
	size_t n = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* unloaded meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type < MAX_TYPES)
			count[info.type]++;
		out->nr_progs++;
		close(fd);
	}
	if (errno != ENOENT)
		out->err = -errno;
	for (int t = 0; t < MAX_TYPES; t++) {
		const char *name = libbpf_bpf_prog_type_str(t);

		if (count[t] && n < sizeof(out->by_type))
			n += snprintf(out->by_type + n, sizeof(out->by_type) - n, "%s%s %d",
				      n ? ", " : "", name ? name : "unknown", count[t]);
	}
}

static bool is_hook(const char *tp, const char *const *hooks)
{
	for (int i = 0; hooks[i]; i++)
		if (!strcmp(tp, hooks[i]))
			return true;
	return false;
}

/* "raw_tp sys_enter: prog 42 (name)" of a raw tracepoint link on one of hooks. */
static void place_link(int fd, const char *const *hooks, struct sys_bpf *out, size_t *n)
{
	struct bpf_link_info info = { 0 };
	struct bpf_prog_info pinfo = { 0 };
	__u32 len = sizeof(info), plen = sizeof(pinfo);
	char tp[128] = "";
	int pfd;

	info.raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
	info.raw_tracepoint.tp_name_len = sizeof(tp);
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.type != BPF_LINK_TYPE_RAW_TRACEPOINT || !is_hook(tp, hooks))
		return;
	pfd = bpf_prog_get_fd_by_id(info.prog_id);
	if (pfd >= 0) {
		bpf_obj_get_info_by_fd(pfd, &pinfo, &plen);
		close(pfd);
	}
	out->nr_hooked++;
	if (*n < sizeof(out->hooked))
		*n += snprintf(out->hooked + *n, sizeof(out->hooked) - *n,
			       "%sraw_tp %s: prog %u (%s), link %u", *n ? ", " : "", tp,
			       info.prog_id, pinfo.name[0] ? pinfo.name : "unnamed", info.id);
}

static void find_hooked(const char *const *hooks, struct sys_bpf *out)
{
	__u32 id = 0;
	size_t n = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;
		place_link(fd, hooks, out, &n);
		close(fd);
	}
}

/* r0 = 0; exit: a socket filter, run once; its run_cnt grows only while statistics are on. */
int sys_bpf_stats_active(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt));
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	int fd, on = -1;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bpfsweep_stats", "GPL", insns, 2,
			   NULL);
	if (fd < 0)
		return -1;
	if (!bpf_prog_test_run_opts(fd, &opts) && !bpf_obj_get_info_by_fd(fd, &info, &len))
		on = info.run_cnt > 0;
	close(fd);
	return on;
}

void sys_bpf_scan(const char *const *hooks, struct sys_bpf *out)
{
	memset(out, 0, sizeof(*out));
	errno = 0;
	count_progs(out);
	if (!out->err)
		find_hooked(hooks, out);
	out->stats_active = sys_bpf_stats_active();
}
