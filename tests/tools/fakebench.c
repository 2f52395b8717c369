// SPDX-License-Identifier: GPL-2.0
/*
 * fakebench MODE [ARG...]: a stand-in for the benchmark programs the exec
 * workload runs (docs/exec.md), printing each format it parses, broken
 * variants of them, and failures.  Its numbers follow from its arguments
 * so that the tests can check them exactly.
 *
 *   kbench W D P          the kernel bench: W + D + 1 "Iter" lines, as
 *                         bench.c prints them (it stops after iteration
 *                         W + D, and its Summary is of the last D + 1),
 *                         then "Summary"; hits 1.5 * P M/s, drops 0.25 M/s,
 *                         iterations 1 s + 50 us, 1 s - 25 us alternately
 *   summary-only P        bench -q: only the Summary line
 *   map_perf N RATE       map_perf_test: workers 0..N-1, worker i at
 *                         RATE + 1000 * i events per sec, in reverse order
 *   regex N               N lines "t=I elapsed_ms=500.0 ops=1234.5 junk=x"
 *   csv N                 a line of text, the header "t, time_ms,ops,note",
 *                         N rows "I, 250.5,2000.25,x"
 *   jsonl N               a line of text, N objects {"t": I, "time_ms": 250.5,
 *                         "ops": 2000.25, "note": "x"}
 *   csv-short             the header, a row, a row without its last cell
 *   jsonl-cut             an object, then one cut short
 *   broken-iter           an Iter line without its "(X.XXXus):"
 *   no-drops              Iter lines without drops
 *   map-gap               map_perf_test lines of workers 0 and 2 only
 *   empty                 nothing on stdout
 *   fail STATUS [...]     four lines on stderr, exit STATUS
 *   fail-long             a 500-character line, then "the last line", exit 1
 *   hang [...]            sleeps, and so does a child in its process group
 *   args ARG...           exit 3, each ARG in brackets on stderr
 *   -wW -dD -pP ... BENCH the kernel bench's own command line (-w, -d, -p,
 *                         -c, -a, --rb-batch-cnt N, --rb-sampled,
 *                         --rb-sample-rate N, --rb-overwrite, one bench
 *                         name), so that it stands in for the bench in
 *                         its specs: as "kbench W D P" with hits 1.2 * P M/s
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double dev_us[] = { 50.0, -25.0 };

static void kbench_iter(int i, int prod, double per_prod)
{
	double hits = per_prod * prod;

	printf("Iter %3d (%7.3lfus): hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, "
	       "total operations %8.3lfM/s\n", i, dev_us[i % 2], hits, hits / prod, 0.25,
	       hits);
}

static void kbench_summary(int prod, double per_prod)
{
	double hits = per_prod * prod;

	printf("Summary: hits %8.3lf \u00b1 %5.3lfM/s (%7.3lfM/prod), drops %8.3lf \u00b1 "
	       "%5.3lfM/s, total operations %8.3lf \u00b1 %5.3lfM/s\n", hits, 0.0, hits / prod,
	       0.25, 0.0, hits, 0.0);
}

static int kbench(int w, int d, int p, double per_prod)
{
	printf("Setting up benchmark 'rb-fake'...\nBenchmark 'rb-fake' started.\n");
	for (int i = 0; i <= w + d; i++)
		kbench_iter(i, p, per_prod);
	kbench_summary(p, per_prod);
	return 0;
}

/* An option of the bench's command line with a number: "-w3" or "--rb-batch-cnt 50". */
static bool number_opt(char **argv, int *i, const char *name, int *v)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return false;
	if (argv[*i][n]) {
		*v = atoi(argv[*i] + n);
	} else if (argv[*i + 1]) {
		*v = atoi(argv[++*i]);
	}
	return true;
}

/* The bench's own command line: its options, then the bench's name. */
static int bench_args(int argc, char **argv)
{
	static const char *const flags[] = { "-a", "--rb-sampled", "--rb-overwrite", NULL };
	int w = 1, d = 5, p = 1, ignored, names = 0;

	for (int i = 1; i < argc; i++) {
		bool flag = false;

		for (int f = 0; flags[f]; f++)
			flag |= !strcmp(argv[i], flags[f]);
		if (flag || number_opt(argv, &i, "-w", &w) || number_opt(argv, &i, "-d", &d) ||
		    number_opt(argv, &i, "-p", &p) || number_opt(argv, &i, "-c", &ignored) ||
		    number_opt(argv, &i, "--rb-batch-cnt", &ignored) ||
		    number_opt(argv, &i, "--rb-sample-rate", &ignored))
			continue;
		if (argv[i][0] == '-' || names++) {
			fprintf(stderr, "fakebench: unrecognized argument '%s'\n", argv[i]);
			return 64;
		}
	}
	return kbench(w, d, p, 1.2);
}

