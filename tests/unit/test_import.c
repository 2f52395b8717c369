// SPDX-License-Identifier: GPL-2.0
/*
 * import.c and import_params.c: the seeds' published tables (tests/fixtures/import/)
 * read into rows with exact numbers, in every layout a cover letter shows them.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "import.h"
#include "import_dir.h"
#include "results_read.h"
#include "textfile.h"

#define FIX "tests/fixtures/import/"
#define MIB (1024.0 * 1024)

static int parse_file(const char *path, struct import_set *set)
{
	char *text;
	int err = read_text_file(path, &text);

	*set = (struct import_set){ 0 };
	if (err)
		return err;
	err = import_parse(text, "fallback", set);
	free(text);
	return err;
}

/* Row r's value v is name = mean (± sd, when sd >= 0). */
static int value_is(const struct import_row *row, int v, const char *name, enum import_kind kind,
		    double mean, double sd)
{
	const struct import_value *iv = &row->v[v];

	if (v >= row->nr_values || strcmp(iv->name, name) || iv->kind != kind)
		return 0;
	if (iv->mean < mean - 1e-6 || iv->mean > mean + 1e-6)
		return 0;
	if (sd < 0)
		return !iv->has_stddev;
	return iv->has_stddev && iv->stddev > sd - 1e-6 && iv->stddev < sd + 1e-6;
}

#define CHECK_VALUE(row, v, name, kind, mean, sd) CHECK(value_is(row, v, name, kind, mean, sd))

static const double x86_hits[16] = {
	14.970, 14.064, 7.493, 6.575, 3.696, 2.612, 2.335, 2.079,
	1.965, 1.846, 1.790, 1.735, 1.701, 1.669, 1.749, 1.709,
};
static const double x86_sd[16] = {
	0.012, 0.007, 0.003, 0.001, 0.011, 0.012, 0.005, 0.005,
	0.004, 0.004, 0.002, 0.002, 0.002, 0.001, 0.001, 0.001,
};
static const int nr_prod[16] = { 1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52 };

TEST(seed002_run_bench_table)
{
	struct import_set set;
	char label[64];

	CHECK_INT(parse_file(FIX "002_x86_64.txt", &set), 0);
	CHECK_INT(set.nr_titles, 1);
	CHECK_STR(set.titles[0], "Ringbuf, multi-producer contention, overwrite mode");
	CHECK_INT(set.nr_rows, 16);
	CHECK_INT(set.nr_skipped, 0);
	for (int r = 0; r < 16; r++) {
		snprintf(label, sizeof(label), "rb-libbpf nr_prod %d", nr_prod[r]);
		CHECK_STR(set.rows[r].label, label);
		CHECK_INT(set.rows[r].nr_values, 2);
		CHECK_INT(set.rows[r].line, r + 4);
		CHECK_VALUE(&set.rows[r], 0, "hits", IMPORT_RATE, x86_hits[r] * 1e6,
			    x86_sd[r] * 1e6);
		CHECK_VALUE(&set.rows[r], 1, "drops", IMPORT_RATE, 0, 0);
	}
	import_set_free(&set);
}

/*
 * The archive's layout: each table on one line; both machines in one file,
 * each table under the line naming its machine, so one title each.
 */
TEST(seed002_flattened)
{
	struct import_set set;

	CHECK_INT(parse_file(FIX "002_flat.txt", &set), 0);
	CHECK_INT(set.nr_titles, 2);
	CHECK_STR(set.titles[0], "Ringbuf, multi-producer contention, overwrite mode");
	CHECK_STR(set.titles[1], "Ringbuf, multi-producer contention, overwrite mode");
	CHECK_INT(set.nr_machines, 2);
	CHECK_INT(set.title_machine[0], 0);
	CHECK_INT(set.title_machine[1], 1);
	CHECK_STR(set.machines[0].arch, "x86_64");
	CHECK_STR(set.machines[0].cpu_model, "AMD EPYC 9654");
	CHECK_STR(set.machines[1].arch, "arm64");
	CHECK_STR(set.machines[1].cpu_model, "HiSilicon Kunpeng 920");
	CHECK_INT(set.nr_rows, 32);
	CHECK_INT(set.nr_skipped, 0);
	for (int r = 0; r < 16; r++) {
		CHECK_INT(set.rows[r].exp, 0);
		CHECK_INT(set.rows[r + 16].exp, 1);
		CHECK_VALUE(&set.rows[r], 0, "hits", IMPORT_RATE, x86_hits[r] * 1e6,
			    x86_sd[r] * 1e6);
		CHECK_VALUE(&set.rows[r], 1, "drops", IMPORT_RATE, 0, 0);
	}
	CHECK_STR(set.rows[16].label, "rb-libbpf nr_prod 1");
	CHECK_VALUE(&set.rows[16], 0, "hits", IMPORT_RATE, 10319000, 231000);
	CHECK_STR(set.rows[31].label, "rb-libbpf nr_prod 52");
	CHECK_VALUE(&set.rows[31], 0, "hits", IMPORT_RATE, 2858000, 2000);
	CHECK_VALUE(&set.rows[31], 1, "drops", IMPORT_RATE, 0, 0);
	import_set_free(&set);
}

