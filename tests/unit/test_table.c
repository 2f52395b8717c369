// SPDX-License-Identifier: GPL-2.0
/* table.c: the exact text of cover-letter tables built from hand-made results. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "metric.h"
#include "table.h"
#include "table_fixture.h"
#include "template.h"

static long long producers[] = { 1, 2, 12, 52 };
static long long flags[] = { 0, 1 };

TEST(kernel_format_with_template)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "Null ± ringbuf → overwrite", "rb-libbpf nr_prod {producers}");
	set_axis(&e, P_PRODUCERS, producers, 4);
	for (int i = 0; i < 4; i++)
		make_point(&pts[i], i, 0, producers[i], 0);
	make_ok(&res[0], &pts[0], 14970123.4, 12000);
	make_ok(&res[1], &pts[1], 14064000, 7000);
	make_ok(&res[2], &pts[2], 2612345, 12499);
	make_bad(&res[3], &pts[3], PS_UNSUPPORTED, "null: unsupported on request (fail=probe)");
	CHECK_TEXT(render(&cfg, res, 4),
		   "Null ± ringbuf → overwrite\n"
		   "==========================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n"
		   "rb-libbpf nr_prod 2  14.064 ± 0.007M/s (drops 0.141 ± 0.000M/s)\n"
		   "rb-libbpf nr_prod 12 2.612 ± 0.012M/s (drops 0.026 ± 0.000M/s)\n"
		   "rb-libbpf nr_prod 52 unsupported: null: unsupported on request (fail=probe)\n");
}

TEST(template_of_every_type)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pt;
	char buf[128];

	make_exp(&e, "t", "{mode}/{flag}/{value_size}B {producers}{nope} {unclosed");
	make_point(&pt, 0, 0, 3, 1);
	pt.wp.v[P_MODE] = 1;
	pt.wp.v[P_VALUE_SIZE] = 4096;
	table_label_of(&cfg, &pt, buf, sizeof(buf));
	CHECK_STR(buf, "slow/on/4096B 3{nope} {unclosed");
	table_label_of(&cfg, &pt, buf, 8);
	CHECK_STR(buf, "slow/on");
}

/* No template: the varying parameters name the row; groups split by flag. */
TEST(groups_and_default_labels)
{
	struct experiment e[2];
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = e, .nr_exps = 2 };
	struct point pts[5];
	struct point_result res[5];

	make_exp(&e[0], "Grouped", NULL);
	set_axis(&e[0], P_PRODUCERS, producers, 2);
	set_axis(&e[0], P_FLAG, flags, 2);
	e[0].group = P_FLAG;
	make_exp(&e[1], "Fixed", NULL);
	for (int i = 0; i < 4; i++)
		make_point(&pts[i], i, 0, producers[i / 2], flags[i % 2]);
	make_point(&pts[4], 4, 1, 1, 0);
	make_ok(&res[0], &pts[0], 1e6, 0);
	make_bad(&res[1], &pts[1], PS_FAILED, "setup: Input/output error");
	make_ok(&res[2], &pts[2], 2e6, 1500);
	make_bad(&res[3], &pts[3], PS_INTERRUPTED, "");
	make_ok(&res[4], &pts[4], 123456789, 0);
	CHECK_TEXT(render(&cfg, res, 5),
		   "Grouped\n"
		   "=======\n"
		   "producers=1 flag=off 1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "producers=2 flag=off 2.000 ± 0.002M/s (drops 0.020 ± 0.000M/s)\n"
		   "\n"
		   "producers=1 flag=on  failed: setup: Input/output error\n"
		   "producers=2 flag=on  interrupted\n"
		   "\n"
		   "Fixed\n"
		   "=====\n"
		   "Fixed                123.457 ± 0.000M/s (drops 1.235 ± 0.000M/s)\n");
}

/* A group of one row each reads better without blank lines; long labels widen. */
TEST(single_row_groups_and_wide_labels)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[2];
	struct point_result res[2];

	make_exp(&e, "Wide", "a long label, flag {flag}");
	set_axis(&e, P_FLAG, flags, 2);
	e.group = P_FLAG;
	make_point(&pts[0], 0, 0, 1, 1);
	make_point(&pts[1], 1, 0, 1, 0);
	make_ok(&res[0], &pts[0], 3e6, 0);
	make_ok(&res[1], &pts[1], 4e6, 0);
	CHECK_TEXT(render(&cfg, res, 2),
		   "Wide\n"
		   "====\n"
		   "a long label, flag off 4.000 ± 0.000M/s (drops 0.040 ± 0.000M/s)\n"
		   "a long label, flag on  3.000 ± 0.000M/s (drops 0.030 ± 0.000M/s)\n");
}

