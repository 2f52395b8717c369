// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's and the JIT's figures of a load (progload.h).  The
 * sizes and verified_insns come from bpf_prog_info, the states, stack
 * depth and verification time from the BPF_LOG_STATS lines the verifier
 * ends its log with, as veristat reads them:
 *   verification time 31 usec
 *   stack depth 8+0
 *   processed 62 insns (limit 1000000) max_states_per_insn 0 total_states 5 peak_states 5 ...
 * Level 4 alone writes those lines and an error, nothing per instruction.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>

#include "libbpf_log.h"
#include "progload.h"

/* The statistics lines and an error fit; a kernel before 6.4 fails a load whose log is full. */
#define LOG_SIZE	(64 * 1024)
#define LOG_LEVEL_STATS	4

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void fields_unknown(uint64_t *v)
{
	for (int f = 0; f < NR_LOAD_FIELDS; f++)
		v[f] = METRIC_UNKNOWN;
}

static int load_begin(struct bpf_object *obj, struct wl_load_stats *ls)
{
	struct bpf_program *prog;
	int i = 0;

	memset(ls, 0, sizeof(*ls));
	fields_unknown(ls->total);
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog) || i == WL_MAX_PROGS)
			continue;
		ls->log[i] = calloc(1, LOG_SIZE);
		if (!ls->log[i])
			return -ENOMEM;
		bpf_program__set_log_buf(prog, ls->log[i], LOG_SIZE);
		bpf_program__set_log_level(prog, LOG_LEVEL_STATS);
		i++;
	}
	ls->start_ns = mono_ns();
	return 0;
}

/* "8+0+16": the main program's stack and its subprograms', summed as veristat does. */
static uint64_t stack_sum(const char *s)
{
	uint64_t sum = 0;
	char *end;

	for (;;) {
		sum += strtoull(s, &end, 10);
		if (end == s || *end != '+')
			return sum;
		s = end + 1;
	}
}

/* The number after "key " in line, or keep *v. */
static void field_after(const char *line, const char *key, uint64_t *v)
{
	const char *at = strstr(line, key);
	unsigned long long n;

	if (at && sscanf(at + strlen(key), " %llu", &n) == 1)
		*v = n;
}

void wl_load_parse_log(const char *log, struct wl_prog_load *p)
{
	unsigned long long n;

	for (const char *line = log; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "verification time %llu usec", &n) == 1)
			p->v[LF_VERIFY_US] = n;
		else if (!strncmp(line, "stack depth ", 12))
			p->v[LF_STACK_DEPTH] = stack_sum(line + 12);
		else if (sscanf(line, "processed %llu insns", &n) == 1) {
			p->v[LF_TOTAL_INSNS] = n;
			field_after(line, "total_states", &p->v[LF_TOTAL_STATES]);
			field_after(line, "peak_states", &p->v[LF_PEAK_STATES]);
		}
	}
}

/*
 * bpf_prog_info's figures of a loaded program.  verified_insns is 5.16's:
 * an older kernel's answer ends before it, and the log's "processed"
 * (the same count, env->insn_processed) stands.
 */
static void read_info(int fd, struct wl_prog_load *p)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return;
	p->id = info.id;
	p->v[LF_XLATED_SIZE] = info.xlated_prog_len;
	p->v[LF_JITED_SIZE] = info.jited_prog_len;
	if (len >= offsetof(struct bpf_prog_info, verified_insns) + sizeof(info.verified_insns))
		p->v[LF_TOTAL_INSNS] = info.verified_insns;
}

/* The peaks are the largest program's; the counts, sizes and times add up. */
static bool is_peak(int f)
{
	return f == LF_PEAK_STATES || f == LF_STACK_DEPTH;
}