/* Seed 000: three htab-mem blocks, quoted, titled by the paragraph before each. */
TEST(seed000_htab_mem)
{
	static const char *const labels[] = {
		"overwrite", "batch_add_batch_del", "add_del_on_diff_cpu",
	};
	struct import_set set;

	CHECK_INT(parse_file(FIX "000_htab_mem.txt", &set), 0);
	CHECK_INT(set.nr_titles, 3);
	CHECK_STR(set.titles[0], "(1) non-preallocated + no bpf memory allocator (v6.0.19) "
		  "use kmalloc() + call_rcu");
	CHECK_STR(set.titles[1], "(2) preallocated OPTS=--preallocated");
	CHECK_STR(set.titles[2], "(3) normal bpf memory allocator");
	CHECK_INT(set.nr_rows, 9);
	for (int r = 0; r < 9; r++) {
		CHECK_STR(set.rows[r].label, labels[r % 3]);
		CHECK_INT(set.rows[r].exp, r / 3);
		CHECK_INT(set.rows[r].nr_values, 3);
	}
	CHECK_VALUE(&set.rows[0], 0, "per-prod-op", IMPORT_RATE, 11240, 70);
	CHECK_VALUE(&set.rows[0], 1, "avg mem", IMPORT_BYTES, 82.64 * MIB, 26.32 * MIB);
	CHECK_VALUE(&set.rows[0], 2, "peak mem", IMPORT_BYTES, 119.18 * MIB, -1);
	CHECK_VALUE(&set.rows[4], 0, "per-prod-op", IMPORT_RATE, 218100, 250);
	CHECK_VALUE(&set.rows[4], 1, "avg mem", IMPORT_BYTES, 1.23 * MIB, 0);
	CHECK_VALUE(&set.rows[8], 0, "per-prod-op", IMPORT_RATE, 28200, 150);
	CHECK_VALUE(&set.rows[8], 2, "peak mem", IMPORT_BYTES, 2.06 * MIB, -1);
	import_set_free(&set);
}

/* Seed 001: map_perf_test, one row per CPU line, eight blocks between prompts. */
TEST(seed001_map_perf_test)
{
	struct import_set set;
	struct import_params p;
	char why[256];

	CHECK_INT(parse_file(FIX "001_map_perf.txt", &set), 0);
	CHECK_INT(set.nr_rows, 64);
	CHECK_INT(set.nr_titles, 8);
	CHECK_STR(set.titles[0],
		  "Before reuse-after-rcu-gp: [root@hello bpf]# ./map_perf_test 4 8");
	CHECK_STR(set.titles[1], "[root@hello bpf]# ./map_perf_test 4 8 16384");
	CHECK_STR(set.titles[7], "[houtao@fedora bpf]$ sudo ./map_perf_test 4 8 16384 (2)");
	CHECK_STR(set.rows[0].label, "5:hash_map_perf kmalloc");
	CHECK_INT(set.rows[0].cpu, 5);
	CHECK_VALUE(&set.rows[0], 0, "events", IMPORT_RATE, 358498, -1);
	CHECK_INT(set.rows[63].cpu, 0);
	CHECK_INT(set.rows[63].exp, 7);
	CHECK_VALUE(&set.rows[63], 0, "events", IMPORT_RATE, 585384, -1);
	CHECK_INT(import_params_build(&set, NULL, &p, why, sizeof(why)), 0);
	CHECK_INT(p.nr, 2);
	CHECK_STR(p.names[1], "cpu");
	CHECK_STR(p.vals[0][1], "5");
	CHECK_STR(p.vals[63][1], "0");
	import_params_free(&p);
	import_set_free(&set);
}