/*
 * The ringbuf spec's case: the label does not name the group, so each
 * group gets its own titled block, as in the kernel's cover letters.
 */
TEST(titled_groups)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "Ringbuf, overwrite mode", "rb-libbpf nr_prod {producers}");
	set_axis(&e, P_PRODUCERS, producers, 2);
	set_axis(&e, P_FLAG, flags, 2);
	e.group = P_FLAG;
	for (int i = 0; i < 4; i++) {
		make_point(&pts[i], i, 0, producers[i / 2], flags[i % 2]);
		make_ok(&res[i], &pts[i], 1e6 * (i + 1), 1e3 * i);
	}
	make_bad(&res[3], &pts[3], PS_UNSUPPORTED, "BPF_F_RB_OVERWRITE: not supported");
	CHECK_TEXT(render(&cfg, res, 4),
		   "Ringbuf, overwrite mode (flag=off)\n"
		   "==================================\n"
		   "rb-libbpf nr_prod 1  1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "rb-libbpf nr_prod 2  3.000 ± 0.002M/s (drops 0.030 ± 0.000M/s)\n"
		   "\n"
		   "Ringbuf, overwrite mode (flag=on)\n"
		   "=================================\n"
		   "rb-libbpf nr_prod 1  2.000 ± 0.001M/s (drops 0.020 ± 0.000M/s)\n"
		   "rb-libbpf nr_prod 2  unsupported: BPF_F_RB_OVERWRITE: not supported\n");
}

/* Experiments without results (not reached before Ctrl-C) print nothing. */
TEST(experiment_without_results)
{
	struct experiment e[2];
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = e, .nr_exps = 2 };
	struct point pt;
	struct point_result res;

	make_exp(&e[0], "Empty", NULL);
	make_exp(&e[1], "Ünïcode", "x");
	make_point(&pt, 0, 1, 1, 0);
	make_ok(&res, &pt, 5e5, 250);
	CHECK_TEXT(render(&cfg, &res, 1),
		   "Ünïcode\n"
		   "=======\n"
		   "x                    0.500 ± 0.000M/s (drops 0.005 ± 0.000M/s)\n");
	CHECK_TEXT(render(&cfg, &res, 0), "");
}

/* Unsupported points of one reason: one line, led by what they share, not a row each. */
TEST(unsupported_points_folded)
{
	static long long four[] = { 1, 2, 12, 52 };
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct point pts[8];
	struct point_result res[8];

	make_exp(&e, "Overwrite", NULL);
	set_axis(&e, P_FLAG, flags, 2);
	set_axis(&e, P_PRODUCERS, four, 4);
	for (int i = 0; i < 8; i++) {
		make_point(&pts[i], i, 0, four[i % 4], flags[i / 4]);
		if (i < 4)
			make_ok(&res[i], &pts[i], 1e6, 0);
		else
			make_bad(&res[i], &pts[i], PS_UNSUPPORTED,
				 "BPF_F_RB_OVERWRITE not supported by kernel 6.18");
	}
	make_bad(&res[2], &pts[2], PS_UNSUPPORTED, "other reason");
	CHECK_TEXT(render(&cfg, res, 8),
		   "Overwrite\n"
		   "=========\n"
		   "producers=1 flag=off  1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "producers=2 flag=off  1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "producers=12 flag=off unsupported: other reason\n"
		   "producers=52 flag=off 1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "flag=on: 4 points unsupported: BPF_F_RB_OVERWRITE not supported by kernel "
		   "6.18\n");
	/* titled groups: the line goes in its group's block */
	e.label = "nr_prod {producers}";
	e.group = P_FLAG;
	make_bad(&res[2], &pts[2], PS_UNSUPPORTED,
		 "BPF_F_RB_OVERWRITE not supported by kernel 6.18");
	CHECK_TEXT(render(&cfg, res, 8),
		   "Overwrite (flag=off)\n"
		   "====================\n"
		   "nr_prod 1            1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "nr_prod 2            1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "nr_prod 12           unsupported: BPF_F_RB_OVERWRITE not supported by kernel "
		   "6.18\n"
		   "nr_prod 52           1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "\n"
		   "Overwrite (flag=on)\n"
		   "===================\n"
		   "flag=on: 4 points unsupported: BPF_F_RB_OVERWRITE not supported by kernel "
		   "6.18\n");
}

