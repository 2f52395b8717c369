// SPDX-License-Identifier: GPL-2.0
/*
 * execparse.c: the exec workload's parsers on the seeds' own output
 * (tests/fixtures/import/: the kernel bench's Iter and Summary lines,
 * map_perf_test's per-worker lines), with exact numbers, and the errors
 * that name the output line.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "execparse.h"
#include "textfile.h"

#define FIX "tests/fixtures/import/"

/*
 * The output of the n-th command of a fixture (0-based): the lines after
 * its n-th prompt line ("$ ..." or "[root@...]# ..."), up to the next.
 */
static char *block(const char *path, int n)
{
	char *text, *s, *start = NULL, *end = NULL;
	int seen = -1;

	if (read_text_file(path, &text))
		return NULL;
	for (s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		if (*s != '$' && *s != '[')
			continue;
		if (++seen == n)
			start = strchr(s, '\n') + 1;
		else if (seen == n + 1)
			end = s;
	}
	if (!start) {
		free(text);
		return NULL;
	}
	if (end)
		*end = '\0';
	memmove(text, start, strlen(start) + 1);
	return text;
}

static struct exec_parser kbench_parser(void)
{
	return (struct exec_parser){ .fmt = EXEC_KBENCH, .nr_metrics = 3,
				     .metrics = { "hits", "drops", "total_operations" } };
}

static int parse(const struct exec_parser *p, const char *text, struct exec_output *o,
		 char *why, size_t len)
{
	why[0] = '\0';
	return exec_parse(p, text, strlen(text), NULL, o, why, len);
}

/* "Iter   1 (-12.075us)": the iteration lasted 1 s - 12.075 us. */
TEST(kbench_seed_iters)
{
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char *text = block(FIX "bench_summary.txt", 0), why[256];

	CHECK(text);
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), 0);
	free(text);
	CHECK_INT(o.nr_iv, 4);
	CHECK_INT(o.iv[0].line, 3);
	CHECK_INT(o.iv[0].elapsed_ns, 1000051423);
	CHECK_INT(o.iv[1].elapsed_ns, 999987925);
	CHECK_INT(o.iv[3].elapsed_ns, 999991893);
	CHECK_NEAR(o.iv[0].rate[0], 13.825e6, 1e-6);
	CHECK_NEAR(o.iv[1].rate[0], 14.104e6, 1e-6);
	CHECK_NEAR(o.iv[3].rate[0], 14.065e6, 1e-6);
	CHECK_NEAR(o.iv[3].rate[1], 0, 1e-9);
	CHECK_NEAR(o.iv[2].rate[2], 14.023e6, 1e-6);
	CHECK_INT(o.nr_threads, 0);
	exec_output_free(&o);
}

/* bench -q: no Iter lines, the Summary's means are the one interval. */
TEST(kbench_summary_only)
{
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "Setting up benchmark 'rb-libbpf'...\n"
			"Summary: hits   14.064 \xc2\xb1 0.041M/s (  7.032M/prod), drops    0.000 "
			"\xc2\xb1 0.000M/s, total operations   14.064 \xc2\xb1 0.041M/s\n",
			&o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 1);
	CHECK_INT(o.iv[0].line, 2);
	CHECK_INT(o.iv[0].elapsed_ns, 0);
	CHECK_NEAR(o.iv[0].rate[0], 14.064e6, 1e-6);
	CHECK_NEAR(o.iv[0].rate[2], 14.064e6, 1e-6);
	exec_output_free(&o);
}

/* The Summary is not an interval where Iter lines are. */
TEST(kbench_summary_not_counted_twice)
{
	struct exec_parser p = { .fmt = EXEC_KBENCH, .nr_metrics = 1, .metrics = { "hits" } };
	struct exec_output o;
	char *text = block(FIX "bench_summary.txt", 1), why[256];

	CHECK(text);
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), 0);
	free(text);
	CHECK_INT(o.nr_iv, 2);
	CHECK_INT(o.iv[0].elapsed_ns, 1000040120);
	CHECK_NEAR(o.iv[1].rate[0], 54.833e6, 1e-6);
	exec_output_free(&o);
}