/* Seed 003: run_bench_rename.sh's "label : X ± YM/s" and test_overhead's "4457K events". */
TEST(seed003_both_formats)
{
	struct import_set set;

	CHECK_INT(parse_file(FIX "003_rename.txt", &set), 0);
	CHECK_INT(set.nr_rows, 14);
	CHECK_INT(set.nr_titles, 2);
	CHECK_STR(set.titles[1], "While running test_overhead gives:");
	CHECK_STR(set.rows[0].label, "base");
	CHECK_VALUE(&set.rows[0], 0, "hits", IMPORT_RATE, 3975000, 65000);
	CHECK_STR(set.rows[2].label, "kretprobe");
	CHECK_VALUE(&set.rows[2], 0, "hits", IMPORT_RATE, 2496000, 40000);
	CHECK_STR(set.rows[7].label, "task_rename base");
	CHECK_VALUE(&set.rows[7], 0, "events", IMPORT_RATE, 4457000, -1);
	CHECK_STR(set.rows[13].label, "task_rename fmod_ret");
	CHECK_VALUE(&set.rows[13], 0, "events", IMPORT_RATE, 4130000, -1);
	import_set_free(&set);
}

/* bench's own output: Summary lines labelled by "Setting up benchmark"; Iter lines ignored. */
TEST(bench_summary_lines)
{
	struct import_set set;

	CHECK_INT(parse_file(FIX "bench_summary.txt", &set), 0);
	CHECK_INT(set.nr_rows, 2);
	CHECK_INT(set.nr_skipped, 0);
	CHECK_STR(set.rows[0].label, "rb-libbpf");
	CHECK_INT(set.rows[0].nr_values, 3);
	CHECK_VALUE(&set.rows[0], 0, "hits", IMPORT_RATE, 14064000, 41000);
	CHECK_VALUE(&set.rows[0], 1, "drops", IMPORT_RATE, 0, 0);
	CHECK_VALUE(&set.rows[0], 2, "total operations", IMPORT_RATE, 14064000, 41000);
	CHECK_STR(set.rows[1].label, "trig-base");
	CHECK_VALUE(&set.rows[1], 0, "hits", IMPORT_RATE, 54517000, 447000);
	import_set_free(&set);
}

/* The map benches' Summary: throughput in ops/s, latency per op in ns. */
TEST(bench_throughput_and_latency)
{
	struct import_set set = { 0 };

	CHECK_INT(import_parse("Setting up benchmark 'lpm-trie-lookup'...\n"
			       "Summary: throughput    5.204 \xc2\xb1 0.007 M ops/s (  0.651M ops/prod), "
			       "latency  192.159 ns/op\n"
			       "Setting up benchmark 'bpf-hashmap-lookup'...\n"
			       "Summary: throughput   12.500 \xc2\xb1 0.100 K ops/s ( 12.500K ops/prod), "
			       "latency    1.250 us/op\n"
			       "Setting up benchmark 'local-storage-cache-seq-get'...\n"
			       "Summary: throughput   30.000 \xc2\xb1 0.200 M ops/s ( 30.000M ops/prod), "
			       "latency   33.333 ns/op ( 33.333 ns/op /prod)\n"
			       "ringbuf 8 KiB  1.0 \xc2\xb1 0.1M/s\n", "t", &set), 0);
	CHECK_INT(set.nr_skipped, 0);
	CHECK_INT(set.nr_rows, 4);
	CHECK_STR(set.rows[0].label, "lpm-trie-lookup");
	CHECK_INT(set.rows[0].nr_values, 2);
	CHECK_VALUE(&set.rows[0], 0, "throughput", IMPORT_RATE, 5204000, 7000);
	CHECK_VALUE(&set.rows[0], 1, "latency", IMPORT_NS, 192.159, -1);
	CHECK_STR(set.rows[1].label, "bpf-hashmap-lookup");
	CHECK_VALUE(&set.rows[1], 0, "throughput", IMPORT_RATE, 12500, 100);
	CHECK_VALUE(&set.rows[1], 1, "latency", IMPORT_NS, 1250, -1);
	CHECK_INT(set.rows[2].nr_values, 2);
	CHECK_VALUE(&set.rows[2], 1, "latency", IMPORT_NS, 33.333, -1);
	CHECK_STR(set.rows[3].label, "ringbuf 8 KiB");
	import_set_free(&set);
}