static bool known_x(const char *name, const void *ctx, char *buf, size_t len)
{
	if (strcmp(name, "x"))
		return false;
	snprintf(buf, len, "%s", (const char *)ctx);
	return true;
}

/* The one expander: known names filled, unknown ones and stray braces kept, cut at len. */
TEST(template_expands_known_names)
{
	char buf[32];

	template_expand("a {x} {y} {x", known_x, "42", buf, sizeof(buf));
	CHECK_STR(buf, "a 42 {y} {x");
	template_expand("{x}{x}", known_x, "123456", buf, 8);
	CHECK_STR(buf, "1234561");
}

/* {name?text}: the text where the value is "on", nothing where it is not. */
TEST(template_expands_conditions)
{
	char buf[32];

	template_expand("rb-custom{x?-sampled}", known_x, "on", buf, sizeof(buf));
	CHECK_STR(buf, "rb-custom-sampled");
	template_expand("rb-custom{x?-sampled}", known_x, "off", buf, sizeof(buf));
	CHECK_STR(buf, "rb-custom");
	template_expand("{x?output|reserve}-sampled", known_x, "on", buf, sizeof(buf));
	CHECK_STR(buf, "output-sampled");
	template_expand("{x?output|reserve}-sampled", known_x, "off", buf, sizeof(buf));
	CHECK_STR(buf, "reserve-sampled");
	template_expand("a{y?b}", known_x, "on", buf, sizeof(buf));
	CHECK_STR(buf, "a{y?b}");
}

/*
 * Workloads with other metrics than null's: htab_mem's (a per-producer
 * counter in k/s and gauges in bytes) and map_perf's (per-producer events).
 */
#define MIB	(1024.0 * 1024)
#define GIB	(1024.0 * MIB)

static const struct metric_def mem_metrics[] = {
	{ .name = "ops", .kind = MK_COUNTER, .unit = "k/s", .per_thread = true },
	{ .name = "mem", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_USAGE },
	{ .name = "mem_peak", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_PEAK },
	{ .name = "memlock", .kind = MK_GAUGE, .unit = "MiB" },
};
static const struct metric_def perf_metrics[] = {
	{ .name = "events", .kind = MK_COUNTER, .unit = "M/s", .per_thread = true },
	{ .name = "errors", .kind = MK_COUNTER, .unit = "M/s" },
};
static const char htab_values[] =
	"per-prod-op: {ops.per_worker:k/s}, avg mem: {mem:MiB}, peak mem: {mem_peak.max:MiB}";
static struct workload other_wl;

/* null's parameters with other metrics and default values template. */
static const struct workload *other_workload(const char *name, const struct metric_def *m,
					      int nr, const char *values)
{
	other_wl = null_workload;
	other_wl.name = name;
	other_wl.metrics = m;
	other_wl.nr_metrics = nr;
	other_wl.values = values;
	return &other_wl;
}

/* An ok point of other_wl run by nr_prod producers, metrics zeroed. */
static void make_other(struct point *pt, struct point_result *r, int nr_prod)
{
	make_point(pt, 0, 0, nr_prod, 0);
	pt->wp.wl = &other_wl;
	*r = (struct point_result){ .pt = pt, .status = PS_OK, .nr_producers = nr_prod };
	for (int m = 0; m < other_wl.nr_metrics; m++)
		r->stat[m] = (struct summary){ .n = 10 };
}