TEST(map_perf_seed_workers)
{
	struct exec_parser p = { .fmt = EXEC_MAP_PERF, .nr_metrics = 1, .metrics = { "events" } };
	struct exec_output o;
	char *text = block(FIX "001_map_perf.txt", 0), why[256];

	CHECK(text);
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), 0);
	free(text);
	CHECK_INT(o.nr_iv, 1);
	CHECK_INT(o.iv[0].elapsed_ns, 0);
	CHECK_INT(o.nr_threads, 8);
	CHECK_NEAR(o.thread_rate[0], 265031, 1e-9);
	CHECK_NEAR(o.thread_rate[5], 358498, 1e-9);
	CHECK_NEAR(o.thread_rate[7], 278138, 1e-9);
	CHECK_NEAR(o.iv[0].rate[0], 2397007, 1e-6);
	exec_output_free(&o);
}

static int regex_parser(struct exec_parser *p)
{
	*p = (struct exec_parser){ .fmt = EXEC_REGEX, .nr_metrics = 1, .metrics = { "ops" },
				   .nr_fields = 3, .elapsed_scale = 1e6,
				   .field = { EXEC_FIELD_SKIP, EXEC_FIELD_ELAPSED, 0 } };
	return regcomp(&p->re, "^t=([0-9]+) elapsed_ms=([0-9.]+) ops=([0-9.]+)", REG_EXTENDED);
}