TEST(units_and_lines_that_are_no_rows)
{
	struct import_set set = { 0 };

	CHECK_INT(import_parse("a  1.5 ± 0.5G/s\n"
			       "b  2 +- 1/s\n"
			       "c  3.25 ± 0.25K/s (drops 1 +/- 0.5k/s)\n"
			       "d  4GiB\n"
			       "e  12 Mevents per sec\n"
			       "f  1.0 ± 0.1M/s and some prose\n"
			       "g  1.0 ± 0.1M/s (1.0M/prod)\n", "t", &set), 0);
	CHECK_INT(set.nr_rows, 6);
	CHECK_VALUE(&set.rows[0], 0, "hits", IMPORT_RATE, 1.5e9, 0.5e9);
	CHECK_VALUE(&set.rows[1], 0, "hits", IMPORT_RATE, 2, 1);
	CHECK_VALUE(&set.rows[2], 0, "hits", IMPORT_RATE, 3250, 250);
	CHECK_VALUE(&set.rows[2], 1, "drops", IMPORT_RATE, 1000, 500);
	CHECK_VALUE(&set.rows[3], 0, "bytes", IMPORT_BYTES, 4.0 * 1024 * MIB, -1);
	CHECK_VALUE(&set.rows[4], 0, "events", IMPORT_RATE, 12e6, -1);
	CHECK_STR(set.rows[5].label, "g");
	CHECK_INT(set.rows[5].nr_values, 1);
	CHECK_INT(set.nr_skipped, 1);
	CHECK_INT(set.skipped[0].line, 6);
	CHECK_STR(set.titles[0], "t");
	import_set_free(&set);
}

/* Long titles are cut at 200 bytes, never inside a character. */
TEST(long_title_cut_whole_characters)
{
	struct import_set set = { 0 };
	char text[512];

	memset(text, 'x', 199);
	snprintf(text + 199, sizeof(text) - 199, "\xc2\xb1 more\nrow  1.0 ± 0.1M/s\n");
	CHECK_INT(import_parse(text, "t", &set), 0);
	CHECK_INT(strlen(set.titles[0]), 199);
	import_set_free(&set);
}

TEST(template_parameters)
{
	struct import_set set;
	struct import_params p;
	char why[256];

	CHECK_INT(parse_file(FIX "002_arm64.txt", &set), 0);
	CHECK_INT(import_params_build(&set, "rb-libbpf nr_prod {producers}", &p, why,
				      sizeof(why)), 0);
	CHECK_INT(p.nr, 2);
	CHECK_STR(p.names[0], "label");
	CHECK_STR(p.names[1], "producers");
	CHECK_INT(p.matched, 16);
	for (int r = 0; r < 16; r++) {
		char want[8];

		snprintf(want, sizeof(want), "%d", nr_prod[r]);
		CHECK_STR(p.vals[r][1], want);
	}
	import_params_free(&p);
	/* without a template: the word before the trailing number names it */
	CHECK_INT(import_params_build(&set, NULL, &p, why, sizeof(why)), 0);
	CHECK_INT(p.nr, 2);
	CHECK_STR(p.names[1], "nr_prod");
	CHECK_STR(p.vals[15][1], "52");
	import_params_free(&p);
	CHECK_INT(import_params_build(&set, "rb-libbpf {a}{b}", &p, why, sizeof(why)), -EINVAL);
	CHECK_INT(import_params_build(&set, "no names", &p, why, sizeof(why)), -EINVAL);
	CHECK_INT(import_params_build(&set, "{a} {a}", &p, why, sizeof(why)), -EINVAL);
	CHECK_INT(import_params_build(&set, "{label}", &p, why, sizeof(why)), -EINVAL);
	CHECK_INT(import_params_build(&set, "{9x}", &p, why, sizeof(why)), -EINVAL);
	import_set_free(&set);
}

TEST(label_matching)
{
	char *v[2];

	CHECK(import_label_match("task_rename {prog}", "task_rename  fmod_ret", v, 1));
	CHECK_STR(v[0], "fmod_ret");
	free(v[0]);
	CHECK(import_label_match("{bench} nr_prod {n}", "rb-custom nr_prod 12", v, 2));
	CHECK_STR(v[0], "rb-custom");
	CHECK_STR(v[1], "12");
	free(v[0]);
	free(v[1]);
	CHECK(!import_label_match("rb-libbpf nr_prod {n}", "rb-custom nr_prod 12", v, 1));
	CHECK(v[0] == NULL);
	CHECK(!import_label_match("a {n}", "a ", v, 1));
}

