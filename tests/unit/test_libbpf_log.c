// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf_log_verdict(): finding the verifier's verdict in a load log;
 * wl_load_parse_log(): its BPF_LOG_STATS figures (progload.h).
 */
#include "check.h"
#include "libbpf_log.h"
#include "progload.h"

static const char *verdict(const char *log)
{
	static char buf[256];

	libbpf_log_verdict(log, buf, sizeof(buf));
	return buf;
}

TEST(verdict_before_statistics)
{
	CHECK_STR(verdict("func#0 @0\n"
			  "0: R1=ctx() R10=fp0\n"
			  "; return *(u32 *)(ctx + 8); @ x.bpf.c:12\n"
			  "0: (61) r0 = *(u32 *)(r1 +8)\n"
			  "invalid bpf_context access off=8 size=4\n"
			  "processed 1 insns (limit 1000000) max_states_per_insn 0 total_states 0\n"
			  "verification time 12 usec\n"
			  "stack depth 0\n"),
		  "invalid bpf_context access off=8 size=4");
}

TEST(verdict_of_too_complex_program)
{
	CHECK_STR(verdict("12: (05) goto pc-9\n"
			  "from 12 to 3: R0=scalar()\n"
			  "The sequence of 8193 jumps is too complex.\n"
			  "verification time 81234 usec\n"),
		  "The sequence of 8193 jumps is too complex.");
}

TEST(no_verdict_in_a_cut_trace)
{
	CHECK_STR(verdict("func#0 @0\n"
			  "26: (18) r1 = 0xffff888126047c00      ; R1=map_ptr(map=ringbuf)\n"
			  "28: (18) r2 = 0xffffc"),
		  "");
	CHECK_STR(verdict("26: (18) r1 = 0xffff888126047c00\n; if (x) @ a.c:3\n"), "");
	CHECK_STR(verdict(""), "");
}

/* The lines veristat reads, as 6.1 and 6.18 write them (6.18 without mark_read). */
TEST(load_stats_of_a_log)
{
	struct wl_prog_load p;

	for (int f = 0; f < NR_LOAD_FIELDS; f++)
		p.v[f] = METRIC_UNKNOWN;
	wl_load_parse_log("func#0 @0\n"
			  "verification time 191 usec\n"
			  "stack depth 8+0+16\n"
			  "processed 73 insns (limit 1000000) max_states_per_insn 1 total_states 6 "
			  "peak_states 5 mark_read 2\n", &p);
	CHECK_INT(p.v[LF_VERIFY_US], 191);
	CHECK_INT(p.v[LF_STACK_DEPTH], 24);
	CHECK_INT(p.v[LF_TOTAL_INSNS], 73);
	CHECK_INT(p.v[LF_TOTAL_STATES], 6);
	CHECK_INT(p.v[LF_PEAK_STATES], 5);
	CHECK(p.v[LF_XLATED_SIZE] == METRIC_UNKNOWN);
	/* a log without the statistics (a kernel before BPF_LOG_STATS) leaves them unknown */
	for (int f = 0; f < NR_LOAD_FIELDS; f++)
		p.v[f] = METRIC_UNKNOWN;
	wl_load_parse_log("processed 9 insns (limit 1000000) max_states_per_insn 0 "
			  "total_states 1 peak_states 1\ninvalid mem access 'scalar'\n", &p);
	CHECK_INT(p.v[LF_TOTAL_INSNS], 9);
	CHECK_INT(p.v[LF_PEAK_STATES], 1);
	CHECK(p.v[LF_VERIFY_US] == METRIC_UNKNOWN);
	CHECK(p.v[LF_STACK_DEPTH] == METRIC_UNKNOWN);
}

RUN_TESTS(verdict_before_statistics, verdict_of_too_complex_program, no_verdict_in_a_cut_trace,
	  load_stats_of_a_log)