/* The point's figures: unknown if one of its programs' is. */
static void aggregate(struct wl_load_stats *ls)
{
	for (int f = 0; f < NR_LOAD_FIELDS; f++) {
		uint64_t t = 0;

		if (f == LF_LOAD_US)
			continue;
		for (int i = 0; i < ls->nr_progs && t != METRIC_UNKNOWN; i++) {
			uint64_t v = ls->prog[i].v[f];

			t = v == METRIC_UNKNOWN ? v : is_peak(f) ? (v > t ? v : t) : t + v;
		}
		ls->total[f] = ls->nr_progs ? t : METRIC_UNKNOWN;
	}
}

/* As WL_LOAD_METRICS names them, for the row's reason. */
static const char *const field_names[NR_LOAD_FIELDS] = {
	[LF_TOTAL_INSNS] = "total_insns", [LF_TOTAL_STATES] = "total_states",
	[LF_PEAK_STATES] = "peak_states", [LF_STACK_DEPTH] = "stack_depth",
	[LF_XLATED_SIZE] = "xlated_size", [LF_JITED_SIZE] = "jited_size",
	[LF_VERIFY_US] = "verify_time", [LF_LOAD_US] = "load_time",
};

/* What the kernel did not say, for the row's reason. */
static void note_unknown(struct wl_load_stats *ls)
{
	size_t n = 0;

	for (int f = 0; f < NR_LOAD_FIELDS && n < sizeof(ls->note); f++)
		if (ls->total[f] == METRIC_UNKNOWN)
			n += snprintf(ls->note + n, sizeof(ls->note) - n, "%s%s", n ? ", " : "",
				      field_names[f]);
	if (n && n < sizeof(ls->note))
		snprintf(ls->note + n, sizeof(ls->note) - n, ": not given by this kernel");
	if (!n && ls->total[LF_JITED_SIZE] == 0)
		snprintf(ls->note, sizeof(ls->note), "jited_size 0: the JIT is off");
}

static void load_end(struct bpf_object *obj, struct wl_load_stats *ls, int load_err)
{
	uint64_t load_ns = mono_ns() - ls->start_ns;
	struct bpf_program *prog;
	int i = 0, more = 0;

	bpf_object__for_each_program(prog, obj) {
		struct wl_prog_load *p;
		int fd = bpf_program__fd(prog);

		more += bpf_program__autoload(prog) && i == WL_MAX_PROGS;
		if (!bpf_program__autoload(prog) || i == WL_MAX_PROGS)
			continue;
		p = &ls->prog[i];
		snprintf(p->name, sizeof(p->name), "%s", bpf_program__name(prog));
		snprintf(p->type, sizeof(p->type), "%s",
			 libbpf_bpf_prog_type_str(bpf_program__type(prog)) ?: "unknown");
		fields_unknown(p->v);
		if (ls->log[i] && fd < 0)
			libbpf_log_keep_verdict(ls->log[i]);
		if (ls->log[i])
			wl_load_parse_log(ls->log[i], p);
		if (fd >= 0)
			read_info(fd, p);
		/* libbpf keeps the pointer: a later load of this object must not write here */
		bpf_program__set_log_buf(prog, NULL, 0);
		free(ls->log[i]);
		ls->log[i] = NULL;
		i++;
	}
	ls->nr_progs = load_err ? 0 : i;
	aggregate(ls);
	ls->total[LF_LOAD_US] = load_err ? METRIC_UNKNOWN : load_ns / 1000;
	if (!load_err)
		note_unknown(ls);
	/* a sum over some of the programs would claim to be the point's */
	if (more && !load_err) {
		fields_unknown(ls->total);
		snprintf(ls->note, sizeof(ls->note), "more than %d programs: no figures",
			 WL_MAX_PROGS);
	}
}

int wl_load_skeleton(struct bpf_object_skeleton *s, struct wl_load_stats *ls)
{
	int err = load_begin(*s->obj, ls);

	err = err ?: bpf_object__load_skeleton(s);
	load_end(*s->obj, ls, err);
	return err;
}