TEST(auto_parameter_named_x)
{
	struct import_set set = { 0 };
	struct import_params p;
	char why[64];

	CHECK_INT(import_parse("rb-libbpf 4  1.0 ± 0.1M/s\nbase  2.0 ± 0.1M/s\n", "t", &set), 0);
	CHECK_INT(import_params_build(&set, NULL, &p, why, sizeof(why)), 0);
	CHECK_INT(p.nr, 2);
	CHECK_STR(p.names[1], "x");
	CHECK_STR(p.vals[0][1], "4");
	CHECK(p.vals[1][1] == NULL);
	import_params_free(&p);
	import_set_free(&set);
}

/* A label whose trailing number follows "label" or "cpu" keeps its label (found by fuzzing). */
TEST(trailing_word_of_a_fixed_column)
{
	struct import_set set = { 0 };
	struct import_params p;
	char why[64];

	CHECK_INT(import_parse("rb label 24  1.0 ± 0.1M/s\nrb cpu 3  2.0 ± 0.1M/s\n", "t", &set), 0);
	CHECK_INT(import_params_build(&set, NULL, &p, why, sizeof(why)), 0);
	CHECK_STR(p.names[0], "label");
	CHECK_STR(p.vals[0][0], "rb label 24");
	CHECK_STR(p.vals[1][0], "rb cpu 3");
	CHECK_STR(p.names[1], "cpu");	/* the trailing word of the second row */
	CHECK_STR(p.vals[1][1], "3");
	import_params_free(&p);
	import_set_free(&set);
}

/*
 * What import writes, results_read reads: parameters and metrics by name, n
 * unknown, and what each column is from columns.csv.
 */
TEST(imported_set_reads_back)
{
	static const char *const args[] = { FIX "002_x86_64.txt" };
	static const char *const tags[] = { "arch=x86_64", "cpu_model=AMD EPYC 9654", NULL };
	struct import_req rq = {
		.argv_line = "bpfsweep import", .files = args, .nr_files = 1, .tags = tags,
		.label = "rb-libbpf nr_prod {producers}",
	};
	static const char *const files[] = { "meta", "columns.csv", "samples.csv", "summary.csv" };
	char tmp[] = "/tmp/test_import.XXXXXX", dir[64], why[256], path[96];
	struct import_job *job;
	struct result_set *rs;
	int err;

	CHECK(mkdtemp(tmp));
	snprintf(dir, sizeof(dir), "%s/out", tmp);
	rq.outdir = dir;
	CHECK_INT(import_job_read(&rq, &job), 0);
	CHECK_INT(import_job_write(job), 0);
	import_job_free(job);
	err = results_read(dir, &rs, why, sizeof(why));
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	CHECK_INT(rmdir(tmp), 0);
	CHECK_INT(err, 0);
	CHECK(rs->cols_recorded);
	CHECK_INT(rs->nr_points, 16);
	CHECK_INT(rs->nr_params, 2);
	CHECK_STR(rs->summary.rows[0][rs->first_param + 1], "producers");
	CHECK_INT(rs->nr_metrics, 2);
	CHECK_STR(rs->samples.header[rs->first_metric], "hits");
	CHECK_INT(rs->points[15].n, -1);
	CHECK_STR(rs->points[15].status, "ok");
	CHECK_INT(rs->points[15].nr_samples, 0);
	CHECK_STR(result_meta(rs, "cpu_model"), "AMD EPYC 9654");
	CHECK_STR(result_meta(rs, "imported_from"), FIX "002_x86_64.txt");
	result_set_free(rs);
}