/* htab-mem's own line, from the workload's values template. */
TEST(htab_mem_row)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pt;
	struct point_result r;

	cfg.wl = other_workload("htab_mem", mem_metrics, 4, htab_values);
	make_exp(&e, "overwrite", NULL);
	make_other(&pt, &r, 8);
	/* 8 producers of 191.92k/s each ± 0.07k/s */
	r.stat[0] = (struct summary){ .mean = 8 * 191.92e3, .stddev = 8 * 70, .n = 10 };
	r.stat[1] = (struct summary){ .mean = 1.23 * MIB, .stddev = 2000, .max = 1.3 * MIB };
	r.stat[2] = (struct summary){ .mean = 1.4 * MIB, .stddev = 1, .max = 1.49 * MIB };
	CHECK_TEXT(render(&cfg, &r, 1),
		   "overwrite\n"
		   "=========\n"
		   "overwrite            per-prod-op: 191.92 ± 0.07k/s, avg mem: 1.23 ± 0.00MiB, "
		   "peak mem: 1.49MiB\n");
	/* the experiment's template over the workload's */
	e.values = "{ops}";
	CHECK_TEXT(render(&cfg, &r, 1), "overwrite\n=========\noverwrite            "
		   "1535.36 ± 0.56k/s\n");
}

/* Every stat and unit in one row, each with its own decimals. */
TEST(mixed_metrics_and_units)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pt;
	struct point_result r;

	cfg.wl = other_workload("htab_mem", mem_metrics, 4, NULL);
	make_exp(&e, "mixed", NULL);
	e.values = "{ops} | {ops:M/s} | {ops.median:/s} | {ops.ci95} | {ops.stddev:M/s} | "
		   "{mem.min:KiB} | {mem.max:B} | {memlock:GiB} | {mem_peak.median} | {mem.mean}";
	make_other(&pt, &r, 4);
	r.stat[0] = (struct summary){ .mean = 1234567, .stddev = 8901, .median = 1230000.4,
				      .ci95 = 2345.6, .n = 10 };
	r.stat[1] = (struct summary){ .mean = 1.75 * MIB, .min = 1536 * 1024 + 512,
				      .max = 2097152, .n = 10 };
	r.stat[2] = (struct summary){ .median = 2.5 * MIB, .n = 10 };
	r.stat[3] = (struct summary){ .mean = 1.5 * GIB, .n = 10 };
	CHECK_TEXT(render(&cfg, &r, 1),
		   "mixed\n=====\nmixed                1234.57 ± 8.90k/s | 1.235 ± 0.009M/s | "
		   "1230000/s | 2.35k/s | 0.009M/s | 1536.50KiB | 2097152B | 1.500 ± 0.000GiB | "
		   "2.50MiB | 1.75MiB\n");
	/* no template: the headline, then the others, each in its own unit */
	e.values = NULL;
	CHECK_TEXT(render(&cfg, &r, 1),
		   "mixed\n=====\nmixed                1234.57 ± 8.90k/s (308.64k/prod, "
		   "mem 1.75 ± 0.00MiB, "
		   "mem_peak 0.00 ± 0.00MiB, memlock 1536.00 ± 0.00MiB)\n");
}

/* per_worker divides the total by the producers; worker_* are the producers' own rates. */
TEST(worker_fields)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pt;
	struct point_result r;

	cfg.wl = other_workload("htab_mem", mem_metrics, 4, NULL);
	make_exp(&e, "w", NULL);
	e.values = "{ops.per_worker} {ops.worker_min} {ops.worker_median:/s} "
		   "{ops.worker_max:M/s} {ops.worker_mean}";
	make_other(&pt, &r, 2);
	r.stat[0] = (struct summary){ .mean = 400000, .stddev = 2000, .n = 10 };
	r.worker_rate = (struct summary){ .mean = 200000, .min = 194677, .median = 200000.2,
					  .max = 205323.4, .n = 2 };
	CHECK_TEXT(render(&cfg, &r, 1), "w\n=\nw                    200.00 ± 1.00k/s 194.68k/s "
		   "200000/s 0.205M/s 200.00k/s\n");
	/* a result without per-producer rates (imported), and one without producers */
	r.worker_rate = (struct summary){ 0 };
	r.nr_producers = 0;
	CHECK_TEXT(render(&cfg, &r, 1), "w\n=\nw                    n/a n/a n/a n/a n/a\n");
}