static int map_perf(int n, long rate)
{
	for (int i = n - 1; i >= 0; i--)
		printf("%d:hash_map_perf kmalloc %ld events per sec\n", i, rate + 1000L * i);
	return 0;
}

static int regex_lines(int n)
{
	printf("fakebench: regex mode\n");
	for (int i = 0; i < n; i++)
		printf("t=%d elapsed_ms=500.0 ops=1234.5 junk=x\n", i);
	return 0;
}

static int csv_rows(int n)
{
	printf("fakebench: csv mode\nt, time_ms,ops,note\n");
	for (int i = 0; i < n; i++)
		printf("%d, 250.5,2000.25,x\n", i);
	return 0;
}

static int jsonl_lines(int n)
{
	printf("fakebench: jsonl mode\n");
	for (int i = 0; i < n; i++)
		printf("{\"t\": %d, \"time_ms\": 250.5, \"ops\": 2000.25, \"note\": \"x\"}\n", i);
	return 0;
}

static int fail(int status)
{
	printf("Setting up benchmark 'rb-fake'...\n");
	fprintf(stderr, "libbpf: prog 'bench_ringbuf': failed to attach: Operation not permitted\n"
		"libbpf: prog 'bench_ringbuf': failed to auto-attach: -1\n"
		"failed to attach prog\n\n");
	return status;
}

static void __attribute__((noreturn)) hang(void)
{
	/* a child that outlives nothing: the process group's kill must take it too */
	if (fork() == 0)
		for (;;)
			pause();
	for (;;)
		pause();
}

static int args(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		fprintf(stderr, "[%s]%s", argv[i], i + 1 < argc ? " " : "\n");
	return 3;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "kbench") && argc == 5)
		return kbench(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), 1.5);
	if (m[0] == '-')
		return bench_args(argc, argv);
	if (!strcmp(m, "summary-only") && argc == 3) {
		kbench_summary(atoi(argv[2]), 1.5);
		return 0;
	}
	if (!strcmp(m, "map_perf") && argc == 4)
		return map_perf(atoi(argv[2]), atol(argv[3]));
	if (!strcmp(m, "regex") && argc == 3)
		return regex_lines(atoi(argv[2]));
	if (!strcmp(m, "csv") && argc == 3)
		return csv_rows(atoi(argv[2]));
	if (!strcmp(m, "jsonl") && argc == 3)
		return jsonl_lines(atoi(argv[2]));
	if (!strcmp(m, "csv-short")) {
		printf("t,time_ms,ops,note\n0,250.5,2000.25,x\n1,250.5,2000.25\n");
		return 0;
	}
	if (!strcmp(m, "jsonl-cut")) {
		printf("{\"time_ms\": 250.5, \"ops\": 2000.25}\n{\"time_ms\": 250.5, \"ops\"\n");
		return 0;
	}
	if (!strcmp(m, "broken-iter")) {
		kbench_iter(0, 1, 1.5);
		printf("Iter   1: hits    1.500M/s\n");
		return 0;
	}
	if (!strcmp(m, "no-drops")) {
		printf("Iter   0 ( 10.000us): hits    1.500M/s (  1.500M/prod)\n");
		return 0;
	}
	if (!strcmp(m, "map-gap")) {
		printf("0:hash_map_perf kmalloc 1000 events per sec\n"
		       "2:hash_map_perf kmalloc 3000 events per sec\n");
		return 0;
	}
	if (!strcmp(m, "empty"))
		return 0;
	if (!strcmp(m, "fail") && argc >= 3)
		return fail(atoi(argv[2]));
	if (!strcmp(m, "hang"))
		hang();
	if (!strcmp(m, "fail-long")) {
		fprintf(stderr, "%0500d\nthe last line\n", 0);
		return 1;
	}
	if (!strcmp(m, "args"))
		return args(argc - 2, argv + 2);
	fprintf(stderr, "usage: fakebench MODE [ARG...] (see tests/tools/fakebench.c)\n");
	return 2;
}