/* What names a machine, and what does not. */
TEST(machine_lines)
{
	static const char *const not_machines[] = {
		"For reference, below are bench numbers collected from x86_64 and arm64.",
		"x86_64 rocks", "- x86_64 (AMD (EPYC))", "- sparc64 (UltraSPARC)",
		"x86_64 (AMD EPYC 9654", "- (AMD EPYC 9654)", "-x86_64",
		"- x86_64 (AMD EPYC 9654), kernel", "- x86_64 (AMD EPYC 9654), kernel 6.18 rc",
	};
	struct import_machine m;
	struct import_set set = { 0 };

	CHECK(import_machine_line("- x86_64 (AMD EPYC 9654)", &m));
	CHECK_STR(m.arch, "x86_64");
	CHECK_STR(m.cpu_model, "AMD EPYC 9654");
	CHECK_INT(import_machine_add(&set, &m), 0);
	CHECK(import_machine_line("  * aarch64 ( Ampere Altra ) :", &m));
	CHECK_STR(m.cpu_model, "Ampere Altra");
	CHECK_INT(import_machine_add(&set, &m), 1);
	CHECK(import_machine_line("arm64:", &m));
	CHECK_STR(m.arch, "arm64");
	CHECK(!m.cpu_model);
	CHECK_INT(import_machine_add(&set, &m), 2);
	CHECK(import_machine_line("- x86_64 (AMD EPYC 9654)", &m));
	CHECK_INT(import_machine_add(&set, &m), 0);	/* named again: the same one */
	/* bpfsweep's own tables name the kernel too: a table.txt imports with it */
	CHECK(import_machine_line("- x86_64 (AMD EPYC 9654), kernel 6.18.44-fc-v782", &m));
	CHECK_STR(m.cpu_model, "AMD EPYC 9654");
	CHECK_STR(m.kernel_release, "6.18.44-fc-v782");
	CHECK_INT(import_machine_add(&set, &m), 3);
	CHECK(import_machine_line("- arm64, kernel 6.19.0:", &m));
	CHECK(!m.cpu_model);
	CHECK_STR(m.kernel_release, "6.19.0");
	import_machine_free(&m);
	CHECK(import_machine_line("arm64:", &m));
	CHECK(!m.kernel_release);
	import_machine_free(&m);
	CHECK_INT(set.nr_machines, 4);
	import_set_free(&set);
	for (size_t i = 0; i < sizeof(not_machines) / sizeof(not_machines[0]); i++)
		CHECK(!import_machine_line(not_machines[i], &m));
}

/* A title met again gets the first free " (n)", a literal "T (2)" taken too; per machine. */
TEST(titles_unique_per_machine)
{
	static const char text[] = "T (2)\n===\nr  1.0M/s\nT\n===\nr  1.0M/s\nT\n===\nr  1.0M/s\n"
				   "T\n===\nr  1.0M/s\narm64:\nT\n===\nr  1.0M/s\n";
	struct import_set set = { 0 };

	CHECK_INT(import_parse(text, "fallback", &set), 0);
	CHECK_INT(set.nr_titles, 5);
	CHECK_STR(set.titles[0], "T (2)");
	CHECK_STR(set.titles[1], "T");
	CHECK_STR(set.titles[2], "T (3)");
	CHECK_STR(set.titles[3], "T (4)");
	CHECK_STR(set.titles[4], "T");		/* another machine's */
	CHECK_INT(import_parse(text, "fallback", &set), 0);	/* a second file, same set */
	CHECK_STR(set.titles[5], "T (2) (2)");
	CHECK_STR(set.titles[6], "T (5)");
	import_set_free(&set);
}

/* 40,000 blocks of one title: each a lookup or two, not a scan of all before it. */
TEST(same_titled_blocks_linear)
{
	static const char block[] = "T\n===\nrb 1  1.0M/s\n";
	size_t n = 40000, bl = sizeof(block) - 1;
	char *text = malloc(n * bl + 1);
	struct import_set set = { 0 };
	struct timespec t0;

	CHECK(text);
	for (size_t i = 0; i < n; i++)
		memcpy(text + i * bl, block, bl);
	text[n * bl] = '\0';
	cpu_start(&t0);
	CHECK_INT(import_parse(text, "fallback", &set), 0);
	CHECK(cpu_secs_since(&t0) < 5);
	CHECK_INT(set.nr_titles, 40000);
	CHECK_STR(set.titles[39999], "T (40000)");
	import_set_free(&set);
	free(text);
}

/* A 150-character label against 6 {name}s: no exponential backtracking. */
TEST(label_match_bounded)
{
	char label[151], *vals[6];
	struct timespec t0;

	memset(label, '-', 150);
	label[150] = '\0';
	cpu_start(&t0);
	CHECK(!import_label_match("{a}-{b}-{c}-{d}-{e}-{f}-y", label, vals, 6));
	CHECK(cpu_secs_since(&t0) < CPU_BUDGET(1));
	label[149] = 'y';
	CHECK(import_label_match("{a}-{b}-{c}-{d}-{e}-{f}-y", label, vals, 6));
	CHECK_STR(vals[0], "-");	/* the shortest captures, as before */
	CHECK_INT(strlen(vals[5]), 150 - 10 - 2);
	for (int i = 0; i < 6; i++)
		free(vals[i]);
}

/* A NUL byte would end the text: refused, naming its line. */
TEST(nul_refused_with_the_line)
{
	static const char text[] = "T\n===\nrb 1  1.0M/s\nrb 2  2.0\0M/s\nrb 3  3.0M/s\n";
	struct import_set set = { 0 };

	CHECK_INT(import_parse_len(text, sizeof(text) - 1, "fallback", &set), -EINVAL);
	CHECK_INT(set.bad_line, 4);
	CHECK_STR(set.bad_why, "a NUL byte: this is no text");
	CHECK_INT(set.nr_rows, 0);
	import_set_free(&set);
}