/* A gauge that could not be read (no memory controller) shows as n/a. */
TEST(unknown_gauge)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pt, pt2;
	struct point_result r, two[2];

	cfg.wl = other_workload("htab_mem", mem_metrics, 4, htab_values);
	make_exp(&e, "overwrite", NULL);
	make_other(&pt, &r, 8);
	r.stat[0] = (struct summary){ .mean = 8 * 191.92e3, .stddev = 8 * 70, .n = 10 };
	for (int m = 1; m < 3; m++)
		r.stat[m] = (struct summary){ NAN, NAN, NAN, NAN, NAN, NAN, 10 };
	r.stat[3] = (struct summary){ .mean = 0.5 * MIB, .n = 10 };
	snprintf(r.reason, sizeof(r.reason), "memory: no memory controller");
	CHECK_TEXT(render(&cfg, &r, 1),
		   "overwrite\n=========\noverwrite            per-prod-op: 191.92 ± 0.07k/s, "
		   "avg mem: n/a, peak mem: n/a\n"
		   "note: memory: no memory controller\n");
	cfg.wl = other_workload("htab_mem", mem_metrics, 4, NULL);
	CHECK_TEXT(render(&cfg, &r, 1),
		   "overwrite\n=========\noverwrite            1535.36 ± 0.56k/s (191.92k/prod, "
		   "mem n/a, "
		   "mem_peak n/a, memlock 0.50 ± 0.00MiB)\n"
		   "note: memory: no memory controller\n");
	/* the same reason twice is said once */
	e.values = "{mem}";
	e.label = "{producers}";
	two[0] = two[1] = r;
	two[1].pt = &pt2;
	pt2 = pt;
	pt2.wp.v[P_PRODUCERS] = 2;
	CHECK_TEXT(render(&cfg, two, 2),
		   "overwrite\n=========\n8                    n/a\n2                    n/a\n"
		   "note: memory: no memory controller\n");
}

/* worker_rows: map_perf_test's per-producer lines under each ok row that has them. */
TEST(worker_rows)
{
	static long long prods[] = { 2, 1, 12 };
	double rates[] = { 203983.4, 194677.0 };
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pts[3];
	struct point_result r[3];

	cfg.wl = other_workload("map_perf", perf_metrics, 2, NULL);
	make_exp(&e, "Map perf", "hash_kmalloc_{producers}");
	set_axis(&e, P_PRODUCERS, prods, 3);
	e.worker_rows = true;
	make_other(&pts[0], &r[0], 2);
	r[0].stat[0] = (struct summary){ .mean = 398660.4, .stddev = 1000, .n = 10 };
	r[0].thread_rate = rates;
	make_other(&pts[1], &r[1], 1);	/* no per-producer rates: no lines */
	r[1].stat[0] = (struct summary){ .mean = 194677, .n = 10 };
	make_other(&pts[2], &r[2], 12);
	r[2].status = PS_FAILED;
	r[2].thread_rate = rates;	/* never read: the row failed */
	for (int i = 0; i < 3; i++)
		pts[i].id = i;
	CHECK_TEXT(render(&cfg, r, 3),
		   "Map perf\n"
		   "========\n"
		   "hash_kmalloc_2       0.399 ± 0.001M/s (0.199M/prod, errors 0.000 ± 0.000M/s)\n"
		   "0:hash_kmalloc_2 203983 events per sec\n"
		   "1:hash_kmalloc_2 194677 events per sec\n"
		   "hash_kmalloc_1       0.195 ± 0.000M/s (0.195M/prod, errors 0.000 ± 0.000M/s)\n"
		   "hash_kmalloc_12      failed\n");
	e.worker_rows = false;
	CHECK_TEXT(render(&cfg, r, 1),
		   "Map perf\n========\nhash_kmalloc_2       0.399 ± 0.001M/s (0.199M/prod, "
		   "errors 0.000 ± 0.000M/s)\n");
}