TEST(regex_groups_in_order)
{
	struct exec_parser p;
	struct exec_output o;
	char why[256];

	CHECK_INT(regex_parser(&p), 0);
	CHECK_INT(parse(&p, "header\nt=0 elapsed_ms=500.25 ops=1234.5 x\nnoise\n"
			"t=1 elapsed_ms=1000 ops=7\n", &o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 2);
	CHECK_INT(o.iv[0].line, 2);
	CHECK_INT(o.iv[0].elapsed_ns, 500250000);
	CHECK_NEAR(o.iv[0].rate[0], 1234.5, 1e-9);
	CHECK_INT(o.iv[1].line, 4);
	CHECK_INT(o.iv[1].elapsed_ns, 1000000000);
	exec_output_free(&o);
	regfree(&p.re);
}

TEST(regex_group_not_a_number)
{
	struct exec_parser p;
	struct exec_output o;
	char why[256];

	p = (struct exec_parser){ .fmt = EXEC_REGEX, .nr_metrics = 1, .metrics = { "ops" },
				  .nr_fields = 3, .elapsed_scale = 1e6,
				  .field = { 0, EXEC_FIELD_ELAPSED, EXEC_FIELD_SKIP } };
	CHECK_INT(regcomp(&p.re, "^t=([a-z]+) elapsed_ms=([0-9.]+) (.*)", REG_EXTENDED), 0);
	CHECK_INT(parse(&p, "t=abc elapsed_ms=1 z\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: group 1 is no number: t=abc elapsed_ms=1 z");
	regfree(&p.re);
}

/* Every error names the output line, with its text. */
TEST(kbench_errors_name_the_line)
{
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "Iter   0 ( 10.000us): hits 1.5M/s, drops 0.2M/s, total operations 1.5M/s\n"
			"Iter   1: hits    1.500M/s\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: not 'Iter N (X.XXXus): ...': Iter   1: hits    1.500M/s");
	CHECK_INT(o.nr_iv, 0);
	CHECK_INT(parse(&p, "Iter   0 ( 10.000us): hits    1.500M/s (  1.500M/prod)\n", &o, why,
			sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: no value 'drops': Iter   0 ( 10.000us): hits    1.500M/s "
		  "(  1.500M/prod)");
	CHECK_INT(parse(&p, "Benchmark 'x' started.\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no 'Iter' or 'Summary' line");
}

/* A long line is quoted up to 80 characters, control characters blanked. */
TEST(error_quote_is_bounded)
{
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char why[256], line[300];

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "Iter \x1b[1m", 9);
	CHECK_INT(parse(&p, line, &o, why, sizeof(why)), -EBADMSG);
	CHECK(!strchr(why, '\x1b'));
	CHECK(strlen(why) < 160);
	CHECK_STR(why + strlen(why) - 3, "...");
}

TEST(map_perf_errors)
{
	struct exec_parser p = { .fmt = EXEC_MAP_PERF, .nr_metrics = 1, .metrics = { "events" } };
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "0:hash_map_perf kmalloc 1000 events per sec\n"
			"2:hash_map_perf kmalloc 3000 events per sec\n", &o, why, sizeof(why)),
		  -EBADMSG);
	CHECK_STR(why, "output: no line of worker 1 (workers 0..2 printed)");
	CHECK_INT(parse(&p, "0:a 1 events per sec\n0:a 2 events per sec\n", &o, why, sizeof(why)),
		  -EBADMSG);
	CHECK_STR(why, "output line 2: worker printed twice: 0:a 2 events per sec");
	CHECK_INT(parse(&p, "1:a 1 events per sec trailing\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: not 'N:name X events per sec': 1:a 1 events per sec trailing");
	CHECK_INT(parse(&p, "nothing here\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no 'N:name X events per sec' line");
}

/* fields "ops elapsed_ms=time_ms": the metric ops, the interval's length in ms. */
static struct exec_parser rows_parser(enum exec_format fmt)
{
	return (struct exec_parser){ .fmt = fmt, .nr_metrics = 1, .metrics = { "ops" },
				     .nr_fields = 2, .elapsed_scale = 1e6,
				     .field = { 0, EXEC_FIELD_ELAPSED },
				     .column = { "ops", "time_ms" } };
}

/* Text before the header is skipped; cells are trimmed, columns found by name. */
TEST(csv_header_then_rows)
{
	struct exec_parser p = rows_parser(EXEC_CSV);
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "fakebench: csv mode\nops, not a header\n"
			"t, time_ms,ops,note\n0, 250.5,2000.25,x\n\n1,1000,7,\"y, z\"\n",
			&o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 2);
	CHECK_INT(o.iv[0].line, 4);
	CHECK_INT(o.iv[0].elapsed_ns, 250500000);
	CHECK_NEAR(o.iv[0].rate[0], 2000.25, 1e-9);
	CHECK_INT(o.iv[1].line, 6);
	CHECK_INT(o.iv[1].elapsed_ns, 1000000000);
	CHECK_NEAR(o.iv[1].rate[0], 7, 1e-9);
	exec_output_free(&o);
}

/* A quoted header cell names a column no metric name could. */
TEST(csv_quoted_column_no_elapsed)
{
	struct exec_parser p = { .fmt = EXEC_CSV, .nr_metrics = 1, .metrics = { "ops" },
				 .nr_fields = 1, .field = { 0 }, .column = { "ops/s" } };
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "\"ops/s\",n\n\"12.5\",3\n", &o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 1);
	CHECK_INT(o.iv[0].elapsed_ns, 0);
	CHECK_NEAR(o.iv[0].rate[0], 12.5, 1e-12);
	exec_output_free(&o);
}