/* No inf, no cut number: a value of 2^63 or more is refused with its line. */
TEST(huge_numbers_refused)
{
	char text[600];
	struct import_set set = { 0 };

	snprintf(text, sizeof(text), "T\n===\nrb 1  1.0M/s\nrb 2  %0400dM/s\n", 9);
	text[strlen("T\n===\nrb 1  1.0M/s\nrb 2  ")] = '9';
	CHECK_INT(import_parse(text, "fallback", &set), -EINVAL);
	CHECK_INT(set.bad_line, 4);
	CHECK(strstr(set.bad_why, "2^63 or more"));
	import_set_free(&set);
	snprintf(text, sizeof(text), "T\n===\nrb 2  1%063d ± 1.0M/s\n", 0);
	CHECK_INT(import_parse(text, "fallback", &set), -EINVAL);
	CHECK_INT(set.bad_line, 3);
	import_set_free(&set);
	/* 2^63 bytes exactly: too large; one below the cap in a double's steps: kept */
	CHECK_INT(import_parse("T\n===\nr  1.0 ± 9223372036854775808B\n", "f", &set), -EINVAL);
	import_set_free(&set);
	CHECK_INT(import_parse("T\n===\nr  9223372036854774784B\n", "f", &set), 0);
	CHECK_INT(set.nr_rows, 1);
	import_set_free(&set);
}

/* A megabyte of digits: each run of them scanned once, not once per digit. */
TEST(digit_run_linear)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 16);
	struct import_set set = { 0 };
	struct timespec t0;

	CHECK(text);
	strcpy(text, "rb 1 ");
	memset(text + 5, '7', n);
	strcpy(text + 5 + n, "\n");
	cpu_start(&t0);
	CHECK_INT(import_parse(text, "fallback", &set), 0);
	CHECK(cpu_secs_since(&t0) < CPU_BUDGET(1));
	CHECK_INT(set.nr_rows, 0);
	import_set_free(&set);
	free(text);
}

/*
 * A value the scanner does not read, or would misread, is said with its line and no longer
 * ends the table unsaid (issue 34 N11); an exponent and "X +/- Y M/s" are read.
 */
TEST(values_not_read_are_said)
{
	struct import_set set = { 0 };
	static const struct {
		int line;
		const char *what;
	} want[] = {
		{ 4, "1,000.5M/s" }, { 5, "-5.0M/s" }, { 6, "nan M/s" }, { 10, "+5.0M/s" },
		{ 11, "nan ± 0.1M/s" }, { 12, "inf M/s" }, { 13, "-1.5 ± 0.1M/s" },
	};

	CHECK_INT(import_parse("T\n===\n"
			       "rowA 1.0M/s\n"
			       "rowC 1,000.5M/s\n"
			       "rowD -5.0M/s\n"
			       "rowE nan M/s\n"
			       "rowF 1.0e3M/s\n"
			       "rowG 5.0 +/- 0.1 M/s\n"
			       "rowH 3.0M/s\n"
			       "rowI +5.0M/s\n"
			       "rowJ nan ± 0.1M/s\n"
			       "rowK inf M/s\n"
			       "rowL -1.5 ± 0.1M/s\n"
			       "rowM 2.5 M/s\n", "t", &set), 0);
	CHECK_INT(set.nr_titles, 1);
	CHECK_INT(set.nr_rows, 5);
	CHECK_STR(set.rows[1].label, "rowF");
	CHECK_VALUE(&set.rows[1], 0, "hits", IMPORT_RATE, 1e9, -1);
	CHECK_STR(set.rows[2].label, "rowG");
	CHECK_VALUE(&set.rows[2], 0, "hits", IMPORT_RATE, 5e6, 1e5);
	CHECK_STR(set.rows[4].label, "rowM");
	CHECK_VALUE(&set.rows[4], 0, "hits", IMPORT_RATE, 2.5e6, -1);
	CHECK_INT(set.nr_skipped, 7);
	for (int i = 0; i < set.nr_skipped && i < 7; i++) {
		CHECK_INT(set.skipped[i].line, want[i].line);
		CHECK_STR(set.skipped[i].what, want[i].what);
		CHECK(set.skipped[i].why && *set.skipped[i].why);
	}
	CHECK(strstr(set.skipped[0].why, "thousands separator"));
	CHECK(strstr(set.skipped[1].why, "negative"));
	CHECK(strstr(set.skipped[2].why, "not a number"));
	import_set_free(&set);
	/* no alarm: a size in a label, prose with a size, an arch, a plain number past a unit */
	CHECK_INT(import_parse("T\n===\nringbuf 8 KiB  1.0M/s\n"
			       "a machine of 64GB, x86_64, 1 M/prod\n", "t", &set), 0);
	CHECK_INT(set.nr_rows, 1);
	CHECK_INT(set.nr_skipped, 0);
	import_set_free(&set);
}