/* The formatter, and the field parser's errors at the word at fault. */
TEST(formatter_and_fields)
{
	static const struct metric_def bare[] = {
		{ .name = "c", .kind = MK_COUNTER }, { .name = "g", .kind = MK_GAUGE },
	};
	const struct workload *wl = other_workload("htab_mem", mem_metrics, 4, NULL);
	struct metric_field f;
	char buf[128];
	size_t at;

	metric_format(NAN, metric_unit_find("MiB", MK_GAUGE), buf, sizeof(buf));
	CHECK_STR(buf, "n/a");
	metric_format_sd(NAN, 1, metric_unit_find("M/s", MK_COUNTER), buf, sizeof(buf));
	CHECK_STR(buf, "n/a");
	/* published without a stddev: the mean alone */
	metric_format_sd(2e6, NAN, metric_unit_find("M/s", MK_COUNTER), buf, sizeof(buf));
	CHECK_STR(buf, "2.000M/s");
	metric_format_sd_n(2e6, 0.5e6, 5, metric_unit_find("M/s", MK_COUNTER), buf, sizeof(buf));
	CHECK_STR(buf, "2.000 ± 0.500M/s");
	/* one sample has no spread to show: not "± 0.000" */
	metric_format_sd_n(2e6, 0, 1, metric_unit_find("M/s", MK_COUNTER), buf, sizeof(buf));
	CHECK_STR(buf, "2.000M/s ± n/a");
	metric_format(1536, metric_unit_find("KiB", MK_GAUGE), buf, sizeof(buf));
	CHECK_STR(buf, "1.50KiB");
	CHECK(metric_unit_find("k/s", MK_GAUGE) == NULL);
	CHECK_STR(metric_default_unit(&bare[0])->name, "M/s");
	CHECK_STR(metric_default_unit(&bare[1])->name, "MiB");

	CHECK_INT(metric_field_parse(wl, "mem_peak.max:KiB", 16, &f, &at, buf, sizeof(buf)), 0);
	CHECK_INT(f.metric, 2);
	CHECK_INT(f.stat, FS_MAX);
	CHECK_STR(f.unit->name, "KiB");
	CHECK_INT(metric_field_parse(wl, "mem:k/s", 7, &f, &at, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(at, 4);
	CHECK_STR(buf, "unit 'k/s' is for rates, and 'mem' is a gauge (use GiB, MiB, KiB or B)");
	CHECK_INT(metric_field_parse(wl, "mem.per_worker", 14, &f, &at, buf, sizeof(buf)),
		  -EINVAL);
	CHECK_INT(at, 4);
	CHECK_STR(buf, "statistic 'per_worker' needs a per-thread metric, and 'mem' of "
		  "workload 'htab_mem' is not one");
	CHECK_INT(metric_field_parse(wl, "mme.max", 7, &f, &at, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(at, 0);
	CHECK_STR(buf, "unknown metric 'mme' for workload 'htab_mem' (did you mean 'mem'?)");
}

/*
 * ns_per: the time one producer spends per event, 1e9 x producers / the
 * total rate (csum_diff's ns per helper call), for any counter; no unit,
 * no gauges, n/a without a rate.
 */
TEST(ns_per_field)
{
	struct metric_field f;
	struct point pt;
	struct point_result r;
	char buf[128];
	size_t at;

	other_workload("map_perf", perf_metrics, 2, NULL);
	make_other(&pt, &r, 2);
	/* 2 producers, 4M events/s in all: 2M/s each, 500 ns per event */
	r.stat[0] = (struct summary){ .mean = 4e6, .stddev = 1e3, .n = 10 };
	r.stat[1] = (struct summary){ .mean = 3e6, .n = 10 };
	CHECK_INT(metric_field_parse(&other_wl, "events.ns_per", 13, &f, &at, buf, sizeof(buf)),
		  0);
	CHECK_INT(f.stat, FS_NS_PER);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "500.00ns");
	/* a counter that is not per thread has it too: 2 / 3e6 s */
	CHECK_INT(metric_field_parse(&other_wl, "errors.ns_per", 13, &f, &at, buf, sizeof(buf)),
		  0);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "666.67ns");
	r.stat[1].mean = 0;
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "n/a");
	r.nr_producers = 0;
	metric_field_parse(&other_wl, "events.ns_per", 13, &f, &at, buf, sizeof(buf));
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "n/a");

	CHECK_INT(metric_field_parse(&other_wl, "events.ns_per:k/s", 17, &f, &at, buf,
				     sizeof(buf)), -EINVAL);
	CHECK_INT(at, 14);
	CHECK_STR(buf, "statistic 'ns_per' takes no unit");
	other_workload("htab_mem", mem_metrics, 4, NULL);
	CHECK_INT(metric_field_parse(&other_wl, "mem.ns_per", 10, &f, &at, buf, sizeof(buf)),
		  -EINVAL);
	CHECK_INT(at, 4);
	CHECK_STR(buf, "statistic 'ns_per' is time per event and needs a counter, and 'mem' of "
		  "workload 'htab_mem' is a gauge");
}