TEST(csv_errors_name_the_line)
{
	struct exec_parser p = rows_parser(EXEC_CSV);
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "t,time_ms,ops,note\n0,250.5,2000.25,x\n1,250.5,2000.25\n", &o, why,
			sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 3: 3 cells, the header has 4: 1,250.5,2000.25");
	CHECK_INT(o.nr_iv, 0);
	CHECK_INT(parse(&p, "time_ms,ops\n1,abc\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: column 'ops' is no number: 1,abc");
	CHECK_INT(parse(&p, "time_ms,ops\n1,-2\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: column 'ops' is no number: 1,-2");
	CHECK_INT(parse(&p, "time_ms,ops\n1,\"2\"x\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: not a CSV row: 1,\"2\"x");
	CHECK_INT(parse(&p, "time_ms,ops\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no CSV row after the header");
	CHECK_INT(parse(&p, "time,ops\n1,2\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no CSV header line naming the fields' columns");
}

/* Lines not starting with '{' are skipped; keys in any order, ints and doubles. */
TEST(jsonl_objects)
{
	struct exec_parser p = rows_parser(EXEC_JSONL);
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "fakebench: jsonl mode\n"
			"{\"t\": 0, \"time_ms\": 250.5, \"ops\": 2000.25, \"note\": \"x\"}\n"
			"[1, 2]\n  {\"ops\": 5, \"time_ms\": 1000, \"more\": {\"a\": [1]}}  \n",
			&o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 2);
	CHECK_INT(o.iv[0].line, 2);
	CHECK_INT(o.iv[0].elapsed_ns, 250500000);
	CHECK_NEAR(o.iv[0].rate[0], 2000.25, 1e-9);
	CHECK_INT(o.iv[1].line, 4);
	CHECK_INT(o.iv[1].elapsed_ns, 1000000000);
	CHECK_NEAR(o.iv[1].rate[0], 5, 1e-12);
	exec_output_free(&o);
}

TEST(jsonl_errors_name_the_line)
{
	struct exec_parser p = rows_parser(EXEC_JSONL);
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "{\"time_ms\": 1, \"ops\": 2}\n{\"time_ms\": 250.5, \"ops\"\n", &o, why,
			sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: not one JSON object: {\"time_ms\": 250.5, \"ops\"");
	CHECK_INT(o.nr_iv, 0);
	CHECK_INT(parse(&p, "{\"time_ms\": 1, \"ops\": 2} x\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: not one JSON object: {\"time_ms\": 1, \"ops\": 2} x");
	CHECK_INT(parse(&p, "{\"time_ms\": 1}\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: no key 'ops': {\"time_ms\": 1}");
	CHECK_INT(parse(&p, "{\"time_ms\": 1, \"ops\": \"2\"}\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: key 'ops' is no number: {\"time_ms\": 1, \"ops\": \"2\"}");
	CHECK_INT(parse(&p, "{\"time_ms\": -1, \"ops\": 2}\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: key 'time_ms' is no number: {\"time_ms\": -1, \"ops\": 2}");
	CHECK_INT(parse(&p, "text\n[]\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no JSON object line");
}

/* glibc backtracks on "\1": a spec may not hold one (outside a bracket expression). */
TEST(regex_backreferences_found)
{
	CHECK_INT(exec_regex_backref("^t=([0-9]+) ops=([0-9.]+)$"), -1);
	CHECK_INT(exec_regex_backref("(a)\\1"), 3);
	CHECK_INT(exec_regex_backref("x(a|b)*y\\9"), 8);
	CHECK_INT(exec_regex_backref("[\\1]"), -1);		/* a bracket's '\' is literal */
	CHECK_INT(exec_regex_backref("[]\\1]"), -1);		/* a leading ']' is a member */
	CHECK_INT(exec_regex_backref("[^]\\2]x"), -1);
	CHECK_INT(exec_regex_backref("\\\\1"), -1);		/* an escaped '\', then '1' */
	CHECK_INT(exec_regex_backref("[[:digit:]]+\\2"), 12);
	CHECK_INT(exec_regex_backref("\\.\\0"), -1);		/* no group 0 */
}

/* A NUL byte would end the text there: every format refuses it, naming its line. */
TEST(nul_refused_with_the_line)
{
	static const char text[] = "Iter 0 (1.000us): hits 1.0M/s (0.5M/prod), drops 0.0M/s, "
				   "total operations 1.0M/s\nx\nIter 1 (\0";
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char why[256];

	for (int f = EXEC_KBENCH; f <= EXEC_JSONL; f++) {
		p.fmt = f;
		CHECK_INT(exec_parse(&p, text, sizeof(text) - 1, NULL, &o, why, sizeof(why)),
			  -EBADMSG);
		CHECK_STR(why, "output line 3: a NUL byte: no text output");
		CHECK_INT(o.nr_iv, 0);
	}
}

/* An overflowing rate fails the point: never 9.2e18 events, never inf. */
TEST(kbench_overflow_refused)
{
	struct exec_parser p = kbench_parser();
	struct exec_output o;
	char text[1024], why[256];
	static const char *const rates[] = { "99999999999999999999", "10000000000000" };

	for (size_t i = 0; i < 2; i++) {
		snprintf(text, sizeof(text), "Iter 0 (1.000us): hits %sM/s (1.0M/prod), drops "
			 "0.0M/s, total operations 1.0M/s\n", rates[i]);
		CHECK_INT(parse(&p, text, &o, why, sizeof(why)), -EBADMSG);
		CHECK(!strncmp(why, "output line 1: a number of 2^63 or more: Iter 0", 47));
	}
	snprintf(text, sizeof(text), "Summary: hits %0400dM/s, drops 0.0M/s, total operations "
		 "1.0M/s\n", 1);
	text[14] = '9';
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), -EBADMSG);
	CHECK(!strncmp(why, "output line 1: a number of 2^63 or more: Summary", 48));
	/* 9e12 M/s = 9e18/s over 2 s: a count past 2^63 */
	CHECK_INT(parse(&p, "Iter 0 (1000000.000us): hits 9000000000000M/s (1.0M/prod), drops "
			"0.0M/s, total operations 1.0M/s\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 1: 'hits' of 9e+18/s over 2 s is 2^63 events or more");
}

/* csv and jsonl: a count or an elapsed time past 2^63 is refused, not wrapped. */
TEST(rows_overflow_refused)
{
	struct exec_parser p = rows_parser(EXEC_CSV);
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "ops,time_ms\n1e19,1000\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: 'ops' of 1e+19/s over 1 s is 2^63 events or more");
	CHECK_INT(parse(&p, "ops,time_ms\n1,1e20\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output line 2: an elapsed time of 2^63 ns or more: 1,1e20");
}

/* A 16 MB line: refused at the 64 KiB cap in linear time, not parsed for minutes. */
TEST(csv_long_line_bounded)
{
	size_t n = 16 << 20;
	char *text = malloc(n + 32), why[256];
	struct exec_parser p = rows_parser(EXEC_CSV);
	struct exec_output o;
	struct timespec t0;

	CHECK(text);
	strcpy(text, "ops,time_ms\n");
	memset(text + 12, ',', n);
	strcpy(text + 12 + n, "\n1,1\n");
	cpu_start(&t0);
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), -EBADMSG);
	CHECK(cpu_secs_since(&t0) < 2);
	CHECK(!strncmp(why, "output line 2: longer than 65536 bytes, the most a row may be", 61));
	/* before the header it is text, no header */
	text[0] = 'x';
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no CSV header line naming the fields' columns");
	free(text);
}

/* glibc's regexec() is quadratic in a line's length: a line past 4 KiB is an error. */
TEST(regex_long_line_refused)
{
	struct exec_parser p;
	struct exec_output o;
	char *text = malloc(8192), why[256];

	CHECK(text);
	CHECK_INT(regex_parser(&p), 0);
	memset(text, 'a', 8000);
	strcpy(text + 8000, "\n");
	CHECK_INT(parse(&p, text, &o, why, sizeof(why)), -EBADMSG);
	CHECK(!strncmp(why, "output line 1: longer than 4096 bytes, the most a regex is tried on",
		       67));
	regfree(&p.re);
	free(text);
}

static bool stop_now(void)
{
	return true;
}

/* The parse answers the point's stop flag and deadline, line by line. */
TEST(parse_bounded_by_stop_and_deadline)
{
	static const char text[] = "ops,time_ms\n1,1\n";
	struct exec_parser p = rows_parser(EXEC_CSV);
	struct exec_parse_bounds stop = { .stop = stop_now }, late = { .deadline_ns = 1 };
	struct exec_output o;
	char why[256];

	CHECK_INT(exec_parse(&p, text, strlen(text), &stop, &o, why, sizeof(why)), -EINTR);
	CHECK_INT(exec_parse(&p, text, strlen(text), &late, &o, why, sizeof(why)), -ETIMEDOUT);
	CHECK_STR(why, "timed out parsing the output, at line 1");
}

/*
 * A value the scanner does not read leaves its line out, said by line and
 * text as import says it: "1,000.5M/s" was read as 000.5, "-5.0M/s" and
 * "nan" ended the table unsaid.  The other lines are read.
 */
TEST(unread_values_leave_their_line_out)
{
	struct exec_parser p = { .fmt = EXEC_KBENCH, .nr_metrics = 1, .metrics = { "hits" } };
	struct exec_parser mp = { .fmt = EXEC_MAP_PERF, .nr_metrics = 1, .metrics = { "events" } };
	struct exec_output o;
	char why[256];

	CHECK_INT(parse(&p, "Iter   0 ( 10.000us): hits 1.500M/s\n"
			"Iter   1 ( 10.000us): hits 1,000.5M/s\n"
			"Iter   2 ( 10.000us): hits -5.0M/s\n"
			"Iter   3 ( 10.000us): hits 2.500M/s\n", &o, why, sizeof(why)), 0);
	CHECK_INT(o.nr_iv, 2);
	CHECK_NEAR(o.iv[1].rate[0], 2.5e6, 1e-6);
	CHECK_INT(o.nr_skipped, 2);
	CHECK_INT(o.skipped[0].line, 2);
	CHECK_STR(o.skipped[0].what, "1,000.5M/s");
	CHECK_INT(o.skipped[1].line, 3);
	CHECK_STR(o.skipped[1].what, "-5.0M/s");
	CHECK(o.skipped[0].why && o.skipped[1].why);
	exec_output_free(&o);
	/* a Summary so left out is no interval: the output then has none, and says what is left */
	CHECK_INT(parse(&p, "Summary: hits nan M/s\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_STR(why, "output: no 'Iter' or 'Summary' line");
	CHECK_INT(o.nr_skipped, 1);
	CHECK_INT(o.nr_iv, 0);
	exec_output_free(&o);
	/* a worker's "1,000 events per sec" is not 000: its line is left out, and missing */
	CHECK_INT(parse(&mp, "0:a 1,000 events per sec\n", &o, why, sizeof(why)), -EBADMSG);
	CHECK_INT(o.nr_skipped, 1);
	CHECK_STR(o.skipped[0].what, "1,000 events per sec");
	exec_output_free(&o);
}

RUN_TESTS(kbench_seed_iters, kbench_summary_only, kbench_summary_not_counted_twice,
	  map_perf_seed_workers, regex_groups_in_order, regex_group_not_a_number,
	  kbench_errors_name_the_line, error_quote_is_bounded, map_perf_errors,
	  csv_header_then_rows, csv_quoted_column_no_elapsed, csv_errors_name_the_line,
	  jsonl_objects, jsonl_errors_name_the_line, regex_backreferences_found,
	  nul_refused_with_the_line, kbench_overflow_refused, rows_overflow_refused,
	  csv_long_line_bounded, regex_long_line_refused, parse_bounded_by_stop_and_deadline,
	  unread_values_leave_their_line_out)
