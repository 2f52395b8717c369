// SPDX-License-Identifier: GPL-2.0
/* table.c: the exact text of cover-letter tables built from hand-made results. */
#include <stdlib.h>

#include "check.h"
#include "table.h"
#include "template.h"

extern const struct workload null_workload;

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL, NR_P };

static long long one_val[NR_P][1] = { { 1 }, { 1000000 }, { 0 }, { 64 }, { 0 }, { 0 }, { 0 } };
static long long producers[] = { 1, 2, 12, 52 };
static long long flags[] = { 0, 1 };

/* An experiment over every null parameter, one value each unless vals is given. */
static void make_exp(struct experiment *e, const char *title, const char *label)
{
	*e = (struct experiment){ .title = (char *)title, .label = (char *)label, .group = -1 };
	for (int p = 0; p < NR_P; p++)
		e->axes[e->nr_axes++] = (struct axis){ p, one_val[p], 1 };
}

static void set_axis(struct experiment *e, int p, long long *vals, int nr)
{
	e->axes[p].vals = vals;
	e->axes[p].nr_vals = nr;
}

static void make_point(struct point *pt, int id, int exp, int nr_prod, int flag)
{
	*pt = (struct point){ .id = id, .exp = exp, .wp.wl = &null_workload };
	for (int p = 0; p < NR_P; p++)
		pt->wp.v[p] = one_val[p][0];
	pt->wp.v[P_PRODUCERS] = nr_prod;
	pt->wp.v[P_FLAG] = flag;
}

static void make_ok(struct point_result *r, const struct point *pt, double mean, double sd)
{
	*r = (struct point_result){ .pt = pt, .status = PS_OK };
	r->stat[0] = (struct summary){ .mean = mean, .stddev = sd, .n = 10 };
	r->stat[1] = (struct summary){ .mean = mean / 100, .stddev = sd / 100, .n = 10 };
}

static void make_bad(struct point_result *r, const struct point *pt, enum point_status st,
		     const char *reason)
{
	*r = (struct point_result){ .pt = pt, .status = st };
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

/* table_render into a string, with facts; NULL on error (caller frees). */
static char *render_facts(const struct sweep_cfg *cfg, const struct run_facts *facts,
			  const struct point_result *res, int nr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return NULL;
	err = table_render(f, cfg, facts, res, nr);
	fclose(f);
	if (err) {
		free(text);
		return NULL;
	}
	return text;
}

static char *render(const struct sweep_cfg *cfg, const struct point_result *res, int nr)
{
	return render_facts(cfg, NULL, res, nr);
}

/* CHECK_STR, freeing the text either way. */
#define CHECK_TEXT(text, want) do {						\
	char *t_ = (text);							\
	int ok_ = t_ && !strcmp(t_, want);					\
	if (!ok_)								\
		printf("got:\n%s\nwant:\n%s\n", t_ ? t_ : "(null)", want);	\
	free(t_);								\
	CHECK(ok_);								\
} while (0)

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
	table_label(&cfg, &e, &pt, buf, sizeof(buf));
	CHECK_STR(buf, "slow/on/4096B 3{nope} {unclosed");
	table_label(&cfg, &e, &pt, buf, 8);
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

/*
 * Rows with quality flags end in " [n]"; the footnotes follow the rows of
 * their block (each titled group is a block), numbered on across blocks.
 */
TEST(noisy_rows_marked)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1, .max_cv = 10 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "Noisy", "nr_prod {producers}");
	set_axis(&e, P_PRODUCERS, producers, 2);
	set_axis(&e, P_FLAG, flags, 2);
	e.group = P_FLAG;
	for (int i = 0; i < 4; i++) {
		make_point(&pts[i], i, 0, producers[i / 2], flags[i % 2]);
		make_ok(&res[i], &pts[i], 1e6, 1e3);
	}
	res[0].quality = (struct quality){ .flags = QF_CV | QF_ZERO, .n = 5, .nr_zero = 4,
					   .cv_pct = 224 };
	res[0].tries = 3;
	res[3].quality = (struct quality){ .flags = QF_INTERFERENCE, .other_pct = 23.4 };
	CHECK_TEXT(render(&cfg, res, 4),
		   "Noisy (flag=off)\n"
		   "================\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s) [1]\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)\n"
		   "[1] cv=224% (stddev over 10% of the mean); zero=4/5 (intervals near zero),"
		   " after 3 tries\n"
		   "\n"
		   "Noisy (flag=on)\n"
		   "===============\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s) [2]\n"
		   "[2] interference=23% (of the point's CPU time went to other processes)\n");
}

/* The machine above the table, as seed 002 shows it; a smoke run says so in its titles. */
TEST(machine_line_and_smoke_run)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct run_facts facts = { .arch = "x86_64", .cpu_model = "AMD EPYC 9654" };
	struct point pt;
	struct point_result res;

	make_exp(&e, "Ringbuf", "rb-libbpf nr_prod {producers}");
	make_point(&pt, 0, 0, 1, 0);
	make_ok(&res, &pt, 14970123.4, 12000);
	CHECK_TEXT(render_facts(&cfg, &facts, &res, 1),
		   "- x86_64 (AMD EPYC 9654)\n"
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts = (struct run_facts){ .arch = "arm64", .cpu_model = "unknown", .quick = true };
	CHECK_TEXT(render_facts(&cfg, &facts, &res, 1),
		   "- arm64\n"
		   "Ringbuf (smoke run: --quick)\n"
		   "============================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* nor are a TCG run's numbers, however long it ran: both notes when both hold */
	facts = (struct run_facts){ .arch = "x86_64", .tcg = true };
	CHECK_TEXT(render_facts(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (VM under TCG emulation: for function, not performance)\n"
		   "===============================================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts.quick = true;
	CHECK_TEXT(render_facts(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (smoke run: --quick) (VM under TCG emulation: for function, not "
		   "performance)\n"
		   "=========================================="
		   "==========================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* a table over several machines (or none known) names none */
	facts = (struct run_facts){ .arch = "unknown", .cpu_model = "x" };
	CHECK_TEXT(render_facts(&cfg, &facts, &res, 1),
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
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

RUN_TESTS(kernel_format_with_template, template_of_every_type, groups_and_default_labels,
	  single_row_groups_and_wide_labels, titled_groups, experiment_without_results,
	  noisy_rows_marked, machine_line_and_smoke_run, unsupported_points_folded,
	  template_expands_known_names)