/* A megabyte of units after no number: the search for values not read stays linear. */
TEST(values_not_read_linear)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 16);
	struct import_set set = { 0 };
	struct timespec t0;

	CHECK(text);
	strcpy(text, "rb ");
	for (size_t i = 3; i < n; i += 2)
		memcpy(text + i, "/s", 2);
	strcpy(text + n, "\n");
	cpu_start(&t0);
	CHECK_INT(import_parse(text, "fallback", &set), 0);
	CHECK(cpu_secs_since(&t0) < CPU_BUDGET(1));
	import_set_free(&set);
	free(text);
}

/* A bidi override or isolate refuses its line, said; the table goes on (issue 34 N11). */
TEST(bidi_line_refused)
{
	struct import_set set = { 0 };

	CHECK_INT(import_parse("T\n===\nrb 1  1.0M/s\n"
			       "rb 2 \xe2\x80\xae s/M0.2\n"
			       "rb \xe2\x81\xa6 3  3.0M/s\n"
			       "rb 4  4.0M/s\n", "t", &set), 0);
	CHECK_INT(set.nr_titles, 1);
	CHECK_INT(set.nr_rows, 2);
	CHECK_STR(set.rows[1].label, "rb 4");
	CHECK_INT(set.nr_skipped, 2);
	CHECK_INT(set.skipped[0].line, 4);
	CHECK_INT(set.skipped[0].bidi, 0x202e);
	CHECK_INT(set.skipped[1].line, 5);
	CHECK_INT(set.skipped[1].bidi, 0x2066);
	CHECK_INT(import_bidi_control("\xe2\x80\xaa"), 0x202a);
	CHECK_INT(import_bidi_control("\xe2\x81\xa9"), 0x2069);
	/* the marks too, as the terminal escapes them (termsafe.h) */
	CHECK_INT(import_bidi_control("a\xe2\x80\x8f"), 0x200f);
	CHECK_INT(import_bidi_control("\xd8\x9c"), 0x061c);
	/* neighbours are no overrides: U+2029 (a separator), U+206A, a plain dash */
	CHECK_INT(import_bidi_control("\xe2\x80\xa9 \xe2\x81\xaa \xe2\x80\x94"), 0);
	import_set_free(&set);
}

/* A cell a spreadsheet would run as a formula gets an apostrophe; a number does not. */
TEST(formula_cells_defused)
{
	char buf[64];

	CHECK(import_formula_led("=HYPERLINK(\"x\")"));
	CHECK(import_formula_led("+cmd|' /C calc'!A0"));
	CHECK(import_formula_led("-x"));
	CHECK(import_formula_led("@SUM(A1)"));
	CHECK(!import_formula_led("-5"));
	CHECK(!import_formula_led("+1.5"));
	CHECK(!import_formula_led("rb-libbpf 1"));
	CHECK(!import_formula_led(""));
	CHECK(!import_formula_led(NULL));
	CHECK_STR(import_defused("=1+2", buf, sizeof(buf)), "'=1+2");
	CHECK_STR(import_defused("rb 1", buf, sizeof(buf)), "rb 1");
}

RUN_TESTS(machine_lines,
	  seed002_run_bench_table, seed002_flattened, seed000_htab_mem, seed001_map_perf_test,
	  seed003_both_formats, bench_summary_lines, bench_throughput_and_latency, units_and_lines_that_are_no_rows,
	  long_title_cut_whole_characters, template_parameters, label_matching,
	  auto_parameter_named_x, trailing_word_of_a_fixed_column, imported_set_reads_back,
	  titles_unique_per_machine,
	  same_titled_blocks_linear, label_match_bounded, nul_refused_with_the_line,
	  huge_numbers_refused, digit_run_linear, values_not_read_are_said,
	  values_not_read_linear, bidi_line_refused, formula_cells_defused)