/*
 * per_prod: a counter's total rate divided among the producers, the kernel
 * bench's "(3.742M/prod)", for any counter, in its unit's scale; n/a
 * without producers; no gauges.  The default row shows the headline's.
 */
TEST(per_prod_field)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct metric_field f;
	struct point pt;
	struct point_result r;
	char buf[128];
	size_t at;

	cfg.wl = other_workload("map_perf", perf_metrics, 2, NULL);
	make_other(&pt, &r, 4);
	/* 4 producers, 14.968M/s in all: the bench's "14.968 ± 0.012M/s (3.742M/prod)" */
	r.stat[0] = (struct summary){ .mean = 14.968e6, .stddev = 12e3, .n = 10 };
	r.stat[1] = (struct summary){ .mean = 3e3, .n = 10 };
	CHECK_INT(metric_field_parse(&other_wl, "events.per_prod", 15, &f, &at, buf,
				     sizeof(buf)), 0);
	CHECK_INT(f.stat, FS_PER_PROD);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "3.742M/prod");
	CHECK_INT(metric_field_parse(&other_wl, "errors.per_prod:/s", 18, &f, &at, buf,
				     sizeof(buf)), 0);
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "750/prod");
	make_exp(&e, "r", NULL);
	CHECK_TEXT(render(&cfg, &r, 1), "r\n=\nr                    14.968 ± 0.012M/s (3.742M/prod, "
		   "errors 0.003 ± 0.000M/s)\n");
	r.nr_producers = 0;
	field_format_result(&f, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "n/a");
	CHECK_TEXT(render(&cfg, &r, 1), "r\n=\nr                    14.968 ± 0.012M/s "
		   "(errors 0.003 ± 0.000M/s)\n");
	other_workload("htab_mem", mem_metrics, 4, NULL);
	CHECK_INT(metric_field_parse(&other_wl, "mem.per_prod", 12, &f, &at, buf, sizeof(buf)),
		  -EINVAL);
	CHECK_INT(at, 4);
	CHECK_STR(buf, "statistic 'per_prod' is a rate per producer and needs a counter, and "
		  "'mem' of workload 'htab_mem' is a gauge");
}

/* A field the table cannot read stays as written; check has reported it. */
TEST(bad_field_kept)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct point pt;
	struct point_result r;

	cfg.wl = other_workload("htab_mem", mem_metrics, 4, NULL);
	make_exp(&e, "b", NULL);
	e.values = "{mem:k/s} {nope} {mem.max}";
	make_other(&pt, &r, 1);
	r.stat[1].max = MIB;
	CHECK_TEXT(render(&cfg, &r, 1), "b\n=\nb                    {mem:k/s} {nope} 1.00MiB\n");
}

/* Every workload's own values template is one check would accept. */
static const struct metric_def prog_metrics_of[] = {
	{ .name = "hits", .kind = MK_COUNTER, .unit = "M/s" },
	{ .name = "drops", .kind = MK_COUNTER, .unit = "M/s" },
	{ .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS },
	{ .name = "prog_ns", .kind = MK_COUNTER, .unit = "ms/s", .source = MS_PROG_NS },
};

/* An ok point of ringbuf's metrics with ns per run from a statistics pass. */
static void make_prog(struct experiment *e, struct sweep_cfg *cfg, struct point *pt,
		      struct point_result *r)
{
	cfg->wl = other_workload("ringbuf", prog_metrics_of, 4, NULL);
	other_wl.prog_runs_scope = "its program runs on every syscall";
	make_exp(e, "Ringbuf", "rb {producers}");
	make_other(pt, r, 2);
	r->stat[0] = (struct summary){ .mean = 4788000, .stddev = 731000, .n = 10 };
	r->per_run = (struct summary){ .mean = 8882.1, .stddev = 2427.4, .n = 10 };
}

/*
 * ns_per_run is not in the default row: it comes from a separate pass
 * under bpf_stats and does not hold still between runs (3.2 µs at 1
 * producer, 84 µs at 2).  Nor in the markdown table's columns.
 */
