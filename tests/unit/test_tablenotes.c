// SPDX-License-Identifier: GPL-2.0
/*
 * table.c: what frames the cover-letter table's rows: the machine line
 * above it, the label column's width across its blocks, and the rows'
 * quality flags with their legend after it.
 */
#include <stdlib.h>

#include "check.h"
#include "table_fixture.h"

static long long two[] = { 1, 2 };
static long long flags[] = { 0, 1 };

/*
 * A row with quality flags ends in them, with its own figures; what each
 * flag means is said once, in a legend after the table, however many rows
 * and blocks (each titled group is a block) show it.  It was a footnote
 * line per row, each explaining its flags again.
 */
TEST(noisy_rows_marked)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1, .max_cv = 10 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "Noisy", "nr_prod {producers}");
	set_axis(&e, P_PRODUCERS, two, 2);
	set_axis(&e, P_FLAG, flags, 2);
	e.group = P_FLAG;
	for (int i = 0; i < 4; i++) {
		make_point(&pts[i], i, 0, two[i / 2], flags[i % 2]);
		make_ok(&res[i], &pts[i], 1e6, 1e3);
	}
	res[0].quality = (struct quality){ .flags = QF_CV | QF_ZERO, .n = 5, .nr_zero = 4,
					   .cv_pct = 224 };
	res[0].tries = 3;
	res[2].quality = (struct quality){ .flags = QF_CV, .cv_pct = 12 };
	res[3].quality = (struct quality){ .flags = QF_INTERFERENCE | QF_CV, .wait_pct = 23.4,
					   .cv_pct = 31 };
	CHECK_TEXT(render(&cfg, res, 4),
		   "Noisy (flag=off)\n"
		   "================\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)"
		   " [cv=224%, zero=4/5, after 3 tries]\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s) [cv=12%]\n"
		   "\n"
		   "Noisy (flag=on)\n"
		   "===============\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)"
		   " [cv=31%, interference=23%]\n"
		   "\n"
		   "[cv=N%] the intervals' stddev is N% of their mean, over 10%\n"
		   "[zero=K/N] K of the N measured intervals near zero\n"
		   "[interference=N%] a thread of the point waited N% of its measured time for"
		   " a CPU others held\n");
}

/* markdown: the flags end the row's last cell; the legend is a paragraph a flag. */
TEST(noisy_rows_markdown)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1, .max_cv = 10 };
	struct point pt;
	struct point_result res;
	char *md = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&md, &len);

	make_exp(&e, "Noisy", "nr_prod {producers}");
	make_point(&pt, 0, 0, 1, 0);
	make_ok(&res, &pt, 1e6, 1e3);
	res.quality = (struct quality){ .flags = QF_BIMODAL | QF_STEAL, .steal_pct = 5 };
	CHECK(f && !table_render_results(f, &cfg, NULL, &res, 1, true));
	if (f)
		fclose(f);
	CHECK_TEXT(md, "### Noisy\n\n| point | hits | drops |\n| --- | ---: | ---: |\n"
		   "| nr_prod 1 | 1.000 ± 0.001M/s | 0.010 ± 0.000M/s [bimodal, steal=5%] |\n"
		   "\n"
		   "[bimodal] the intervals form two clusters: the mean is of neither\n"
		   "\n"
		   "[steal=N%] N% of the point's CPU time went to the hypervisor\n");
}

/*
 * Labels over 20 characters widen the label column of the whole table,
 * not of their own block alone: every block's numbers start in one
 * column, as the kernel's scripts line them up by hand.
 */
TEST(label_column_sized_to_table)
{
	struct experiment e[2];
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = e, .nr_exps = 2 };
	struct point pts[3];
	struct point_result res[3];

	make_exp(&e[0], "Long", "rb-libbpf-sampled nr_prod {producers}");
	set_axis(&e[0], P_PRODUCERS, two, 2);
	make_exp(&e[1], "Short", "rb {producers}");
	for (int i = 0; i < 2; i++)
		make_point(&pts[i], i, 0, two[i], 0);
	make_point(&pts[2], 2, 1, 1, 0);
	for (int i = 0; i < 3; i++)
		make_ok(&res[i], &pts[i], 1e6 * (i + 1), 0);
	CHECK_TEXT(render(&cfg, res, 3),
		   "Long\n"
		   "====\n"
		   "rb-libbpf-sampled nr_prod 1 1.000 ± 0.000M/s (drops 0.010 ± 0.000M/s)\n"
		   "rb-libbpf-sampled nr_prod 2 2.000 ± 0.000M/s (drops 0.020 ± 0.000M/s)\n"
		   "\n"
		   "Short\n"
		   "=====\n"
		   "rb 1                        3.000 ± 0.000M/s (drops 0.030 ± 0.000M/s)\n");
}

/*
 * The machine above the table, as seed 002 shows it, with the kernel it
 * ran (half of what the numbers are of); a smoke run says so in its titles.
 */
TEST(machine_line_and_smoke_run)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct run_facts facts = { .arch = "x86_64", .cpu_model = "AMD EPYC 9654",
				   .kernel_release = "6.18.0-rc4" };
	struct point pt;
	struct point_result res;

	make_exp(&e, "Ringbuf", "rb-libbpf nr_prod {producers}");
	make_point(&pt, 0, 0, 1, 0);
	make_ok(&res, &pt, 14970123.4, 12000);
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64 (AMD EPYC 9654), kernel 6.18.0-rc4\n"
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* an imported set's kernel is unknown: not named */
	facts.kernel_release = "unknown";
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64 (AMD EPYC 9654)\n"
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts = (struct run_facts){ .arch = "arm64", .cpu_model = "unknown", .quick = true,
				    .kernel_release = "6.19.0" };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- arm64, kernel 6.19.0\n"
		   "Ringbuf (smoke run: --quick)\n"
		   "============================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* nor are a TCG run's numbers, however long it ran: both notes when both hold */
	facts = (struct run_facts){ .arch = "x86_64", .tcg = true };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (VM under TCG emulation: for function, not performance)\n"
		   "===============================================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts.quick = true;
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (smoke run: --quick) (VM under TCG emulation: for function, not "
		   "performance)\n"
		   "=========================================="
		   "==========================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* a table over several machines (or none known) names none */
	facts = (struct run_facts){ .arch = "unknown", .cpu_model = "x", .kernel_release = "6" };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
}

RUN_TESTS(noisy_rows_marked, noisy_rows_markdown, label_column_sized_to_table,
	  machine_line_and_smoke_run)