TEST(prog_per_run_not_in_default_row)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct run_facts facts = { .per_run_pass = true, .pass_s = 1 };
	struct point pt;
	struct point_result r;
	char *md = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&md, &len);

	make_prog(&e, &cfg, &pt, &r);
	CHECK_TEXT(table_text(&cfg, &facts, &r, 1),
		   "Ringbuf\n=======\n"
		   "rb 2                 4.788 ± 0.731M/s (2.394M/prod, drops 0.000 ± 0.000M/s)\n");
	CHECK(f && !table_render_results(f, &cfg, &facts, &r, 1, true));
	if (f)
		fclose(f);
	CHECK_TEXT(md, "### Ringbuf\n\n| point | hits | drops |\n| --- | ---: | ---: |\n"
		   "| rb 2 | 4.788 ± 0.731M/s | 0.000 ± 0.000M/s |\n");
	other_wl.prog_runs_scope = NULL;
}

/*
 * A values template shows it by name; the pass's note follows a block
 * only where a row shows it as a number.
 */
TEST(per_run_note_only_with_figure)
{
	struct experiment e;
	struct sweep_cfg cfg = { .exps = &e, .nr_exps = 1 };
	struct run_facts facts = { .per_run_pass = true, .pass_s = 1 };
	struct point pt;
	struct point_result r;

	make_prog(&e, &cfg, &pt, &r);
	/* a template without it: no figure, so no note about one */
	e.values = "{hits}";
	CHECK_TEXT(table_text(&cfg, &facts, &r, 1),
		   "Ringbuf\n=======\nrb 2                 4.788 ± 0.731M/s\n");
	/* asked for by name: the figure, and where it came from */
	e.values = "{hits} (prog {prog_ns.per_run}/run)";
	CHECK_TEXT(table_text(&cfg, &facts, &r, 1),
		   "Ringbuf\n=======\n"
		   "rb 2                 4.788 ± 0.731M/s (prog 8882.1 ± 2427.4ns/run)\n"
		   "note: prog ns/run from a separate 1 s pass of each point with bpf_stats on "
		   "(off while the rates were measured); its program runs on every syscall\n");
	/* a run of short repetitions had a pass as short (meta says how long) */
	facts.pass_s = 0.3;
	CHECK_TEXT(table_text(&cfg, &facts, &r, 1),
		   "Ringbuf\n=======\n"
		   "rb 2                 4.788 ± 0.731M/s (prog 8882.1 ± 2427.4ns/run)\n"
		   "note: prog ns/run from a separate 0.3 s pass of each point with bpf_stats on "
		   "(off while the rates were measured); its program runs on every syscall\n");
	/* the kernel kept none: n/a, and nothing to explain */
	r.per_run = (struct summary){ .mean = NAN, .n = 0 };
	CHECK_TEXT(table_text(&cfg, &facts, &r, 1),
		   "Ringbuf\n=======\nrb 2                 4.788 ± 0.731M/s (prog n/a/run)\n");
	other_wl.prog_runs_scope = NULL;
}

TEST(workload_values_parse)
{
	for (int w = 0; w < nr_workloads; w++) {
		const struct workload *wl = workloads[w];
		const char *v = wl->values, *open, *close = NULL;
		struct metric_field f;
		char why[256];
		size_t at;

		for (open = v ? strchr(v, '{') : NULL; open; open = strchr(close + 1, '{')) {
			close = strchr(open, '}');
			CHECK(close != NULL);
			if (metric_field_parse(wl, open + 1, close - open - 1, &f, &at, why,
					       sizeof(why)))
				CHECK_FAIL_("%s: %s", wl->name, why);
		}
	}
}

RUN_TESTS(kernel_format_with_template, template_of_every_type, groups_and_default_labels,
	  single_row_groups_and_wide_labels, titled_groups, experiment_without_results,
	  unsupported_points_folded,
	  template_expands_known_names, template_expands_conditions, htab_mem_row,
	  mixed_metrics_and_units, worker_fields,
	  unknown_gauge, worker_rows, formatter_and_fields, ns_per_field, per_prod_field, bad_field_kept,
	  prog_per_run_not_in_default_row, per_run_note_only_with_figure, workload_values_parse)
